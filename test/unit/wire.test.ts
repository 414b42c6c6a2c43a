/** The engine RPC's byte transport (src/engines/wire.ts): large arrays become streams and come back intact. */
import { describe, expect, it } from "vitest";
import { STREAM_FROM_BYTES, fromWire, toWire } from "../../src/engines/wire";

describe("engine RPC wire", () => {
  it("streams arrays from the threshold up, keeps smaller ones, and restores the value exactly", async () => {
    const big = new Uint8Array(3 * STREAM_FROM_BYTES + 17).map((_, i) => (i * 31) % 251);
    const small = new Uint8Array([1, 2, 3]);
    const value = {
      ok: true,
      outputs: [{ data: big, format: "png" }],
      small,
      n: 4,
      nested: { list: [big.subarray(0, 5)] },
    };
    // the value on the wire, as read here: the large array a `{ $stream, length }`, the small one as it was
    const wire = toWire(value) as {
      outputs: { data: { $stream: ReadableStream<Uint8Array>; length: number } }[];
      small: Uint8Array;
    };
    expect(wire.outputs[0].data.$stream).toBeInstanceOf(ReadableStream);
    expect(wire.outputs[0].data.length).toBe(big.byteLength);
    expect(wire.small).toBe(small);
    expect(await fromWire(wire)).toEqual(value);
  });

  it("refuses a stream that ends short of its declared length", async () => {
    const short = {
      $stream: new ReadableStream({
        start(c) {
          c.enqueue(new Uint8Array(10));
          c.close();
        },
      }),
      length: 20,
    };
    await expect(fromWire({ input: short })).rejects.toThrow(/ended at 10 of 20 bytes/);
  });
});
