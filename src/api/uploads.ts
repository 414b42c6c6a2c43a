/**
 * The upload form target of import/upload tasks (contract §1.3): POST multipart/form-data without
 * Authorization, the form's `parameters` first and `file` last; accepts the node SDK's own
 * multipart (lowercase part headers, unquoted filename); answers 201 with an empty body, or 303 to the
 * task's `redirect`.
 */
import { jobStub } from "../env";
import { parseMultipartRequest } from "@remix-run/multipart-parser";
import { Hono } from "hono";
import { contentTypeOf, safeFilename } from "../operations/io/filenames";
import { MAX_UPLOAD_BYTES, signingSecret } from "../settings";
import { safeEqual, uploadSignature } from "../security/signing";
import { uploadKey } from "../storage/keys";
import { isUuid, type AppEnv } from "./context";
import { ApiError, notFound } from "./errors";

export const uploads = new Hono<AppEnv>();

uploads.post("/v2/upload/:jobId/:taskId", async (c) => {
  const { jobId, taskId } = c.req.param();
  if (!isUuid(jobId) || !isUuid(taskId)) throw notFound();
  const declared = Number(c.req.header("content-length") ?? NaN);
  if (declared > MAX_UPLOAD_BYTES)
    throw new ApiError(413, `The upload is larger than ${MAX_UPLOAD_BYTES} bytes.`, "FILE_TOO_LARGE");
  const fields = new Map<string, string>();
  let file: { name: string; type: string; bytes: Uint8Array } | null = null;
  try {
    // workerd's own formData() ignores the node SDK's unquoted `filename=input.png` (contract §1.3), so parse with a library that accepts it.
    for await (const part of parseMultipartRequest(c.req.raw, {
      maxFileSize: MAX_UPLOAD_BYTES,
      maxHeaderSize: 16 * 1024,
    })) {
      if (part.isFile && part.name === "file")
        file = { name: part.filename ?? "file", type: part.mediaType ?? "", bytes: part.bytes };
      else if (part.name) fields.set(part.name, part.text);
    }
  } catch (err) {
    const tooBig = /exceed|too large|max/i.test((err as Error).message);
    throw new ApiError(
      tooBig ? 413 : 400,
      tooBig
        ? `The upload is larger than ${MAX_UPLOAD_BYTES} bytes.`
        : `The upload is not valid multipart/form-data: ${(err as Error).message}`,
      tooBig ? "FILE_TOO_LARGE" : "INVALID_DATA",
    );
  }
  const expires = Number(fields.get("expires"));
  const want = await uploadSignature(signingSecret(c.env), jobId, taskId, expires);
  if (!safeEqual(want, fields.get("signature") ?? ""))
    throw new ApiError(403, "The upload form signature is invalid.", "FORBIDDEN");
  if (!(expires * 1000 > Date.now())) throw new ApiError(403, "The upload form has expired.", "FORBIDDEN");
  if (!file)
    throw new ApiError(422, "The given data was invalid.", "INVALID_DATA", {
      file: ["The file field is required and must come last."],
    });
  const filename = safeFilename(file.name);
  const key = uploadKey(jobId, taskId, filename);
  const contentType = file.type && file.type !== "application/octet-stream" ? file.type : contentTypeOf(filename);
  await c.env.FILES.put(key, file.bytes, { httpMetadata: { contentType } });
  const r = await jobStub(c.env, jobId).uploadReceived(taskId, {
    filename,
    size: file.bytes.byteLength,
    key,
    contentType,
  });
  if ("refused" in r) {
    await c.env.FILES.delete(key);
    throw new ApiError(422, "The given data was invalid.", "INVALID_DATA", { status: [r.refused] });
  }
  // A browser posting the form follows `redirect` (contract §1.3: 303 See Other, so it GETs the page).
  const redirect = (r.payload as { redirect?: unknown } | undefined)?.redirect;
  if (typeof redirect === "string") return c.redirect(redirect, 303);
  return c.body(null, 201);
});
