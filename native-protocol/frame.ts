/**
 * The native engine's streamed wire (issue 35: files larger than the Worker can hold): the framing of a call that
 * carries a file as a stream instead of bytes, written and read incrementally by both sides, so neither holds a
 * whole file. The buffered wire (wire.ts, multipart) stays what every call without a stream uses.
 *
 *   POST /invoke/<engine>/<method>   Content-Type: application/x-native-frames
 *   body   := u32be(n) header part₀ part₁ …
 *   header := n bytes of UTF-8 JSON {"value": the request with each file replaced by {"$bytes": i},
 *                                    "sizes": [the byte length of part i, …]}
 *   part i := exactly sizes[i] bytes, in order
 *
 * A framed request is answered in the same framing (200), its errors as in wire.ts (400 malformed, 413 over the
 * server's limit, and 408 when the body stalls). The sizes come first, so a reader knows each part's end before it
 * reads it: it can keep a part in memory, write it to a file, or hand it on as a stream of known length. A body that
 * ends before its parts do, or runs past them, is a {@link FrameError}.
 */

/** Content-Type of a framed body. */
export const FRAMED_TYPE = "application/x-native-frames";

/** Largest header, bytes: the request's JSON without its files (a few KiB in practice). */
export const MAX_HEADER_BYTES = 8 * 1024 * 1024;

/**
 * A file's bytes as a stream of exactly `length` bytes: how the Worker hands the native engine a file too large to
 * hold (an R2 object's body), and how it gets a large answer back. The same shape FileStore.put and OutputFile take.
 */
export interface StreamedBytes {
  stream: ReadableStream<Uint8Array>;
  length: number;
}

/**
 * Bytes whose stream is opened only when a framed body reaches them (issue 49: the members of an archive written
 * natively, each an R2 object): several files of one call are read one after the other, never all open at once (a
 * Worker keeps at most six connections open, and an R2 body opened early and left unread would hold one). A part
 * like any other on the wire; {@link frame} calls `open` when the part before it has been sent.
 */
export interface DeferredBytes {
  open(): Promise<ReadableStream<Uint8Array>>;
  length: number;
}

/**
 * A part of a framed request as a native engine method receives it when the engine takes files
 * (container/engines/common.ts `NativeEngineDef.files`): written to `path` in the call's folder, `size` bytes. A
 * method may answer a LocalFile too; the server then streams it from disk. Only the server makes them: JSON cannot.
 */
export class LocalFile {
  readonly path: string;
  readonly size: number;
  constructor(path: string, size: number) {
    this.path = path;
    this.size = size;
  }
}

/** A framed body that is malformed: cut off, longer than its parts, or a header that is not one. */
export class FrameError extends Error {}

const BYTES = "$bytes";

/** Whether `v` is a {@link StreamedBytes}. */
export function isStreamed(v: unknown): v is StreamedBytes {
  return (
    !!v &&
    typeof v === "object" &&
    (v as StreamedBytes).stream instanceof ReadableStream &&
    typeof (v as StreamedBytes).length === "number"
  );
}

/** Whether `v` is a {@link DeferredBytes}. */
export function isDeferred(v: unknown): v is DeferredBytes {
  return (
    !!v &&
    typeof v === "object" &&
    typeof (v as DeferredBytes).open === "function" &&
    typeof (v as DeferredBytes).length === "number"
  );
}

/** Whether any StreamedBytes or DeferredBytes is inside `value` (then a call must be framed). */
export function hasStreams(value: unknown): boolean {
  if (isStreamed(value) || isDeferred(value)) return true;
  if (value instanceof Uint8Array || !value || typeof value !== "object") return false;
  return (Array.isArray(value) ? value : Object.values(value)).some(hasStreams);
}

/**
 * One part to write: bytes, or a stream of `length` bytes opened when its turn comes (`open` may settle later: a
 * DeferredBytes' read starts then; `deferred` marks such a part, which is never opened to be cancelled).
 */
export type PartSource =
  | Uint8Array
  | { length: number; open(): ReadableStream<Uint8Array> | Promise<ReadableStream<Uint8Array>>; deferred?: boolean };

/** A framed body being written. */
export interface Framed {
  /** The body, pulled part by part (nothing is read from a part's stream before the parts ahead of it are sent). */
  body: ReadableStream<Uint8Array>;
  /** Its exact length in bytes (the Content-Length). */
  length: number;
  /**
   * The same body as pieces in order (the header first): for a host that joins streams without passing their chunks
   * through JavaScript (workerd: each part's `pipeTo` a FixedLengthStream), which `body` cannot avoid.
   */
  pieces: readonly PartSource[];
  /** Whether any part's stream has been opened: until then, `frame` of the same value makes the same body again. */
  partsOpened(): boolean;
}

/**
 * Frames `value`: every Uint8Array and StreamedBytes in it becomes a part, in the order met; `leaf` turns other
 * leaves into parts (the server's LocalFile, read from disk), answering undefined for a plain value.
 * A part's stream yielding more or fewer bytes than its length errors the body with a FrameError.
 */
export function frame(value: unknown, leaf?: (v: object) => PartSource | undefined): Framed {
  const parts: PartSource[] = [];
  const walk = (v: unknown): unknown => {
    if (v instanceof Uint8Array) return { [BYTES]: parts.push(v) - 1 };
    if (isStreamed(v)) return { [BYTES]: parts.push({ length: v.length, open: () => v.stream }) - 1 };
    if (isDeferred(v)) return { [BYTES]: parts.push({ length: v.length, open: () => v.open(), deferred: true }) - 1 };
    if (!v || typeof v !== "object") return v;
    const part = leaf?.(v);
    if (part) return { [BYTES]: parts.push(part) - 1 };
    if (Array.isArray(v)) return v.map(walk);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
  };
  const json = new TextEncoder().encode(
    JSON.stringify({
      value: walk(value) ?? null,
      sizes: parts.map((p) => (p instanceof Uint8Array ? p.byteLength : p.length)),
    }),
  );
  const head = new Uint8Array(4 + json.byteLength);
  new DataView(head.buffer).setUint32(0, json.byteLength);
  head.set(json, 4);
  let opened = false;
  const items: PartSource[] = [
    head,
    ...parts.map((p) =>
      p instanceof Uint8Array ? p : { ...p, length: p.length, open: () => ((opened = true), p.open()) },
    ),
  ];
  let i = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let sent = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(c) {
        for (;;) {
          const s = items[i];
          if (!s) return c.close();
          if (s instanceof Uint8Array) {
            i++;
            if (s.byteLength) return c.enqueue(s);
            continue;
          }
          if (!reader) {
            reader = (await s.open()).getReader();
            sent = 0;
          }
          const r = await reader.read();
          if (r.done) {
            if (sent !== s.length)
              throw new FrameError(`part ${i - 1}: its stream ended after ${sent} of ${s.length} bytes`);
            reader = undefined;
            i++;
            continue;
          }
          sent += r.value.byteLength;
          if (sent > s.length) throw new FrameError(`part ${i - 1}: its stream is longer than ${s.length} bytes`);
          if (r.value.byteLength) return c.enqueue(r.value);
        }
      },
      async cancel(reason) {
        await reader?.cancel(reason);
        // parts not reached yet: release their streams (an R2 body left unread holds its connection)
        // (a deferred part not reached was never opened: nothing to release)
        for (const s of items.slice(i + 1))
          if (!(s instanceof Uint8Array) && !s.deferred && opened) await (await s.open()).cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  const length = items.reduce((n, p) => n + (p instanceof Uint8Array ? p.byteLength : p.length), 0);
  return { body, length, pieces: items, partsOpened: () => opened };
}

/** Replaces every {"$bytes": i} in a decoded header value by `parts[i]`. @throws FrameError when i names no part */
export function resolveParts(value: unknown, parts: readonly unknown[]): unknown {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== "object") return v;
    const o = v as Record<string, unknown>;
    if (typeof o[BYTES] === "number" && Object.keys(o).length === 1) {
      const i = o[BYTES] as number;
      if (!Number.isInteger(i) || i < 0 || i >= parts.length) throw new FrameError(`part ${i} is not in the body`);
      return parts[i];
    }
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, walk(x)]));
  };
  return walk(value);
}

/** Most bytes one read of a byte stream asks for. */
const READ_BYTES = 256 * 1024;

/**
 * Reads a framed body in order: {@link header} first, then each part whole ({@link read}), as a stream
 * ({@link stream}), or into a sink ({@link pipeTo}); {@link end} checks nothing follows the last part.
 * Every read that finds the body ended early throws a FrameError. A byte stream (an HTTP body in workerd and
 * Node) is read with a BYOB reader, which takes no byte past what was asked: after the header, the rest of the
 * body is untouched and can be handed on whole ({@link detach}).
 */
export class FrameReader {
  private body: ReadableStream<Uint8Array>;
  private reader: ReadableStreamDefaultReader<Uint8Array> | ReadableStreamBYOBReader;
  private byob: boolean;
  private buf: Uint8Array = new Uint8Array(0);
  /** Settles when the last stream handed out has been read to its end (streams are read in turn). */
  private turn: Promise<void> = Promise.resolve();
  /** How many streams were handed out. */
  private streams = 0;

  constructor(body: ReadableStream<Uint8Array>) {
    this.body = body;
    let byob: ReadableStreamBYOBReader | undefined;
    try {
      byob = body.getReader({ mode: "byob" });
    } catch {
      // not a byte stream: chunks as they come
    }
    this.byob = !!byob;
    this.reader = byob ?? body.getReader();
  }

  /** The next chunk of the body, at most `max` bytes when read BYOB; undefined at its end. */
  private async chunk(max: number): Promise<Uint8Array | undefined> {
    const r = this.byob
      ? await (this.reader as ReadableStreamBYOBReader).read(new Uint8Array(Math.min(max, READ_BYTES)))
      : await (this.reader as ReadableStreamDefaultReader<Uint8Array>).read();
    return r.done ? undefined : (r.value as Uint8Array);
  }

  /** At most `max` (> 0) next bytes. @throws FrameError when the body has ended */
  private async next(max: number): Promise<Uint8Array> {
    while (!this.buf.byteLength) {
      const c = await this.chunk(max);
      if (!c) throw new FrameError("the body ended before its parts did (cut off, or a size that lies)");
      this.buf = c;
    }
    const chunk = this.buf.subarray(0, max);
    this.buf = this.buf.subarray(chunk.byteLength);
    return chunk;
  }

  /** Exactly `n` bytes, in one array. */
  async read(n: number): Promise<Uint8Array> {
    await this.turn;
    const out = new Uint8Array(n);
    for (let at = 0; at < n;) {
      const c = await this.next(n - at);
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  }

  /** The header: the value with {"$bytes": i} for each part, and the parts' sizes. @throws FrameError when malformed */
  async header(): Promise<{ value: unknown; sizes: number[]; bytes: number }> {
    const n = new DataView((await this.read(4)).buffer).getUint32(0);
    if (n > MAX_HEADER_BYTES) throw new FrameError(`header of ${n} bytes, over ${MAX_HEADER_BYTES}`);
    let h: { value?: unknown; sizes?: unknown };
    try {
      h = JSON.parse(new TextDecoder().decode(await this.read(n)));
    } catch (err) {
      if (err instanceof FrameError) throw err;
      throw new FrameError("the header is not JSON");
    }
    const sizes = h?.sizes;
    if (!Array.isArray(sizes) || !sizes.every((s) => Number.isSafeInteger(s) && s >= 0))
      throw new FrameError('the header\'s "sizes" is not a list of byte counts');
    return { value: h.value, sizes: sizes as number[], bytes: 4 + n };
  }

  /**
   * The next `n` bytes as a stream. Streams are read in the order they were made: one made before the previous
   * has been read waits for it; cancelling one skips its remaining bytes.
   */
  stream(n: number): ReadableStream<Uint8Array> {
    this.streams++;
    let left = n;
    const turn = this.turn;
    let release!: () => void;
    this.turn = new Promise((r) => (release = r));
    return new ReadableStream<Uint8Array>(
      {
        pull: async (c) => {
          await turn;
          try {
            if (left > 0) {
              const chunk = await this.next(left);
              left -= chunk.byteLength;
              c.enqueue(chunk);
            }
          } catch (err) {
            release();
            throw err;
          }
          if (left === 0) {
            c.close();
            release();
          }
        },
        cancel: async () => {
          await turn;
          try {
            while (left > 0) left -= (await this.next(left)).byteLength;
          } finally {
            release();
          }
        },
      },
      { highWaterMark: 0 },
    );
  }

  /** Writes the next `n` bytes to `sink` (closing it). */
  pipeTo(n: number, sink: WritableStream<Uint8Array>): Promise<void> {
    return this.stream(n).pipeTo(sink);
  }

  /** @throws FrameError when bytes follow the last part */
  async end(): Promise<void> {
    await this.turn;
    if (this.buf.byteLength) throw new FrameError("the body is longer than its parts");
    for (;;) {
      const c = await this.chunk(1);
      if (!c) return;
      if (c.byteLength) {
        await this.reader.cancel();
        throw new FrameError("the body is longer than its parts");
      }
    }
  }

  /**
   * The rest of the body, unlocked, when no byte of it has been read yet (a byte stream read BYOB, and no stream
   * handed out): for a host that pipes the last part on without passing its chunks through JavaScript. The reader
   * is done after it. Undefined (and the reader still usable) otherwise.
   */
  detach(): ReadableStream<Uint8Array> | undefined {
    if (!this.byob || this.buf.byteLength || this.streams) return undefined;
    this.reader.releaseLock();
    return this.body;
  }

  /** Stops reading (the rest of the body is dropped). */
  cancel(reason?: unknown): Promise<void> {
    return this.reader.cancel(reason);
  }
}
