/**
 * Cutting streams into parts (src/storage/parts.ts; issue 35): parts of a known-length stream are
 * streams whose bytes concatenate to the original, buffered parts of an unknown length likewise,
 * a source shorter than a part errors the part, and `capped` stops a stream past its cap with the
 * caller's error. S3's part size keeps within 5 MiB … and 10,000 parts; Azure block ids share one length.
 */
import { describe, expect, it } from "vitest";
import { PartReader, capped, partLengths } from "../../src/storage/parts";
import { s3PartSize } from "../../src/stores/s3/multipart";
import { blockId } from "../../src/stores/azure-blob";

const MiB = 1024 * 1024;
/** `n` bytes numbered 0, 1, 2 … mod 251 (a prime: no chunk boundary lines up with the pattern). */
const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => i % 251);
/** `data` as a stream of chunks of `size` bytes. */
function streamOf(data: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= data.byteLength) return c.close();
      c.enqueue(data.slice(at, at + size));
      at += size;
    },
  });
}
const read = async (s: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(s).arrayBuffer());

describe("parts", () => {
  it("partLengths cuts a length into full parts and a short last one", () => {
    expect(partLengths(12, 5)).toEqual([5, 5, 2]);
    expect(partLengths(10, 5)).toEqual([5, 5]);
    expect(partLengths(3, 5)).toEqual([3]);
    expect(partLengths(0, 5)).toEqual([]);
  });

  it("streamed parts of chunks that straddle part boundaries join back into the source", async () => {
    const data = bytes(10_007);
    const src = new PartReader(streamOf(data, 333));
    const parts: Uint8Array[] = [];
    for (const n of partLengths(data.byteLength, 1000)) parts.push(await read(src.part(n)));
    expect(parts.map((p) => p.byteLength)).toEqual([...Array(10).fill(1000), 7]);
    expect(await src.atEnd()).toBe(true);
    expect(Buffer.concat(parts).equals(Buffer.from(data))).toBe(true);
  });

  it("buffered parts of an unknown length: full ones, then a short one, then empty", async () => {
    const data = bytes(2500);
    const src = new PartReader(streamOf(data, 700));
    const a = await src.buffer(1000);
    const b = await src.buffer(1000);
    const c = await src.buffer(1000);
    const d = await src.buffer(1000);
    expect([a.byteLength, b.byteLength, c.byteLength, d.byteLength]).toEqual([1000, 1000, 500, 0]);
    expect(Buffer.concat([a, b, c]).equals(Buffer.from(data))).toBe(true);
  });

  it("a source shorter than the part errors it; a longer one is seen by atEnd", async () => {
    const short = new PartReader(streamOf(bytes(900), 100));
    await expect(read(short.part(1000))).rejects.toThrow(/ended 100 bytes before the end of a part/);
    const long = new PartReader(streamOf(bytes(1200), 100));
    await read(long.part(1000));
    expect(await long.atEnd()).toBe(false);
  });

  it("capped passes a stream up to its cap and errors with the caller's error past it", async () => {
    expect((await read(capped(streamOf(bytes(3000), 512), 3000, () => new Error("x")))).byteLength).toBe(3000);
    const over = capped(streamOf(bytes(3001), 512), 3000, () => new Error("over the cap"));
    await expect(read(over)).rejects.toThrow("over the cap");
  });

  it("S3 part sizes stay within 5 MiB and 10,000 parts; Azure block ids have one length", () => {
    expect(s3PartSize(12 * MiB, 1 * MiB)).toBe(5 * MiB);
    expect(s3PartSize(12 * MiB, 64 * MiB)).toBe(64 * MiB);
    const huge = 1024 * 1024 * MiB; // 1 TiB
    const part = s3PartSize(huge, 64 * MiB);
    expect(Math.ceil(huge / part)).toBeLessThanOrEqual(10_000);
    expect(part % MiB).toBe(0);
    expect(new Set([0, 9, 10, 49_999].map((i) => blockId(i).length)).size).toBe(1);
    expect(atob(blockId(42))).toBe("block-000042");
  });
});
