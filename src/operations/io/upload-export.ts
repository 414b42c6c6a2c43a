/**
 * import/upload (the task waits for a multipart POST to its form URL, contract §1.3) and export/url
 * (signed, expiring download URLs, contract §3 and §1.9).
 */
import { z } from "zod";
import { signFileUrl, uploadSignature } from "../../security/signing";
import type { OperationHandler } from "../types";

export const importUpload: OperationHandler<{ redirect?: string }> = {
  operation: "import/upload",
  kind: "platform",
  formats: [{ input: "*", output: "*" }],
  params: z.object({ redirect: z.string().url().optional() }),
  credits: 0,
  takesInput: false,
  mode: "upload",
  async run() {
    throw new Error("import/upload is finished by the upload endpoint, not run.");
  },
};

/** Lifetime of an upload form, in seconds. */
export const UPLOAD_FORM_TTL_S = 24 * 3600;

/**
 * The `result.form` of a waiting import/upload task: `{url, parameters}` with string values only
 * (.NET calls GetString() on each, contract §1.3).
 */
export async function uploadForm(base: string, secret: string, jobId: string, taskId: string, nowS: number) {
  const expires = nowS + UPLOAD_FORM_TTL_S;
  const signature = await uploadSignature(secret, jobId, taskId, expires);
  return { url: `${base}/v2/upload/${jobId}/${taskId}`, parameters: { expires: String(expires), signature } };
}

export const exportUrlParams = z.object({
  inline: z.boolean().optional(),
  archive_multiple_files: z.literal(false, { error: "archive_multiple_files is not supported yet; export files one by one." }).optional(),
});

export const exportUrl: OperationHandler<z.infer<typeof exportUrlParams>> = {
  operation: "export/url",
  kind: "platform",
  formats: [{ input: "*", output: "*" }],
  params: exportUrlParams,
  credits: 0,
  takesInput: true,
  async run(inputs, p, ctx) {
    const s = ctx.settings;
    const expires = Math.floor(Date.now() / 1000) + s.fileUrlTtlSeconds;
    const files = await Promise.all(
      inputs.map(async (f) => ({
        filename: f.filename,
        size: f.size,
        url: await signFileUrl(s.publicBaseUrl, s.urlSigningSecret, { key: f.key, expires, inline: p.inline === true }),
      })),
    );
    return { files: [], extra: { files } };
  },
};
