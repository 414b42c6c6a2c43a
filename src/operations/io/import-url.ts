/**
 * import/url: fetches a file over http(s) and streams it into the FileStore (issue 2, contract §6).
 * Redirects are followed by hand (at most 5) so that every hop passes the SSRF guard. Any size up to
 * RuntimeSettings.maxImportBytes (MAX_IMPORT_BYTES, default 5 GiB; issue 35) streams into R2: the cap is
 * checked from Content-Length and counted while streaming; a body of unknown length (chunked, or
 * decoded from a Content-Encoding) goes into R2 as a multipart upload (storage/r2-store.ts).
 */
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import { refuseUrl } from "../../security/ssrf";
import type { OperationHandler } from "../types";
import { capped } from "../../storage/parts";
import { filenameFromDisposition, filenameFromUrl, safeFilename } from "./filenames";

export const importUrlParams = z.object({
  url: z.string().url("must be an absolute http(s) URL").max(8192),
  filename: z.string().max(255).optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

const MAX_REDIRECTS = 5;

export const importUrl: OperationHandler<z.infer<typeof importUrlParams>> = {
  operation: "import/url",
  kind: "platform",
  formats: [{ input: "*", output: "*" }],
  params: importUrlParams,
  credits: 0,
  takesInput: false,
  check: (p) => {
    const why = refuseUrl(p.url, true);
    return why ? [`url: ${why}`] : [];
  },
  async run(_inputs, p, ctx) {
    let url = p.url;
    let res: Response | null = null;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const why = refuseUrl(url, ctx.settings.allowPrivateImports);
      if (why) throw new TaskError("IMPORT_FORBIDDEN", hop ? `Redirect refused: ${why}` : why);
      try {
        res = await fetch(url, { headers: p.headers, redirect: "manual", signal: ctx.signal });
      } catch (err) {
        throw new TaskError("DOWNLOAD_FAILED", `Could not download ${url}: ${(err as Error).message}`, {
          retryable: true,
          cause: err,
        });
      }
      const loc = res.headers.get("location");
      if (res.status >= 300 && res.status < 400 && loc) {
        await res.body?.cancel();
        url = new URL(loc, url).toString();
        continue;
      }
      break;
    }
    if (!res || (res.status >= 300 && res.status < 400))
      throw new TaskError("DOWNLOAD_FAILED", `Too many redirects (more than ${MAX_REDIRECTS}).`);
    if (!res.ok) {
      await res.body?.cancel();
      throw new TaskError("DOWNLOAD_FAILED", `Downloading ${url} failed with HTTP ${res.status}.`, {
        retryable: res.status >= 500 || res.status === 429,
      });
    }
    const filename = safeFilename(
      p.filename ?? filenameFromDisposition(res.headers.get("content-disposition")) ?? filenameFromUrl(url),
    );
    const declared = Number(res.headers.get("content-length") ?? NaN);
    const max = ctx.settings.maxImportBytes;
    if (declared > max) {
      await res.body?.cancel();
      throw new TaskError("FILE_TOO_LARGE", `The file is ${declared} bytes; imports are limited to ${max} bytes.`);
    }
    const contentType = res.headers.get("content-type") ?? undefined;
    if (!res.body) return { files: [{ filename, contentType, data: new Uint8Array() }] };
    const tooLarge = () =>
      new TaskError("FILE_TOO_LARGE", `The download passed ${max} bytes; imports are limited to ${max} bytes.`);
    // A known length (≤ max, checked above) is enforced while streaming by the R2 write's FixedLengthStream, which
    // refuses a byte more, and the body goes to R2 natively; a body of unknown length is counted as it passes.
    if (Number.isFinite(declared) && !res.headers.get("content-encoding"))
      return { files: [{ filename, contentType, data: { stream: res.body, length: declared } }] };
    return { files: [{ filename, contentType, data: { stream: capped(res.body, max, tooLarge) } }] };
  },
};
