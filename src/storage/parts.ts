/**
 * Cutting one stream into consecutive parts (issue 35: files of any size): R2 multipart uploads, S3
 * multipart uploads, Azure blocks and GCS resumable chunks all send a large body as parts of known
 * length. A part of a stream whose total length is known is itself a stream (nothing is held in
 * memory); a part of a stream of unknown length is read into one buffer, so the caller's part size
 * bounds the memory a transfer takes.
 */

/** Reads one source stream part after part. Parts must be consumed in order, each to its end. */
export class PartReader {
  private reader: ReadableStreamDefaultReader<Uint8Array>;
  private pending: Uint8Array | null = null;
  private ended = false;
  /** Bytes handed out so far. */
  consumed = 0;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.reader = stream.getReader();
  }

  /** The next chunk of at most `max` bytes, or null at the end of the source. */
  private async chunk(max: number): Promise<Uint8Array | null> {
    let c = this.pending;
    this.pending = null;
    if (!c) {
      if (this.ended) return null;
      const { done, value } = await this.reader.read();
      if (done) {
        this.ended = true;
        return null;
      }
      c = value;
    }
    if (c.byteLength > max) {
      this.pending = c.subarray(max);
      c = c.subarray(0, max);
    }
    this.consumed += c.byteLength;
    return c;
  }

  /**
   * The next `n` bytes as a stream, read from the source as the stream is read. The stream errors
   * when the source ends before `n` bytes (or with the source's own error).
   */
  part(n: number): ReadableStream<Uint8Array> {
    let left = n;
    return new ReadableStream<Uint8Array>(
      {
        pull: async (c) => {
          if (left === 0) return c.close();
          const chunk = await this.chunk(left);
          if (!chunk) return c.error(new Error(`The stream ended ${left} bytes before the end of a part.`));
          left -= chunk.byteLength;
          c.enqueue(chunk);
          if (left === 0) c.close();
        },
      },
      { highWaterMark: 0 },
    );
  }

  /**
   * Reads up to `n` bytes into one buffer: exactly `n` unless the source ends first; an empty buffer
   * at the end of the source. The source's error is thrown as is.
   */
  async buffer(n: number): Promise<Uint8Array> {
    const out = new Uint8Array(n);
    let at = 0;
    while (at < n) {
      const chunk = await this.chunk(n - at);
      if (!chunk) break;
      out.set(chunk, at);
      at += chunk.byteLength;
    }
    return at === n ? out : out.subarray(0, at);
  }

  /** Whether the source has no byte left (reads ahead one chunk when needed). */
  async atEnd(): Promise<boolean> {
    if (this.pending) return false;
    if (this.ended) return true;
    const { done, value } = await this.reader.read();
    if (done) return (this.ended = true);
    this.pending = value;
    return false;
  }

  /** Stops reading the source (after a failure). */
  async cancel(reason?: unknown): Promise<void> {
    await this.reader.cancel(reason).catch(() => {});
  }
}

/**
 * The lengths of the parts a body of `length` bytes is cut into with parts of `partBytes` (the last
 * one shorter), e.g. (12, 5) → [5, 5, 2].
 */
export function partLengths(length: number, partBytes: number): number[] {
  const out: number[] = [];
  for (let at = 0; at < length; at += partBytes) out.push(Math.min(partBytes, length - at));
  return out;
}

/**
 * `stream` that errors with `tooLarge()` once more than `max` bytes have passed (a download of
 * unknown or untrusted length, counted while it streams).
 */
export function capped(
  stream: ReadableStream<Uint8Array>,
  max: number,
  tooLarge: () => Error,
): ReadableStream<Uint8Array> {
  let n = 0;
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, c) {
        n += chunk.byteLength;
        if (n > max) throw tooLarge();
        c.enqueue(chunk);
      },
    }),
  );
}
