// Every convert pair the catalogue lists for the WASM engine (CONVERT_PAIRS the `imagemagick` row
// fits) really works: the output is checked with Debian's identify (format and size) against
// identify's view of the input; JXL, which Debian's ImageMagick 6 cannot read, with exiftool (file
// type, size) and Debian's ffmpeg (libjxl) decoding it. Native-only outputs (HEIC):
// image-outputs-native.test.ts.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MagickFormat, MagickImage, MagickReadSettings } from "@imagemagick/magick-wasm";
import { describe, expect, it } from "vitest";
import { CONVERT_PAIRS } from "../../src/operations/image/convert";
import { LOSSY_OUTPUTS, WRITABLE_FORMATS } from "../../src/engines/imagemagick/formats";
import { MIME, type ImageFormat } from "../../src/engines/kinds/image";
import { engineRow, NATIVE_ONLY_IMAGE_INPUTS } from "../../src/engines/registry";
import { enginesFor } from "../../src/engines/routing";
import { scaled } from "../support/time-scale";
import { imageConvert } from "../../src/operations/image/convert";
import {
  type BytesOutput,
  CORPUS,
  IDENTIFY_NAME,
  bytesInput,
  corpus,
  identify,
  imageContext,
  imageMagick,
} from "../support/image-helpers";

const debianConvert = (args: string[]) => new Uint8Array(execFileSync("convert", args));

/**
 * One real input per readable format. BMP, ICO and a small HEIC are made by Debian's convert from
 * corpus images (the corpus HEIC is a 12 MP photo: its full-size budget is tested in image-engine).
 */
const INPUTS: Partial<Record<ImageFormat, () => Uint8Array>> = {
  png: () => corpus("images/cloudconvert-input.png"),
  jpg: () => corpus("images/tika-testJPEG_GEO.jpg"),
  webp: () => corpus("images/libwebp-test.webp"),
  gif: () => corpus("images/pillow-chi.gif"),
  tiff: () => corpus("images/pillow-hopper.tif"),
  bmp: () => debianConvert([`${CORPUS}/images/pillow-hopper.tif`, "bmp:-"]),
  ico: () => debianConvert([`${CORPUS}/images/pillow-hopper.tif`, "-resize", "48x48", "ico:-"]),
  avif: () => corpus("images/libavif-kodim03_yuv420_8bpc.avif"),
  heic: () => debianConvert([`${CORPUS}/images/tika-IMG_1034.heic`, "-resize", "800x", "heic:-"]),
  svg: () => corpus("images/resvg-embedded-png.svg"),
};

/** What exiftool (Debian's, not our code) says of bytes on stdin. */
function exiftool(data: Uint8Array): {
  FileType: string;
  ImageWidth: number;
  ImageHeight: number;
  [k: string]: unknown;
} {
  return JSON.parse(
    execFileSync("exiftool", ["-j", "-n", "-FileType", "-ImageWidth", "-ImageHeight", "-LayerCount", "-"], {
      input: data,
    }).toString(),
  )[0];
}

/**
 * Format and size of an output by outside tools: identify; for JXL (IM 6 has no JXL coder) the file
 * type by exiftool ("JXL", or "JXL Codestream" for a bare codestream; exiftool 12.57 gives sizes only
 * for the latter) and the size of Debian ffmpeg's (libjxl) decode.
 */
function oracle(data: Uint8Array, to: ImageFormat): { format: string; width: number; height: number } {
  if (to !== "jxl") return identify(data, to === "ico" ? "ico" : undefined);
  const type = exiftool(data).FileType;
  const { width, height } = identify(outsideDecode(data, "jxl"));
  return { format: type.startsWith("JXL") ? "JXL" : type, width, height };
}

/** Runs `fn` with `files` written into a fresh temporary folder (ffmpeg probes JXL from a file, not from a pipe). */
function withFiles<T>(files: Record<string, Uint8Array>, fn: (path: (name: string) => string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "image-formats-"));
  try {
    for (const [name, data] of Object.entries(files)) writeFileSync(join(dir, name), data);
    return fn((name) => join(dir, name));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Decodes bytes to a PNG with Debian's tools (ffmpeg's libjxl for JXL, else IM 6's first frame), flattened on white. */
function outsideDecode(data: Uint8Array, format: ImageFormat): Uint8Array {
  const png =
    format === "jxl"
      ? withFiles({ "in.jxl": data }, (p) =>
          execFileSync(
            "ffmpeg",
            ["-v", "error", "-i", p("in.jxl"), "-frames:v", "1", "-f", "image2pipe", "-c:v", "png", "-"],
            { maxBuffer: 1 << 28 },
          ),
        )
      : execFileSync("convert", [`${format}:-[0]`, "png:-"], { input: data, maxBuffer: 1 << 28 });
  return new Uint8Array(
    execFileSync("convert", ["png:-", "-background", "white", "-alpha", "remove", "-alpha", "off", "png:-"], {
      input: png,
      maxBuffer: 1 << 28,
    }),
  );
}

/** PSNR (dB) between two PNGs by IM 6's compare (Infinity when identical). */
function psnr(a: Uint8Array, b: Uint8Array): number {
  const r = withFiles({ "a.png": a, "b.png": b }, (p) =>
    spawnSync("compare", ["-metric", "PSNR", p("a.png"), p("b.png"), "null:"])
      .stderr.toString()
      .trim(),
  );
  return r === "inf" ? Infinity : Number(r);
}

/** The convert pairs the WASM row (`imagemagick`) is listed for; the rest belong to the native row. */
const wasmRow = engineRow("imagemagick")!;
const WASM_PAIRS = CONVERT_PAIRS.filter((p) =>
  enginesFor({ kind: "image", operation: "convert", input: p.input, output: p.output }).includes(wasmRow),
);
const cache = new Map<ImageFormat, Uint8Array>();
const input = (f: ImageFormat) => cache.get(f) ?? cache.set(f, INPUTS[f]!()).get(f)!;
const SVG_SIZE = { width: 80, height: 80 }; // rsvg-convert's size of the corpus SVG (facts.json)

/** The output size identify should see: `width` keeps the aspect ratio; ICO caps the larger side at 256. */
function expectedSize(
  source: { width: number; height: number },
  to: ImageFormat,
  width: number | undefined,
): [number, number] {
  let w = width ?? source.width,
    h = width ? Math.round((source.height * width) / source.width) : source.height;
  if (to === "ico" && Math.max(w, h) > 256)
    [w, h] = [Math.round((w * 256) / Math.max(w, h)), Math.round((h * 256) / Math.max(w, h))];
  return [w, h];
}

describe("convert pairs listed in the catalogue", () => {
  it("lists HEIC output only for the native row (the WASM build has no HEVC encoder), JXL only for WASM, PSD for both; SVG only to png/jpg", () => {
    const engines = (output: string) =>
      enginesFor({ kind: "image", operation: "convert", input: "png", output }).map((e) => e.name);
    expect(engines("heic")).toEqual(["imagemagick-native"]);
    expect(engines("jxl")).toEqual(["imagemagick"]);
    expect(engines("psd")).toEqual(["imagemagick", "imagemagick-native"]);
    expect(engines("avif")).toEqual(["imagemagick", "imagemagick-native"]);
    expect(WASM_PAIRS.some((p) => p.output === "heic")).toBe(false);
    expect(
      CONVERT_PAIRS.filter((p) => p.output === "heic")
        .map((p) => p.input)
        .sort(),
    ).toEqual(
      // issue 34: and the inputs only native rows read (ppm, tga, jp2, the camera raws)
      [...["avif", "bmp", "gif", "heic", "ico", "jpg", "png", "tiff", "webp"], ...NATIVE_ONLY_IMAGE_INPUTS].sort(),
    );
    // issue 33: svg is resvg's (it draws png, ImageMagick encodes the rest)
    expect(CONVERT_PAIRS.filter((p) => p.input === "svg").map((p) => p.output)).toEqual([
      "png",
      "jpg",
      "webp",
      "gif",
      "tiff",
      "bmp",
      "ico",
      "avif",
      "psd",
    ]);
    expect(WRITABLE_FORMATS).not.toContain("svg");
    expect(WRITABLE_FORMATS).not.toContain("heic");
    // outputs only in WebAssembly: no header reader for the pre-decode budget yet (formats.ts); psd is read natively (issue 34)
    expect(CONVERT_PAIRS.some((p) => p.input === "jxl")).toBe(false);
    expect(WASM_PAIRS.some((p) => p.input === "jxl" || p.input === "psd")).toBe(false);
    expect(enginesFor({ kind: "image", operation: "convert", input: "psd", output: "png" }).map((e) => e.name)).toEqual(
      ["imagemagick-native"],
    );
  });

  // Each pair twice: as is, and resized to half the source width, at most 128 px (fit "max" never
  // upscales, so a smaller width is a real resize, and staying under ICO's 256 px cap keeps it
  // visible in ICO output too); identify checks the width and the aspect-kept height.
  const cases = WASM_PAIRS.flatMap((p) =>
    (["as is", "half width"] as const).map(
      (mode) => [p.input, p.output, mode] as [ImageFormat, ImageFormat, "as is" | "half width"],
    ),
  );

  it("runs the resize branch for every pair", () => {
    expect(cases.filter(([, , mode]) => mode === "half width")).toHaveLength(WASM_PAIRS.length);
    // nine raster inputs to each; psd also from svg (issue 34's READABLE × WRITABLE row, behind resvg)
    expect(cases.filter(([, t]) => t === "jxl")).toHaveLength(2 * 9);
    expect(cases.filter(([, t]) => t === "psd")).toHaveLength(2 * 10);
  });

  it.each(cases)(
    "%s → %s (%s)",
    async (from, to, mode) => {
      const bytes = input(from);
      const source = from === "svg" ? SVG_SIZE : identify(bytes, from === "ico" ? "ico" : undefined);
      const width = mode === "half width" ? Math.min(Math.floor(source.width / 2), 128) : undefined;
      const r = await imageMagick().run({
        op: "convert",
        input: bytes,
        inputFormat: from,
        outputFormat: to,
        options: width === undefined ? {} : { width },
      });
      if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
      const out = oracle(r.outputs[0].data, to);
      expect(out.format).toBe(IDENTIFY_NAME[to] ?? to.toUpperCase());
      const [w, h] = expectedSize(source, to, width);
      // the resize must be observable: an engine that ignored `width` would be more than 1 px off
      if (width !== undefined) expect(Math.abs(w - expectedSize(source, to, undefined)[0])).toBeGreaterThan(1);
      expect(Math.abs(out.width - w)).toBeLessThanOrEqual(1);
      expect(Math.abs(out.height - h)).toBeLessThanOrEqual(1);
    },
    30_000,
  );
});

describe("the outputs added in issue 16 (JXL, PSD) through the convert operation", () => {
  const PHOTO = "images/tika-testJPEG_GEO.jpg"; // opaque: pixels comparable without matting
  const run = async (rel: string, output_format: ImageFormat, extra: Record<string, unknown> = {}) => {
    const r = await imageConvert.run(
      [bytesInput(rel.split("/").pop()!, corpus(rel))],
      { output_format, ...extra },
      imageContext(),
    );
    return (r as BytesOutput).files[0];
  };

  it.each(["jxl", "psd"] as const)(
    "%s: named, typed, the same picture by an outside decoder, and read back by magick-wasm",
    async (to) => {
      const src = corpus(PHOTO);
      const f = await run(PHOTO, to);
      expect(f.filename).toBe(`tika-testJPEG_GEO.${to}`);
      expect(f.contentType).toBe(MIME[to]);
      expect(oracle(f.data, to).format).toBe(to.toUpperCase());
      const s = identify(src);
      // outside decode (ffmpeg's libjxl / IM 6's PSD reader) vs the source decoded by IM 6
      const db = psnr(outsideDecode(src, "jpg"), outsideDecode(f.data, to));
      expect(db).toBeGreaterThan(to === "psd" ? 60 : 30);
      // round trip: the engine's own decoder reads what it wrote
      const back = MagickImage.create();
      try {
        back.read(f.data, new MagickReadSettings({ format: to === "jxl" ? MagickFormat.Jxl : MagickFormat.Psd }));
        expect([back.width, back.height]).toEqual([s.width, s.height]);
      } finally {
        back.dispose();
      }
    },
    scaled(60_000),
  );

  it.each(["images/pillow-chi.gif", "images/pngsuite-basi3p08.png"])(
    "psd of a palette image (%s) is RGB: IM 7's indexed PSD is unreadable",
    async (rel) => {
      const f = await run(rel, "psd");
      const id = identify(f.data);
      expect(id.format).toBe("PSD");
      expect(
        JSON.parse(execFileSync("exiftool", ["-j", "-ColorMode", "-"], { input: f.data }).toString())[0].ColorMode,
      ).toBe("RGB");
    },
    scaled(60_000),
  );

  it(
    "psd keeps alpha: a layer plus the merged image (exiftool LayerCount 1, identify 2 images with alpha)",
    async () => {
      const f = await run("images/cloudconvert-input.png", "psd");
      const id = identify(f.data);
      expect(id).toMatchObject({ format: "PSD", width: 1015, height: 668, frames: 2, alpha: true });
      expect(exiftool(f.data).LayerCount).toBe(1);
    },
    scaled(60_000),
  );

  it(
    "jxl honours quality (lossy, LOSSY_OUTPUTS): quality 30 is smaller and further from the source than 95",
    async () => {
      expect(LOSSY_OUTPUTS).toContain("jxl");
      const PNG = "images/cloudconvert-input.png";
      const lo = await run(PNG, "jxl", { quality: 30, strip: true });
      const hi = await run(PNG, "jxl", { quality: 95, strip: true });
      expect(lo.data.byteLength).toBeLessThan(hi.data.byteLength * 0.6);
      const src = outsideDecode(corpus(PNG), "png");
      expect(psnr(src, outsideDecode(hi.data, "jxl"))).toBeGreaterThan(psnr(src, outsideDecode(lo.data, "jxl")));
    },
    scaled(60_000),
  );

  it(
    "jxl above the engine's memory budget (~1.3 MP, libjxl needs ~70 B/px) is OVER_BUDGET, smaller widths work",
    async () => {
      const big = debianConvert([`${CORPUS}/images/tika-IMG_1034.heic`, "-resize", "1600x", "jpg:-"]); // 1600×1200
      const r = await imageMagick().run({
        op: "convert",
        input: big,
        inputFormat: "jpg",
        outputFormat: "jxl",
        options: {},
      });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatchObject({ code: "OVER_BUDGET", message: expect.stringContaining("JXL") });
      const ok = await imageMagick().run({
        op: "convert",
        input: big,
        inputFormat: "jpg",
        outputFormat: "jxl",
        options: { width: 1000 },
      });
      if (!ok.ok) throw new Error(`${ok.error.code}: ${ok.error.message}`);
      expect(oracle(ok.outputs[0].data, "jxl")).toEqual({ format: "JXL", width: 1000, height: 750 });
    },
    scaled(60_000),
  );
});
