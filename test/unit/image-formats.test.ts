// Every convert pair the catalogue lists (CONVERT_PAIRS) really works: the output is checked with
// Debian's identify (format and size) against identify's view of the input.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CONVERT_PAIRS } from "../../src/operations/image/convert";
import { WRITABLE_FORMATS } from "../../src/engines/imagemagick/formats";
import type { ImageFormat } from "../../src/engines/imagemagick/types";
import { CORPUS, IDENTIFY_NAME, corpus, identify, imageMagick } from "./image-helpers";

const debianConvert = (args: string[]) => new Uint8Array(execFileSync("convert", args));

/**
 * One real input per readable format. BMP, ICO and a small HEIC are made by Debian's convert from
 * corpus images (the corpus HEIC is a 12 MP photo: its full-size budget is tested in image-engine).
 */
const INPUTS: Record<ImageFormat, () => Uint8Array> = {
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

const cache = new Map<ImageFormat, Uint8Array>();
const input = (f: ImageFormat) => cache.get(f) ?? cache.set(f, INPUTS[f]()).get(f)!;
const SVG_SIZE = { width: 80, height: 80 }; // rsvg-convert's size of the corpus SVG (facts.json)

/** The output size identify should see: `width` keeps the aspect ratio; ICO caps the larger side at 256. */
function expectedSize(source: { width: number; height: number }, to: ImageFormat, width: number | undefined): [number, number] {
  let w = width ?? source.width, h = width ? Math.round((source.height * width) / source.width) : source.height;
  if (to === "ico" && Math.max(w, h) > 256) [w, h] = [Math.round((w * 256) / Math.max(w, h)), Math.round((h * 256) / Math.max(w, h))];
  return [w, h];
}

describe("convert pairs listed in the catalogue", () => {
  it("lists no HEIC output (the WASM build has no HEVC encoder) and SVG only to png/jpg", () => {
    expect(CONVERT_PAIRS.some((p) => p.output === "heic")).toBe(false);
    expect(CONVERT_PAIRS.filter((p) => p.input === "svg").map((p) => p.output)).toEqual(["png", "jpg"]);
    expect(WRITABLE_FORMATS).not.toContain("svg");
  });

  // Each pair twice: as is, and resized to half the source width, at most 128 px (fit "max" never
  // upscales, so a smaller width is a real resize, and staying under ICO's 256 px cap keeps it
  // visible in ICO output too); identify checks the width and the aspect-kept height.
  const cases = CONVERT_PAIRS.flatMap((p) => (["as is", "half width"] as const).map((mode) => [p.input, p.output, mode] as [ImageFormat, ImageFormat, "as is" | "half width"]));

  it("runs the resize branch for every pair", () => {
    expect(cases.filter(([, , mode]) => mode === "half width")).toHaveLength(CONVERT_PAIRS.length);
  });

  it.each(cases)("%s → %s (%s)", async (from, to, mode) => {
    const bytes = input(from);
    const source = from === "svg" ? SVG_SIZE : identify(bytes, from === "ico" ? "ico" : undefined);
    const width = mode === "half width" ? Math.min(Math.floor(source.width / 2), 128) : undefined;
    const r = await imageMagick().run({ op: "convert", input: bytes, inputFormat: from, outputFormat: to, options: width === undefined ? {} : { width } });
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    const out = identify(r.outputs[0].data, to === "ico" ? "ico" : undefined);
    expect(out.format).toBe(IDENTIFY_NAME[to]);
    const [w, h] = expectedSize(source, to, width);
    // the resize must be observable: an engine that ignored `width` would be more than 1 px off
    if (width !== undefined) expect(Math.abs(w - expectedSize(source, to, undefined)[0])).toBeGreaterThan(1);
    expect(Math.abs(out.width - w)).toBeLessThanOrEqual(1);
    expect(Math.abs(out.height - h)).toBeLessThanOrEqual(1);
  }, 30_000);
});
