/**
 * FileStore: the seam over where files live — R2 in the Worker, memory in the browser and in unit tests.
 * Keys are opaque strings built by storage/keys.ts; bodies are bytes or streams.
 */
export interface StoredFile {
  key: string;
  size: number;
  contentType?: string;
}

export interface FileStore {
  /** Writes an object: bytes, or a stream with its exact length (or of unknown length: `length` undefined). */
  put(
    key: string,
    body: Uint8Array | { stream: ReadableStream<Uint8Array>; length?: number },
    opts?: { contentType?: string; contentDisposition?: string },
  ): Promise<StoredFile>;
  /** Reads a whole object, or null when absent. */
  get(key: string): Promise<Uint8Array | null>;
  /**
   * Reads an object as a stream, or null when absent; with `range`, only `length` bytes from `offset`
   * (a part of a large export, issue 35), `size` staying the whole object's.
   */
  stream(
    key: string,
    range?: { offset: number; length: number },
  ): Promise<{ body: ReadableStream<Uint8Array>; size: number; contentType?: string } | null>;
  /** Size and type, or null when absent. */
  head(key: string): Promise<StoredFile | null>;
  /** Deletes every object under a prefix; returns how many were deleted. */
  deletePrefix(prefix: string): Promise<number>;
}

/** In-memory FileStore for Node unit tests and the browser. */
export class MemoryFileStore implements FileStore {
  private objects = new Map<string, { data: Uint8Array; contentType?: string }>();

  async put(
    key: string,
    body: Uint8Array | { stream: ReadableStream<Uint8Array>; length?: number },
    opts: { contentType?: string } = {},
  ): Promise<StoredFile> {
    const data = body instanceof Uint8Array ? body : new Uint8Array(await new Response(body.stream).arrayBuffer());
    this.objects.set(key, { data, contentType: opts.contentType });
    return { key, size: data.byteLength, contentType: opts.contentType };
  }
  async get(key: string): Promise<Uint8Array | null> {
    return this.objects.get(key)?.data ?? null;
  }
  async stream(key: string, range?: { offset: number; length: number }) {
    const o = this.objects.get(key);
    if (!o) return null;
    const data = range ? o.data.subarray(range.offset, range.offset + range.length) : o.data;
    return {
      body: new Response(data as Uint8Array<ArrayBuffer>).body as ReadableStream<Uint8Array>,
      size: o.data.byteLength,
      contentType: o.contentType,
    };
  }
  async head(key: string): Promise<StoredFile | null> {
    const o = this.objects.get(key);
    return o ? { key, size: o.data.byteLength, contentType: o.contentType } : null;
  }
  async deletePrefix(prefix: string): Promise<number> {
    let n = 0;
    for (const k of [...this.objects.keys()])
      if (k.startsWith(prefix)) {
        this.objects.delete(k);
        n++;
      }
    return n;
  }
}
