/**
 * How byte arrays cross the engine RPC seam (remote.ts ↔ wasm/entry.ts). Workers RPC caps one
 * serialized argument or return value at 32 MiB (measured in workerd 1.20261102: a 32 MiB
 * Uint8Array is refused with "Serialized RPC arguments or return values are limited to 32MiB"),
 * while a ReadableStream is not capped (50 and 100 MiB crossed at ~1.7 ms/MiB). So every array of
 * STREAM_FROM_BYTES or more travels as `{ $stream, length }` and is read back into an array on the
 * other side; smaller ones stay plain (a stream costs a round trip of its own).
 */

/** Arrays from this size (bytes) cross as streams. */
export const STREAM_FROM_BYTES = 1024 * 1024;

/** A byte array in transit. */
interface WireBytes {
  $stream: ReadableStream<Uint8Array>;
  length: number;
}

const isWire = (v: unknown): v is WireBytes =>
  typeof v === "object" && v !== null && "$stream" in v && (v as WireBytes).$stream instanceof ReadableStream;

/** Copies of `value` with every large Uint8Array replaced by a stream of it (plain data and arrays walked; other objects kept). */
export function toWire(value: unknown): unknown {
  if (value instanceof Uint8Array) {
    if (value.byteLength < STREAM_FROM_BYTES) return value;
    const bytes = value;
    return {
      $stream: new ReadableStream<Uint8Array>({
        start(c) {
          for (let at = 0; at < bytes.byteLength; at += STREAM_FROM_BYTES)
            c.enqueue(bytes.slice(at, at + STREAM_FROM_BYTES));
          c.close();
        },
      }),
      length: bytes.byteLength,
    } satisfies WireBytes;
  }
  if (Array.isArray(value)) return value.map(toWire);
  if (isPlain(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toWire(v)]));
  return value;
}

/**
 * The value `toWire` was made from: every `{ $stream, length }` read back into a Uint8Array.
 * @throws Error when a stream ends short of its declared length (the sender failed mid-way)
 */
export async function fromWire(value: unknown): Promise<unknown> {
  if (isWire(value)) {
    const out = new Uint8Array(value.length);
    let at = 0;
    const reader = value.$stream.getReader();
    for (;;) {
      const { done, value: chunk } = await reader.read();
      if (done) break;
      if (at + chunk.byteLength > out.byteLength)
        throw new Error(`engine RPC: a byte stream exceeded its declared ${value.length} bytes`);
      out.set(chunk, at);
      at += chunk.byteLength;
    }
    if (at !== value.length) throw new Error(`engine RPC: a byte stream ended at ${at} of ${value.length} bytes`);
    return out;
  }
  if (Array.isArray(value)) return Promise.all(value.map(fromWire));
  if (isPlain(value)) {
    const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await fromWire(v)] as const));
    return Object.fromEntries(entries);
  }
  return value;
}

function isPlain(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
