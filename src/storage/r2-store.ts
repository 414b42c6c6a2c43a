/**
 * FileStore over an R2 bucket binding (platform §3). Streams of known length are piped through a
 * FixedLengthStream so R2 accepts them without buffering.
 */
import type { FileStore, StoredFile } from "./file-store";

export class R2FileStore implements FileStore {
  constructor(private bucket: R2Bucket) {}

  async put(
    key: string,
    body: Uint8Array | { stream: ReadableStream<Uint8Array>; length: number },
    opts: { contentType?: string } = {},
  ): Promise<StoredFile> {
    let value: Uint8Array | ReadableStream<Uint8Array>;
    if (body instanceof Uint8Array) value = body;
    else {
      const fixed = new FixedLengthStream(body.length);
      // A failing source errors the readable side, so bucket.put() below rejects with the cause.
      body.stream.pipeTo(fixed.writable).catch(() => {});
      value = fixed.readable as ReadableStream<Uint8Array>;
    }
    const obj = await this.bucket.put(key, value, {
      httpMetadata: opts.contentType ? { contentType: opts.contentType } : undefined,
    });
    return { key, size: obj.size, contentType: opts.contentType };
  }
  async get(key: string): Promise<Uint8Array | null> {
    const o = await this.bucket.get(key);
    return o ? new Uint8Array(await o.arrayBuffer()) : null;
  }
  async stream(key: string) {
    const o = await this.bucket.get(key);
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
