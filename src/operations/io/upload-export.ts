/**
 * import/upload (the task waits for a multipart POST to its form URL, contract §1.3) and export/url
 * (signed, expiring download URLs, contract §3 and §1.9).
 */
import { z } from "zod";
import { signFileUrl, uploadSignature } from "../../security/signing";
import { outputKey } from "../../storage/keys";
import { checkZipBudget, zipFiles } from "./zip";
import { safeFilename } from "./filenames";
import type { OperationHandler } from "../types";

export const importUpload: OperationHandler<{ redirect?: string }> = {
  operation: "import/upload",
  kind: "platform",
  formats: [{ input: "*", output: "*" }],
  /** `redirect`: where the upload endpoint sends a browser after a successful upload (303, contract §1.3). */
  params: z.object({
    redirect: z
      .string()
      .url()
      .refine((u) => /^https?:\/\//i.test(u), "redirect must be an http(s) URL.")
      .optional(),
  }),
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
  /** One ZIP of every input file behind a single URL (named `archive.zip`, or `filename`). */
  archive_multiple_files: z.boolean().optional(),
  /** Name of the archive when archive_multiple_files is true. */
  filename: z.string().min(1).max(200).optional(),
});

/** Name of the archive of an archive_multiple_files export. */
const ARCHIVE_NAME = "archive.zip";

export const exportUrl: OperationHandler<z.infer<typeof exportUrlParams>> = {
  operation: "export/url",
  kind: "platform",
  formats: [{ input: "*", output: "*" }],
  params: exportUrlParams,
  credits: 0,
  takesInput: true,
  // Signing URLs reads no bytes; one ZIP of several files does, so that one stays on the queue.
  inline: (p) => p.archive_multiple_files !== true,
  async run(inputs, p, ctx) {
    const s = ctx.settings;
    const expires = Math.floor(Date.now() / 1000) + s.fileUrlTtlSeconds;
    if (p.archive_multiple_files && inputs.length > 1) {
      // The runner stores the archive as output 0 of this task; its key is known now, so the URL is signed before it exists.
      checkZipBudget(inputs.reduce((n, f) => n + f.size, 0));
      const data = zipFiles(
        await Promise.all(inputs.map(async (f) => ({ filename: f.filename, data: await f.bytes() }))),
      );
      const filename = safeFilename(
        p.filename && /\.zip$/i.test(p.filename) ? p.filename : p.filename ? `${p.filename}.zip` : ARCHIVE_NAME,
      );
      const url = await signFileUrl(s.publicBaseUrl, s.urlSigningSecret, {
        key: outputKey(ctx.jobId, ctx.taskId, 0, filename),
        expires,
        inline: false,
      });
      return {
        files: [{ filename, data, contentType: "application/zip" }],
        extra: { files: [{ filename, size: data.byteLength, url }] },
      };
    }
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
