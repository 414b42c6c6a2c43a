/**
 * S3 multipart uploads (issue 35: exports larger than one part; AWS S3 API reference
 * CreateMultipartUpload, UploadPart, CompleteMultipartUpload, AbortMultipartUpload): each part is a
 * ranged read of the R2 object streamed with its own Content-Length (http.ts partSource), so nothing
 * is held in memory. S3's
 * limits: parts of 5 MiB to 5 GiB (the last may be smaller), at most 10,000 parts.
 */
import { TaskError } from "../../engines/errors";
import { partLengths } from "../../storage/parts";
import { partSource, sizedBody, xmlBlocks, xmlValue } from "../http";
import type { StoreUpload } from "../types";

/** S3's smallest part but the last, and most parts, of one upload. */
const MIN_PART = 5 * 1024 * 1024;
const MAX_PARTS = 10_000;

/** A signed request to the object's URL plus `query`; throws the store's coded TaskError when not 2xx. */
export type S3Send = (init: RequestInit, query?: string) => Promise<Response>;

/** The part size used for `length` bytes when `wanted` is asked: within S3's limits, whole MiB. */
export function s3PartSize(length: number, wanted: number): number {
  const fit = Math.ceil(length / MAX_PARTS / (1024 * 1024)) * 1024 * 1024;
  return Math.max(MIN_PART, wanted, fit);
}

/**
 * Uploads `body` as a multipart upload with `headers` (content type, ACL, metadata… set at creation).
 * @throws TaskError from `send` (INVALID_CREDENTIALS, PERMISSION_DENIED, UPLOAD_FAILED …), or
 *   UPLOAD_FAILED when the store's completion answer carries an error; the upload is aborted then.
 */
export async function multipartPut(
  send: S3Send,
  headers: Record<string, string>,
  body: StoreUpload,
  partBytes: number,
  key: string,
): Promise<void> {
  const created = await (await send({ method: "POST", headers }, "?uploads")).text();
  const uploadId = xmlValue(created, "UploadId");
  if (!uploadId) throw new TaskError("UPLOAD_FAILED", `S3 answered no UploadId for ${key}.`, { retryable: true });
  const q = (extra = "") => `?${extra}uploadId=${encodeURIComponent(uploadId)}`;
  const src = partSource(body);
  try {
    const etags: string[] = [];
    let offset = 0;
    for (const [i, n] of partLengths(body.length, s3PartSize(body.length, partBytes)).entries()) {
      const part = await src.next(offset, n);
      offset += n;
      const res = await send(
        { method: "PUT", body: await sizedBody({ stream: part, length: n }) },
        q(`partNumber=${i + 1}&`),
      );
      await res.body?.cancel();
      const etag = res.headers.get("etag");
      if (!etag) throw new TaskError("UPLOAD_FAILED", `S3 answered no ETag for part ${i + 1} of ${key}.`);
      etags.push(etag);
    }
    const xml =
      "<CompleteMultipartUpload>" +
      etags.map((e, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${escapeXml(e)}</ETag></Part>`).join("") +
      "</CompleteMultipartUpload>";
    const done = await (
      await send({ method: "POST", headers: { "content-type": "application/xml" }, body: xml }, q())
    ).text();
    // S3 may answer 200 and report a failure in the body (CompleteMultipartUpload, "Error" element)
    if (xmlBlocks(done, "Error").length || /<Error>/.test(done))
      throw new TaskError(
        "UPLOAD_FAILED",
        `S3 could not complete the upload of ${key}: ${xmlValue(done, "Code") ?? ""} ${xmlValue(done, "Message") ?? ""}`.trim(),
        { retryable: true },
      );
  } catch (err) {
    await src.cancel(err);
    await send({ method: "DELETE" }, q())
      .then((r) => r.body?.cancel())
      .catch(() => {});
    throw err;
  }
}

function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
