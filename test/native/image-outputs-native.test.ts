/**
 * Image outputs of the native ImageMagick (issue 16): HEIC, which only the native engine writes
 * (magick-wasm has no HEVC encoder), through the real runner's routing; PSD and AVIF written by the
 * native engine directly. The native engine (container/server.ts) runs as a local process; every
 * output is judged by Debian's identify, exiftool and compare, and read back by the WASM engine.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODER } from "../../container/engines/imagemagick";
import type { EngineInstances } from "../../src/engines/registry";
import { NATIVE_IMAGE_INPUTS, NATIVE_IMAGE_OUTPUTS } from "../../src/engines/native/rows";
import { enginesFor } from "../../src/engines/routing";
import { CONVERT_PAIRS } from "../../src/operations/image/convert";
import { heldBytes } from "../../src/operations/kit";
import { execute } from "../../src/runner/execute";
import { nodeEngines } from "../../src/runtime/node/engines";
import { testContext } from "../support/context";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { type BytesOutput, bytesInput, corpus, identify, imageMagick } from "../support/image-helpers";
import { scaled } from "../support/time-scale";

let native: NativeServer;
let wasm: EngineInstances;
let scratch: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "image-outputs-native-"));
  wasm = nodeEngines();
  native = await startNativeEngine({ NATIVE_WORK_DIR: scratch });
}, scaled(120_000));

afterAll(async () => {
  await native?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const full = () => testContext({ engines: { ...wasm, ...native.engines() } });
const exif = (data: Uint8Array, ...tags: string[]) =>
  JSON.parse(
    execFileSync("exiftool", ["-j", ...tags.map((t) => `-${t}`), "-"], { input: data }).toString(),
  )[0] as Record<string, unknown>;

/** `bytes` (any IM 6-readable format, first frame) flattened on white, as PNG, by Debian's convert. */
const flat = (bytes: Uint8Array, hint = "") =>
  new Uint8Array(
    execFileSync("convert", [`${hint}-[0]`, "-background", "white", "-alpha", "remove", "-alpha", "off", "png:-"], {
      input: bytes,
      maxBuffer: 1 << 28,
    }),
  );

/** PSNR (dB) by Debian's compare. */
function psnr(a: Uint8Array, b: Uint8Array): number {
  writeFileSync(join(scratch, "a.png"), a);
  writeFileSync(join(scratch, "b.png"), b);
  const r = spawnSync("compare", ["-metric", "PSNR", join(scratch, "a.png"), join(scratch, "b.png"), "null:"])
    .stderr.toString()
    .trim();
  return r === "inf" ? Infinity : Number(r);
}

describe("the native image formats", () => {
  it("agree with the native server's coder table; HEIC is native-only, JXL WASM-only", () => {
    expect(Object.keys(CODER).sort()).toEqual([...new Set([...NATIVE_IMAGE_INPUTS, ...NATIVE_IMAGE_OUTPUTS])].sort());
    expect(NATIVE_IMAGE_OUTPUTS).toContain("heic");
    expect(NATIVE_IMAGE_OUTPUTS).not.toContain("jxl" as never);
    expect(
      enginesFor({ kind: "image", operation: "convert", input: "jpg", output: "heic" }).map((e) => e.name),
    ).toEqual(["imagemagick-native"]);
    expect(CONVERT_PAIRS).toContainEqual({ input: "jpg", output: "heic" });
  });

  it("Debian's ImageMagick lists HEIC and PSD as writable and has no JXL coder", () => {
    const list = execFileSync("convert", ["-list", "format"]).toString();
    expect(list).toMatch(/^\s*HEIC\*?\s+HEIC\s+rw/m);
    expect(list).toMatch(/^\s*PSD\*?\s+PSD\s+rw/m);
    expect(list).not.toMatch(/^\s*JXL/m);
  });
});

describe("convert to HEIC routes to the native ImageMagick", () => {
  it.each([
    // minimum PSNR: the 100×68 JPEG tops out at 27.8 dB by 4:2:0 chroma (q 50–100 alike; AVIF the same)
    ["images/cloudconvert-input.png", {}, [1015, 668], 30],
    ["images/tika-testJPEG_GEO.jpg", { quality: 90 }, [100, 68], 26],
    ["images/pillow-chi.gif", { width: 160 }, [160, 120], 0],
    ["images/libavif-kodim03_yuv420_8bpc.avif", {}, [768, 512], 30],
  ] as const)(
    "%s %j → HEIC (identify, exiftool), the same picture, read back by the WASM engine",
    async (rel, opts, [w, h], minPsnr) => {
      const name = rel.split("/").pop()!;
      const src = corpus(rel);
      const r = await execute("convert", { output_format: "heic", ...opts }, [bytesInput(name, src)], full());
      expect(r.engine.name).toBe("imagemagick-native");
      const f = (r.out as BytesOutput).files[0]!;
      expect(f.filename).toBe(name.replace(/\.[^.]+$/, ".heic"));
      expect(f.contentType).toBe("image/heic");
      expect(identify(f.data)).toMatchObject({ format: "HEIC", width: w, height: h, alpha: false });
      expect(exif(f.data, "FileType", "MajorBrand")).toMatchObject({
        FileType: "HEIC",
        MajorBrand: expect.stringMatching(/^High Efficiency Image Format HEVC/),
      });
      // transparent pixels are flattened on white (IM 6's HEIC writer drops alpha), not exposed
      if (minPsnr) expect(psnr(flat(src), flat(f.data))).toBeGreaterThan(minPsnr);
      // round trip: the WASM engine reads the HEIC the native engine wrote
      const back = await imageMagick().run({
        op: "convert",
        input: f.data,
        inputFormat: "heic",
        outputFormat: "png",
        options: {},
      });
      if (!back.ok) throw new Error(`${back.error.code}: ${back.error.message}`);
      expect(identify(back.outputs[0].data)).toMatchObject({ format: "PNG", width: w, height: h });
    },
    60_000,
  );

  it(
    "quality reaches the HEVC encoder: quality 20 is smaller than 90",
    async () => {
      const input = () => bytesInput("cloudconvert-input.png", corpus("images/cloudconvert-input.png"));
      const lo = await execute("convert", { output_format: "heic", quality: 20 }, [input()], full());
      const hi = await execute("convert", { output_format: "heic", quality: 90 }, [input()], full());
      expect((lo.out as BytesOutput).files[0]!.data.byteLength).toBeLessThan(
        (hi.out as BytesOutput).files[0]!.data.byteLength * 0.7,
      );
    },
    scaled(60_000),
  );

  it(
    "without the native engine, HEIC output is ENGINE_UNAVAILABLE (no WASM row offers it)",
    async () => {
      const err = await execute(
        "convert",
        { output_format: "heic" },
        [bytesInput("a.png", corpus("images/cloudconvert-input.png"))],
        testContext({ engines: { ...wasm } }),
      ).then(
        () => undefined,
        (e: unknown) => e as { code?: string; message?: string },
      );
      expect(err?.code).toBe("ENGINE_UNAVAILABLE");
    },
    scaled(60_000),
  );
});

describe("the native ImageMagick writes PSD and AVIF (over-budget inputs go there)", () => {
  it.each(["psd", "avif"] as const)(
    "png → %s",
    async (to) => {
      const engine = native.engines()["imagemagick-native"]!;
      const src = corpus("images/cloudconvert-input.png");
      const r = await engine.run({ op: "convert", input: src, inputFormat: "png", outputFormat: to, options: {} });
      if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
      // the buffered wire reads the engine's answer file into bytes
      const out = { ...r.outputs[0], data: await heldBytes(r.outputs[0].data) };
      expect(exif(out.data, "FileType").FileType).toBe(to.toUpperCase());
      // IM 6 names AVIF "HEIC" (its HEIC coder reads both)
      expect(identify(out.data)).toMatchObject({
        format: to === "psd" ? "PSD" : "HEIC",
        width: 1015,
        height: 668,
        alpha: to === "psd",
      });
      expect(psnr(flat(src), flat(out.data, `${to}:`))).toBeGreaterThan(30);
    },
    60_000,
  );

  it(
    "a JXL request is refused by the native server, which has no JXL coder",
    async () => {
      const engine = native.engines()["imagemagick-native"]!;
      const r = await engine.run({
        op: "convert",
        input: corpus("images/cloudconvert-input.png"),
        inputFormat: "png",
        outputFormat: "jxl",
        options: {},
      });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe("UNSUPPORTED");
    },
    scaled(60_000),
  );
});
