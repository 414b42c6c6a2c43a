/**
 * The upload form target of import/upload tasks (contract §1.3): POST multipart/form-data without
 * Authorization, the form's `parameters` first and `file` last; accepts the node SDK's own
 * multipart (lowercase part headers, unquoted filename); answers 201 with an empty body.
 */
import { jobStub } from "../env";
import { Hono } from "hono";
import { safeFilename } from "../operations/io/filenames";
import { MAX_IMPORT_BYTES, signingSecret } from "../runner/settings";
import { safeEqual, uploadSignature } from "../security/signing";
import { outputKey } from "../storage/keys";
import { isUuid, type AppEnv } from "./context";
import { ApiError, notFound } from "./errors";

export const uploads = new Hono<AppEnv>();

uploads.post("/v2/upload/:jobId/:taskId", async (c) => {
  const { jobId, taskId } = c.req.param();
  if (!isUuid(jobId) || !isUuid(taskId)) throw notFound();
  const declared = Number(c.req.header("content-length") ?? NaN);
  if (declared > MAX_IMPORT_BYTES) throw new ApiError(413, `The upload is larger than ${MAX_IMPORT_BYTES} bytes.`, "FILE_TOO_LARGE");
  let form: FormData;
  try {
    form = await c.req.raw.formData();
  } catch (err) {
    throw new ApiError(400, `The upload is not valid multipart/form-data: ${(err as Error).message}`, "INVALID_DATA");
  }
  const expires = Number(form.get("expires"));
  const signature = String(form.get("signature") ?? "");
  const want = await uploadSignature(signingSecret(c.env), jobId, taskId, expires);
  if (!safeEqual(want, signature)) throw new ApiError(403, "The upload form signature is invalid.", "FORBIDDEN");
  if (!(expires * 1000 > Date.now())) throw new ApiError(403, "The upload form has expired.", "FORBIDDEN");
  const file = form.get("file");
  if (!file || typeof file === "string") throw new ApiError(422, "The given data was invalid.", "INVALID_DATA", { file: ["The file field is required and must come last."] });
  if (file.size > MAX_IMPORT_BYTES) throw new ApiError(413, `The upload is larger than ${MAX_IMPORT_BYTES} bytes.`, "FILE_TOO_LARGE");
  const filename = safeFilename(file.name);
  const key = outputKey(jobId, taskId, 0, filename);
  const contentType = file.type || "application/octet-stream";
  await c.env.FILES.put(key, file, { httpMetadata: { contentType } });
  const r = await jobStub(c.env, jobId).uploadReceived(taskId, { filename, size: file.size, key, contentType });
  if ("refused" in r) {
    await c.env.FILES.delete(key);
    throw new ApiError(422, "The given data was invalid.", "INVALID_DATA", { status: [r.refused] });
  }
  return c.body(null, 201);
});
