/**
 * Files larger than one Workers RPC value (32 MiB) cross the engine seam both ways (src/engines/wire.ts):
 * a 40 MiB input to the ExifTool engine Worker (its 12 MiB budget raised for the call; issue 49 set it below 32 MiB) and a 32 MiB input to the ImageMagick
 * engine Worker (its byte budget, its memory budget raised for the call; its memory model keeps outputs far below 32 MiB), through the real
 * service bindings. Before the seam streamed large arrays, both failed with "Serialized RPC
 * arguments or return values are limited to 32MiB".
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { workerdEngines } from "../../src/runtime/workerd/engines";
import type { Env } from "../../src/env";
import type { ImageEngine } from "../../src/engines/kinds/image";
import { bmpOf as bmp } from "../contract/engines.cases";

const engines = () => workerdEngines(env as unknown as Env);
/** The WebAssembly ImageMagick's engine Worker: it answers bytes (only the native rows answer streams). */
const imagemagick = () => engines().imagemagick as ImageEngine<Uint8Array>;

describe("engine RPC with files over 32 MiB", () => {
  it("the ImageMagick engine Worker takes an input of exactly its 32 MiB budget", async () => {
    const jpg = await imagemagick().run({
      op: "convert",
      input: bmp(64, 48),
      inputFormat: "bmp",
      outputFormat: "jpg",
      options: {},
    });
    if (!jpg.ok) throw new Error(jpg.error.message);
    const padded = new Uint8Array(32 * 1024 * 1024); // a JPEG followed by zeros after its EOI marker
    padded.set(jpg.outputs[0].data);
    const r = await imagemagick().run({
      op: "convert",
      input: padded,
      inputFormat: "jpg",
      outputFormat: "bmp",
      options: {},
      // the estimate counts the input 4× since issue 49 (memory.ts), so a 32 MiB input needs its memory budget raised
      budget: { maxMemoryBytes: 200e6 },
    });
    expect(r.ok, JSON.stringify(!r.ok && r.error)).toBe(true);
    if (!r.ok) return;
    const out = r.outputs[0].data;
    expect(String.fromCharCode(out[0], out[1])).toBe("BM");
    const v = new DataView(out.buffer, out.byteOffset);
    expect([v.getInt32(18, true), Math.abs(v.getInt32(22, true))]).toEqual([64, 48]);
  }, 120_000);

  it("the ExifTool engine Worker reads a 40 MiB file", async () => {
    const jpg = await imagemagick().run({
      op: "convert",
      input: bmp(64, 48),
      inputFormat: "bmp",
      outputFormat: "jpg",
      options: {},
    });
    if (!jpg.ok) throw new Error(jpg.error.message);
    const big = new Uint8Array(40 * 1024 * 1024);
    big.set(jpg.outputs[0].data);
    const r = await engines().exiftool!.read({
      input: big,
      filename: "big.jpg",
      budget: { maxBytes: 64 * 1024 * 1024 },
    });
    expect(r.ok, JSON.stringify(!r.ok && r.error)).toBe(true);
    if (!r.ok) return;
    expect(r.metadata).toMatchObject({ FileType: "JPEG", ImageWidth: 64, ImageHeight: 48 });
    expect(String(r.metadata.FileSize)).toMatch(/^(42 MB|41943040)/);
  }, 120_000);
});
