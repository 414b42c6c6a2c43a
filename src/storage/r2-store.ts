/**
 * FileStore over an R2 bucket binding (platform §3). Streams of known length up to `singlePutBytes`
 * are piped through a FixedLengthStream so R2 takes them in one put without buffering; larger ones,
 * and streams of unknown length (a chunked download), go as an R2 multipart upload of `partBytes`
 * parts (issue 35), aborted when anything fails. A known-length part streams; an unknown-length
 * part is read into memory first, so `partBytes` bounds the memory of such a transfer.
 */
import type { FileStore, StoredFile } from "./file-store";
import { PartReader, partLengths } from "./parts";

/** How R2 writes are cut (RuntimeSettings from wrangler vars R2_PART_BYTES, R2_SINGLE_PUT_BYTES). */
export interface R2Limits {
  /** Part size of multipart uploads, bytes (R2: at least 5 MiB, every part but the last the same size). */
  partBytes: number;
  /** Largest known-length body sent in one put, bytes (R2 takes up to 5 GiB in one). */
  singlePutBytes: number;
}

/** R2's smallest part (all but the last), bytes. */
const R2_MIN_PART = 5 * 1024 * 1024;
/** R2's most parts in one upload. */
const R2_MAX_PARTS = 10_000;

export class R2FileStore implements FileStore {
  private limits: R2Limits;
  constructor(
    private bucket: R2Bucket,
    limits: Partial<R2Limits> = {},
  ) {
    this.limits = {
      partBytes: Math.max(R2_MIN_PART, limits.partBytes ?? 16 * 1024 * 1024),
      singlePutBytes: limits.singlePutBytes ?? 5 * 1024 ** 3 - 32 * 1024 * 1024,
    };
  }

  async put(
    key: string,
    body: Uint8Array | { stream: ReadableStream<Uint8Array>; length?: number },
    opts: { contentType?: string } = {},
  ): Promise<StoredFile> {
    const httpMetadata = opts.contentType ? { contentType: opts.contentType } : undefined;
    if (body instanceof Uint8Array) {
      const obj = await this.bucket.put(key, body, { httpMetadata });
      return { key, size: obj.size, contentType: opts.contentType };
    }
    if (body.length !== undefined && body.length <= this.limits.singlePutBytes) {
      const fixed = new FixedLengthStream(body.length);
      // A failing source errors the readable side, so bucket.put() below rejects with the cause; a pipe workerd
      // refuses at once (one TransformStream's readable into another's writable) aborts it, instead of a put that waits.
      body.stream.pipeTo(fixed.writable).catch((err) => fixed.writable.abort(err).catch(() => {}));
      const obj = await this.bucket.put(key, fixed.readable as ReadableStream<Uint8Array>, { httpMetadata });
      return { key, size: obj.size, contentType: opts.contentType };
    }
    const src = new PartReader(body.stream);
    let first: Uint8Array | undefined;
    if (body.length === undefined) {
      // unknown length: a body shorter than one part is one put; a longer one goes part by part, in memory
      try {
        first = await src.buffer(this.limits.partBytes);
      } catch (err) {
        await src.cancel(err);
        throw err;
      }
      if (first.byteLength < this.limits.partBytes) {
        const obj = await this.bucket.put(key, first, { httpMetadata });
        return { key, size: obj.size, contentType: opts.contentType };
      }
    }
    const upload = await this.bucket.createMultipartUpload(key, { httpMetadata });
    try {
      const parts = first
        ? await this.bufferedParts(upload, src, first)
        : await this.streamedParts(upload, src, body.length!);
      const obj = await upload.complete(parts);
      return { key, size: obj.size, contentType: opts.contentType };
    } catch (err) {
      await src.cancel(err);
      await upload.abort().catch(() => {});
      throw err;
    }
  }

  /** Parts of a known-length body, each streamed through a FixedLengthStream (nothing held in memory). */
  private async streamedParts(upload: R2MultipartUpload, src: PartReader, length: number): Promise<R2UploadedPart[]> {
    const partBytes = Math.max(this.limits.partBytes, Math.ceil(length / R2_MAX_PARTS));
    const parts: R2UploadedPart[] = [];
    for (const [i, n] of partLengths(length, partBytes).entries()) {
      const fixed = new FixedLengthStream(n);
      src
        .part(n)
        .pipeTo(fixed.writable)
        .catch(() => {});
      parts.push(await upload.uploadPart(i + 1, fixed.readable as ReadableStream<Uint8Array>));
    }
    if (!(await src.atEnd())) throw new Error(`The stream is longer than its declared ${length} bytes.`);
    return parts;
  }

  /** Parts of an unknown-length body, one in memory at a time; `first` is a full first part already read. */
  private async bufferedParts(
    upload: R2MultipartUpload,
    src: PartReader,
    first: Uint8Array,
  ): Promise<R2UploadedPart[]> {
    const parts = [await upload.uploadPart(1, first)];
    for (let n = 2; ; n++) {
      const bytes = await src.buffer(this.limits.partBytes);
      if (bytes.byteLength) {
        if (n > R2_MAX_PARTS)
          throw new Error(`The stream needs more than ${R2_MAX_PARTS} parts of ${this.limits.partBytes} bytes.`);
        parts.push(await upload.uploadPart(n, bytes));
      }
      if (bytes.byteLength < this.limits.partBytes) return parts;
    }
  }

  async get(key: string): Promise<Uint8Array | null> {
    const o = await this.bucket.get(key);
    return o ? new Uint8Array(await o.arrayBuffer()) : null;
  }
  async stream(key: string, range?: { offset: number; length: number }) {
    const o = await this.bucket.get(key, range ? { range } : undefined);
    return o
      ? { body: o.body as ReadableStream<Uint8Array>, size: o.size, contentType: o.httpMetadata?.contentType }
      : null;
  }
  async head(key: string): Promise<StoredFile | null> {
    const o = await this.bucket.head(key);
    return o ? { key, size: o.size, contentType: o.httpMetadata?.contentType } : null;
  }
  async deletePrefix(prefix: string): Promise<number> {
    let n = 0;
    let cursor: string | undefined;
    do {
      const page = await this.bucket.list({ prefix, cursor });
      if (page.objects.length) await this.bucket.delete(page.objects.map((o) => o.key));
      n += page.objects.length;
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
    return n;
  }
}
