/**
 * R2 writes of any size (issue 35, src/storage/r2-store.ts) against the R2 binding in workerd: known
 * lengths over the single-put limit and streams of unknown length go as multipart uploads (small
 * limits here: 5 MiB parts, a 6 MiB single put), the bytes read back through the binding itself keep
 * their SHA-256, R2's multipart ETag ("…-N") shows the part count, and a failing or over-cap
 * stream leaves no object behind.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { TaskError } from "../../src/engines/errors";
import { capped } from "../../src/storage/parts";
import { R2FileStore } from "../../src/storage/r2-store";

const MiB = 1024 * 1024;
const bucket = () => (env as unknown as { FILES: R2Bucket }).FILES;
const store = () => new R2FileStore(bucket(), { partBytes: 5 * MiB, singlePutBytes: 6 * MiB });

/** `n` bytes of a fixed pseudo-random sequence (xorshift32), so no two parts look alike. */
function bytes(n: number, seed = 7): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** `data` as a stream of 64 KiB chunks (a network body), optionally failing after `failAfter` bytes. */
function streamOf(data: Uint8Array, failAfter?: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (failAfter !== undefined && at >= failAfter) return c.error(new Error("connection reset"));
      if (at >= data.byteLength) return c.close();
      c.enqueue(data.slice(at, at + 65536));
      at += 65536;
    },
  });
}

const hex = async (b: ArrayBuffer | Uint8Array) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", b))].map((x) => x.toString(16).padStart(2, "0")).join("");

describe("R2 writes of any size", () => {
  it("a known length over the single-put limit goes in parts and reads back identical", async () => {
    const data = bytes(12 * MiB + 123);
    const s = await store().put("mp/known.bin", { stream: streamOf(data), length: data.byteLength });
    expect(s.size).toBe(data.byteLength);
    const o = await bucket().get("mp/known.bin");
    expect(o!.etag).toMatch(/-3$/);
    expect(await hex(await o!.arrayBuffer())).toBe(await hex(data));
  });

  it("a known length under the single-put limit is one put", async () => {
    const data = bytes(6 * MiB, 3);
    await store().put("mp/single.bin", { stream: streamOf(data), length: data.byteLength });
    const o = await bucket().get("mp/single.bin");
    expect(o!.etag).not.toMatch(/-\d+$/);
    expect(await hex(await o!.arrayBuffer())).toBe(await hex(data));
  });

  it("an unknown length goes in parts held one at a time; a short one is one put", async () => {
    const data = bytes(11 * MiB, 11);
    const s = await store().put("mp/unknown.bin", { stream: streamOf(data) });
    expect(s.size).toBe(data.byteLength);
    const o = await bucket().get("mp/unknown.bin");
    expect(o!.etag).toMatch(/-3$/);
    expect(await hex(await o!.arrayBuffer())).toBe(await hex(data));

    const exact = bytes(10 * MiB, 12); // exactly two parts: no empty third part
    await store().put("mp/exact.bin", { stream: streamOf(exact) });
    const e = await bucket().get("mp/exact.bin");
    expect(e!.etag).toMatch(/-2$/);
    expect(await hex(await e!.arrayBuffer())).toBe(await hex(exact));

    const small = bytes(1000, 5);
    await store().put("mp/small.bin", { stream: streamOf(small) });
    expect(await hex(await (await bucket().get("mp/small.bin"))!.arrayBuffer())).toBe(await hex(small));
  });

  it("a stream over the cap fails with the cap's own error, and nothing is stored", async () => {
    const data = bytes(9 * MiB, 9);
    const over = capped(streamOf(data), 7 * MiB, () => new TaskError("FILE_TOO_LARGE", "over 7 MiB"));
    await expect(store().put("mp/over.bin", { stream: over })).rejects.toMatchObject({ code: "FILE_TOO_LARGE" });
    expect(await bucket().head("mp/over.bin")).toBeNull();
  });

  it("a source failing mid-way, or shorter than declared, stores nothing", async () => {
    const data = bytes(13 * MiB, 13);
    await expect(
      store().put("mp/reset.bin", { stream: streamOf(data, 8 * MiB), length: data.byteLength }),
    ).rejects.toThrow();
    expect(await bucket().head("mp/reset.bin")).toBeNull();
    await expect(
      store().put("mp/short.bin", { stream: streamOf(data.subarray(0, 10 * MiB)), length: data.byteLength }),
    ).rejects.toThrow();
    expect(await bucket().head("mp/short.bin")).toBeNull();
  });
});
