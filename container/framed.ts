/**
 * The native engine's side of the streamed wire (native-protocol/frame.ts, issue 35): reading a framed request
 * with its file parts written to the call's folder as they arrive, and answering in the same framing with the
 * files a method answered as LocalFile streamed from disk. Nothing here holds a file part in memory unless the
 * engine takes no files (then its parts are bounded by the in-memory body limit).
 */
import { createReadStream, createWriteStream } from "node:fs";
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { FRAMED_TYPE, FrameError, FrameReader, LocalFile, frame, resolveParts } from "../native-protocol/frame.ts";

/** A request body over a limit (answered 413 with the wire's error body). */
export class BodyTooLarge extends Error {}

/** A request body that stopped arriving for longer than the idle limit (answered 408). */
export class BodyIdle extends Error {}

/** Whether a request is framed (Content-Type application/x-native-frames). */
export function isFramed(req: IncomingMessage): boolean {
  return (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase() === FRAMED_TYPE;
}

/**
 * The request's body as a web stream that errors with BodyIdle when no byte arrives for `idleMs`: a client that
 * stalls mid-body (or declares more than it sends and keeps the connection open) ends instead of holding the call.
 */
function bodyStream(req: IncomingMessage, idleMs: number): ReadableStream<Uint8Array> {
  const it = req[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>(
    {
      async pull(c) {
        let timer: NodeJS.Timeout | undefined;
        const idle = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new BodyIdle(`No byte of the request body arrived for ${idleMs / 1000} s.`)),
            idleMs,
          );
        });
        try {
          const r = await Promise.race([it.next(), idle]);
          if (r.done) c.close();
          else c.enqueue(new Uint8Array(r.value.buffer, r.value.byteOffset, r.value.byteLength));
        } finally {
          clearTimeout(timer);
        }
      },
      // cancel: nothing to do here; the server answers the error with Connection: close and then drops the socket
      // (returning the iterator would destroy the request before the answer is written)
    },
    { highWaterMark: 0 },
  );
}

/** The limits a framed request is read under. */
export interface FramedLimits {
  /** Largest whole body, bytes (NATIVE_MAX_STREAM_MB: disk-bounded). */
  maxBytes: number;
  /** Largest sum of the parts kept in memory, bytes (NATIVE_MAX_BODY_MB: an engine that takes no files). */
  maxMemoryBytes: number;
  /** Longest pause between two chunks of the body, ms. */
  idleMs: number;
  /**
   * Called with the body's declared size (bytes) once its header is read, before any part is: the server's disk
   * budget admits the call here when the request had no Content-Length (container/disk-budget.ts). Throws to refuse.
   */
  admit?: (declared: number) => void;
}

/**
 * Reads a framed request. With `files` (the engine takes LocalFile parts) each part is written to `work/part-<i>`
 * as it arrives and becomes a LocalFile; otherwise parts are kept as bytes, at most `maxMemoryBytes` in all.
 * The declared sizes are checked before any part is read: against the limits, and against Content-Length; then
 * `limits.admit` is called with them.
 * @throws BodyTooLarge | BodyIdle | FrameError (malformed: cut off, longer than declared, a bad header) | what
 *   `limits.admit` throws
 */
export async function readFramed(
  req: IncomingMessage,
  work: string,
  files: boolean,
  limits: FramedLimits,
): Promise<unknown> {
  const r = new FrameReader(bodyStream(req, limits.idleMs));
  try {
    const { value, sizes, bytes } = await r.header();
    const total = sizes.reduce((n, s) => n + s, bytes);
    if (total > limits.maxBytes) throw new BodyTooLarge(`Request body over ${limits.maxBytes} bytes.`);
    if (!files && total - bytes > limits.maxMemoryBytes)
      throw new BodyTooLarge(`Request body over ${limits.maxMemoryBytes} bytes.`);
    const declared = req.headers["content-length"];
    if (declared !== undefined && Number(declared) !== total)
      throw new FrameError(`its parts make ${total} bytes, its Content-Length says ${declared}`);
    limits.admit?.(total);
    const parts: unknown[] = [];
    for (const [i, size] of sizes.entries()) {
      if (!files) {
        parts.push(await r.read(size));
        continue;
      }
      const path = join(work, `part-${i}`);
      await r.pipeTo(size, Writable.toWeb(createWriteStream(path)) as WritableStream<Uint8Array>);
      parts.push(new LocalFile(path, size));
    }
    await r.end();
    return resolveParts(value, parts);
  } catch (err) {
    await r.cancel().catch(() => {});
    throw err;
  }
}

/** Answers `answer` framed: its byte arrays, and its LocalFiles streamed from disk. */
export function sendFramed(res: ServerResponse, answer: unknown): void {
  const f = frame(answer, (v) =>
    v instanceof LocalFile
      ? {
          length: v.size,
          open: () => Readable.toWeb(createReadStream(v.path)) as unknown as ReadableStream<Uint8Array>,
        }
      : undefined,
  );
  res.writeHead(200, { "content-type": FRAMED_TYPE, "content-length": String(f.length) });
  Readable.fromWeb(f.body as never).pipe(res);
}

/** `answer` with every LocalFile read into bytes (for the buffered wire's answer). */
export async function withBytes(answer: unknown): Promise<unknown> {
  if (answer instanceof LocalFile) return new Uint8Array(await readFile(answer.path));
  if (answer instanceof Uint8Array || !answer || typeof answer !== "object") return answer;
  if (Array.isArray(answer)) return Promise.all(answer.map(withBytes));
  return Object.fromEntries(await Promise.all(Object.entries(answer).map(async ([k, v]) => [k, await withBytes(v)])));
}
