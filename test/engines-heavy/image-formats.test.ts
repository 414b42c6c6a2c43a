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
import { exiftool, oracle, outsideDecode, psnr, withFiles } from "../support/image-oracle";
import { RAW_FORMATS } from "../../native-protocol/image";

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
  ppm: () => corpus("images/pillow-hopper.ppm"),
  psd: () => corpus("images/pillow-hopper.psd"),
};

/** The convert pairs the WASM row (`imagemagick`) is listed for; the rest belong to the native row. */
const wasmRow = engineRow("imagemagick")!;
// the camera raws' pairs are raw-wasm.test.ts's (against Debian's LibRaw)
const WASM_PAIRS = CONVERT_PAIRS.filter(
  (p) =>
    !(RAW_FORMATS as readonly string[]).includes(p.input) &&
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
    // issue 47: eps and ps are written in WebAssembly first, the native row the fallback
    expect(engines("eps")).toEqual(["imagemagick", "imagemagick-native"]);
    expect(engines("ps")).toEqual(["imagemagick", "imagemagick-native"]);
    expect(WASM_PAIRS.some((p) => p.output === "heic")).toBe(false);
    expect(
      CONVERT_PAIRS.filter((p) => p.output === "heic")
        .map((p) => p.input)
        .sort(),
    ).toEqual(
      // issue 34: and the inputs only native rows read (tga, jp2, the camera raws); issue 47: ppm and psd read in WASM
      [
        ...["avif", "bmp", "gif", "heic", "ico", "jpg", "png", "tiff", "webp", "ppm", "psd"],
        ...NATIVE_ONLY_IMAGE_INPUTS,
        // issue 47: the camera raws are read in WebAssembly first; HEIC output is still the native rows'
        ...RAW_FORMATS,
      ].sort(),
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
    // jxl is an output only: no header reader for the pre-decode budget yet (formats.ts)
    expect(CONVERT_PAIRS.some((p) => p.input === "jxl")).toBe(false);
    expect(WASM_PAIRS.some((p) => p.input === "jxl")).toBe(false);
    // issue 47: psd and ppm are read in WebAssembly first (header readers in sniff-more.ts), the native row the fallback
    for (const input of ["psd", "ppm"])
      expect(enginesFor({ kind: "image", operation: "convert", input, output: "png" }).map((e) => e.name)).toEqual([
        "imagemagick",
        "imagemagick-native",
      ]);
    expect(NATIVE_ONLY_IMAGE_INPUTS).not.toContain("ppm");
    expect(NATIVE_ONLY_IMAGE_INPUTS).not.toContain("psd");
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
    // eleven raster inputs (issue 47: ppm, psd) to each; psd also from svg (issue 34's READABLE × WRITABLE row, behind resvg)
    expect(cases.filter(([, t]) => t === "jxl")).toHaveLength(2 * 11);
    expect(cases.filter(([, t]) => t === "psd")).toHaveLength(2 * 12);
    expect(cases.filter(([, t]) => t === "eps")).toHaveLength(2 * 11);
    expect(cases.filter(([, t]) => t === "ps")).toHaveLength(2 * 11);
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
        // issue 49: a GIF's dither cache puts gif → gif at the corpus file's size over the isolate's 100 MB estimate
        // (the native ImageMagick's then); the format is what is tested here
        ...(to === "gif" ? { budget: { maxMemoryBytes: 120e6 } } : {}),
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

describe("issue 47: ppm and psd read, eps and ps written in WebAssembly, against the native conversion", () => {
  /** Normalised RMSE (0–1) between two images by IM 6's compare. */
  const rmse = (a: Uint8Array, b: Uint8Array) =>
    withFiles({ "a.png": a, "b.png": b }, (p) => {
      const r = spawnSync("compare", ["-metric", "RMSE", p("a.png"), p("b.png"), "null:"]).stderr.toString();
      return Number(/\(([0-9.e+-]+)\)/.exec(r)?.[1] ?? NaN);
    });
  const wasm = async (input: Uint8Array, inputFormat: ImageFormat, outputFormat: ImageFormat) => {
    const r = await imageMagick().run({ op: "convert", input, inputFormat, outputFormat, options: {} });
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    return r.outputs[0];
  };
  /** Debian's convert (the native row's ImageMagick 6) of the first image, as PNG. */
  const nativePng = (data: Uint8Array, coder: string) =>
    new Uint8Array(execFileSync("convert", [`${coder}:-[0]`, "png:-"], { input: data, maxBuffer: 1 << 28 }));
  const ppm = () => corpus("images/pillow-hopper.ppm");
  /** Pillow's P6, and P1–P5 written by Debian's convert from it (plain ones with -compress none). */
  const NETPBM: [string, () => Uint8Array][] = [
    ["P6 (Pillow)", ppm],
    ...(
      [
        ["P3", "ppm", true],
        ["P5", "pgm", false],
        ["P2", "pgm", true],
        ["P4", "pbm", false],
        ["P1", "pbm", true],
      ] as const
    ).map(
      ([magic, coder, plain]) =>
        [
          magic,
          () =>
            new Uint8Array(
              execFileSync("convert", ["ppm:-", ...(plain ? ["-compress", "none"] : []), `${coder}:-`], {
                input: ppm(),
              }),
            ),
        ] as [string, () => Uint8Array],
    ),
  ];

  it.each(NETPBM)(
    "Netpbm %s → png: the native conversion's pixels (RMSE 0)",
    async (magic, bytes) => {
      const input = bytes();
      expect(String.fromCharCode(input[0], input[1])).toBe(magic.slice(0, 2));
      const out = await wasm(input, "ppm", "png");
      expect(identify(out.data)).toMatchObject({ format: "PNG", width: 128, height: 128 });
      expect(rmse(out.data, nativePng(input, "pnm"))).toBeLessThan(0.002);
    },
    scaled(30_000),
  );

  it(
    "psd → png: the merged image, the native conversion's pixels; the layers are not frames of a gif",
    async () => {
      const psd = corpus("images/pillow-hopper.psd");
      expect(identify(psd).frames).toBe(3); // facts.json: the merged image and two layers
      const png = await wasm(psd, "psd", "png");
      expect(identify(png.data)).toMatchObject({ format: "PNG", width: 128, height: 128, frames: 1 });
      expect(rmse(png.data, nativePng(psd, "psd"))).toBeLessThan(0.002);
      const gif = await wasm(psd, "psd", "gif");
      expect(identify(gif.data)).toMatchObject({ format: "GIF", width: 128, height: 128, frames: 1 });
    },
    scaled(30_000),
  );

  it.each([
    ["images/cloudconvert-input.png", "png"],
    ["images/tika-testJPEG_GEO.jpg", "jpg"],
    ["images/pillow-hopper.ppm", "ppm"],
  ] as const)(
    "%s → eps and ps: exiftool's EPS/PS, Ghostscript draws the picture a pixel a point as the native row's PostScript does",
    async (rel, from) => {
      const src = corpus(rel);
      const { width, height } = identify(src);
      // the native row's PostScript (container/engines/postscript.ts) of Debian convert's flattened PPM
      const { postScriptOf } = await import("../../container/engines/postscript");
      const flat = execFileSync(
        "convert",
        ["-", "-background", "white", "-alpha", "remove", "-alpha", "off", "-depth", "8", "ppm:-"],
        { input: src, maxBuffer: 1 << 28 },
      );
      for (const to of ["eps", "ps"] as const) {
        const out = await wasm(src, from, to);
        expect(oracle(out.data, to)).toEqual({ format: to.toUpperCase(), width, height });
        const native = postScriptOf(new Uint8Array(flat), to);
        expect(rmse(outsideDecode(out.data, to), outsideDecode(native, to))).toBeLessThan(0.002);
        // Flate-compressed (Level 3), not ImageMagick's hex default: about the size of the native row's
        expect(out.data.byteLength).toBeLessThan(native.byteLength * 1.5);
      }
    },
    scaled(60_000),
  );
});
