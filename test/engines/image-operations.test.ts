// The image registry rows (operations/image) run through a Node context with the in-process
// engine: file names, multi-output thumbnails, watermark text/image, optimize's savings, errors.
import { describe, expect, it } from "vitest";
import { TaskError } from "../../src/engines/errors";
import { IMAGEMAGICK_ENGINE } from "../../src/engines/imagemagick/version";
import { enginesFor } from "../../src/engines/routing";
import {
  IMAGE_HANDLERS,
  imageConvert,
  imageOptimize,
  imageThumbnail,
  imageWatermark,
} from "../../src/operations/image";
import { validateTaskParams } from "../../src/operations/validate";
import {
  type BytesOutput,
  bytesInput,
  corpus,
  corpusInput,
  identify,
  imageContext,
  meanColour,
} from "../support/image-helpers";

describe("image operation rows", () => {
  it("declare the image engine kind, credits and zod params; routing runs them on imagemagick", () => {
    for (const h of IMAGE_HANDLERS) {
      expect(h.kind).toBe("image");
      // WebAssembly first; the native engine's ImageMagick takes convert and thumbnail over budget (issue 12),
      // LibRaw the camera raws (issue 34); resvg draws SVG for both (issue 33); libtiff a TIFF scan → pdf (issue 49)
      const drawsSvg = ["convert", "thumbnail"].includes(h.operation);
      const native = drawsSvg
        ? [...(h.operation === "convert" ? ["libtiff"] : []), "imagemagick-native", "libraw", "gimp"]
        : [];
      expect(enginesFor({ kind: h.kind, operation: h.operation }).map((e) => e.name)).toEqual([
        ...(drawsSvg ? ["resvg"] : []),
        "imagemagick",
        ...native,
      ]);
      expect(h.credits).toBe(1);
      expect(h.formats.length).toBeGreaterThan(0);
    }
  });

  it("validate parameters at creation: unknown names, bad values and watermark's text|image", () => {
    expect(validateTaskParams([imageConvert], { output_format: "jpg", fit: "cover" })).toHaveProperty("errors");
    // issue 31: an unknown key is accepted and ignored (a warning at run time), not a 422
    expect(validateTaskParams([imageConvert], { output_format: "jpg", widht: 10 })).toMatchObject({
      params: { $ignored: [{ key: "widht" }] },
    });
    expect(validateTaskParams([imageConvert], { output_format: "jpg", width: 300, strip: "true" })).toMatchObject({
      params: { width: 300, strip: true },
    });
    expect(validateTaskParams([imageWatermark], { input_format: "png" })).toMatchObject({
      errors: [expect.stringContaining("text")],
    });
    // a font CloudConvert has and we do not ship is accepted (the default face, a warning at run time)
    expect(
      validateTaskParams([imageWatermark], { input_format: "png", text: "x", font_name: "Comic Sans" }),
    ).toHaveProperty("params");
    expect(
      validateTaskParams([imageWatermark], { input_format: "png", text: "x", font_name: "Arial Bold" }),
    ).toHaveProperty("params");
  });
});

describe("convert", () => {
  it("names the output after the input with the new extension, or `filename`", async () => {
    const ctx = imageContext();
    const a = (await imageConvert.run(
      [corpusInput("images/cloudconvert-input.png")],
      { output_format: "webp" },
      ctx,
    )) as BytesOutput;
    expect(a.files.map((f) => f.filename)).toEqual(["cloudconvert-input.webp"]);
    expect(a.files[0].contentType).toBe("image/webp");
    expect(a.engine).toEqual({ name: "imagemagick", version: IMAGEMAGICK_ENGINE.version });
    const b = (await imageConvert.run(
      [corpusInput("images/cloudconvert-input.png")],
      { output_format: "jpg", filename: "out.jpg", width: 200 },
      ctx,
    )) as BytesOutput;
    expect(b.files[0].filename).toBe("out.jpg");
    expect(identify(b.files[0].data)).toMatchObject({ format: "JPEG", width: 200, height: 132 });
  });

  it("throws the engine's code as a TaskError, prefixed by the file name", async () => {
    const err = await imageConvert
      .run([corpusInput("broken/pillow-truncated_jpeg.jpg")], { output_format: "png" }, imageContext())
      .catch((e) => e);
    expect(err).toBeInstanceOf(TaskError);
    expect(err.code).toBe("OPEN_FAILED");
    expect(err.message).toMatch(/^pillow-truncated_jpeg\.jpg: /);
  });

  it("without an image engine in the context answers ENGINE_UNAVAILABLE, not retryable", async () => {
    const err = await imageConvert
      .run([corpusInput("images/libwebp-test.webp")], { output_format: "png" }, imageContext({ engines: {} }))
      .catch((e) => e);
    expect(err).toMatchObject({ code: "ENGINE_UNAVAILABLE", retryable: false });
  });
});

describe("thumbnail", () => {
  it("fit max never enlarges; crop gives the exact box", async () => {
    const ctx = imageContext();
    const small = (await imageThumbnail.run(
      [corpusInput("images/libwebp-test.webp")],
      { output_format: "png", width: 400, height: 400 },
      ctx,
    )) as BytesOutput;
    expect(identify(small.files[0].data)).toMatchObject({ width: 128, height: 128 });
    const crop = (await imageThumbnail.run(
      [corpusInput("images/exif-orientation-Landscape_6.jpg")],
      { output_format: "jpg", width: 256, height: 256, fit: "crop" },
      ctx,
    )) as BytesOutput;
    expect(identify(crop.files[0].data)).toMatchObject({ format: "JPEG", width: 256, height: 256 });
    expect(crop.files[0].filename).toBe("exif-orientation-Landscape_6.jpg");
  });

  it("count makes one thumbnail per frame, numbered", async () => {
    const r = (await imageThumbnail.run(
      [corpusInput("images/pillow-chi.gif")],
      { output_format: "webp", width: 64, count: 3 },
      imageContext(),
    )) as BytesOutput;
    expect(r.files.map((f) => f.filename)).toEqual(["pillow-chi-1.webp", "pillow-chi-2.webp", "pillow-chi-3.webp"]);
    for (const f of r.files) expect(identify(f.data)).toMatchObject({ format: "WEBP", width: 64, height: 48 });
    const named = (await imageThumbnail.run(
      [corpusInput("images/pillow-multipage.tiff")],
      { output_format: "png", count: 5, filename: "page-%02d.png" },
      imageContext(),
    )) as BytesOutput;
    expect(named.files.map((f) => f.filename)).toEqual(["page-01.png", "page-02.png", "page-03.png"]);
  });
});

describe("watermark", () => {
  it("draws text in the requested colour where it was placed", async () => {
    const white = new Uint8Array(Buffer.from(execConvert(["-size", "400x200", "xc:white", "png:-"])));
    const r = (await imageWatermark.run(
      [bytesInput("white.png", white)],
      {
        text: "WATERMARK",
        font_size: 48,
        font_color: "#ff0000",
        font_name: "Arial Bold",
        position_vertical: "top",
        position_horizontal: "left",
        margin_vertical: 5,
        margin_horizontal: 5,
      },
      imageContext(),
    )) as BytesOutput;
    expect(r.files[0].filename).toBe("white.png");
    const out = r.files[0].data;
    expect(identify(out)).toMatchObject({ format: "PNG", width: 400, height: 200 });
    const [tr, tg] = meanColour(out, "200x40+5+5");
    expect(tr).toBeGreaterThan(200);
    expect(tg).toBeLessThan(200); // red ink in the top-left band
    expect(meanColour(out, "100x60+300+140")).toEqual([255, 255, 255]); // bottom-right untouched
  });

  it("takes CloudConvert's spellings through the one watermark schema: #RGB without '#', a numeric string, a font it does not ship (default face, a warning)", async () => {
    const white = new Uint8Array(Buffer.from(execConvert(["-size", "400x200", "xc:white", "png:-"])));
    const raw = {
      text: "WATERMARK",
      font_size: "48",
      font_color: "f00",
      font_name: "Comic Sans Bold",
      position_vertical: "top",
      position_horizontal: "left",
      margin_vertical: 5,
      margin_horizontal: 5,
    };
    const checked = validateTaskParams([imageWatermark], { input_format: "png", ...raw });
    if (!("params" in checked)) throw new Error(checked.errors.join("; "));
    expect(checked.params).toMatchObject({ font_size: 48, font_color: "#FF0000" });
    const r = (await imageWatermark.run(
      [bytesInput("white.png", white)],
      checked.params as never,
      imageContext(),
    )) as BytesOutput;
    expect(r.extra?.warnings).toEqual([
      'font_name "Comic Sans Bold" is not available here; DejaVu Sans Bold was used.',
    ]);
    const [tr, tg] = meanColour(r.files[0].data, "200x40+5+5");
    expect(tr).toBeGreaterThan(200);
    expect(tg).toBeLessThan(200); // red ink in the top-left band
  });

  it("composites the `image` task's file with its transparency, sized by image_width_percent", async () => {
    const ctx = imageContext({
      taskFiles: async (name) => (name === "logo" ? [corpusInput("images/pngsuite-basn6a16.png")] : []),
    });
    const base = corpusInput("images/exif-orientation-Landscape_1.jpg");
    const res = (await imageWatermark.run(
      [base],
      { image: "logo", image_width_percent: 50, opacity: 100 },
      ctx,
    )) as BytesOutput;
    const out = res.files[0].data;
    expect(identify(out)).toMatchObject({ format: "JPEG", width: 1800, height: 1200 });
    // the 32×32 logo becomes 900×900 at (450,150): its pixel (24,24) is blue at 45% alpha → (1125,825)
    const photo = corpus("images/exif-orientation-Landscape_1.jpg");
    const blue = meanColour(out, "10x10+1120+820"),
      under = meanColour(photo, "10x10+1120+820");
    expect(blue[2] - under[2]).toBeGreaterThan(50);
    expect(blue[0]).toBeLessThan(under[0]);
    // its corners are fully transparent: the photo shows through unchanged (JPEG tolerance)
    const corner = meanColour(out, "10x10+452+152"),
      original = meanColour(photo, "10x10+452+152");
    corner.forEach((v, i) => expect(Math.abs(v - original[i])).toBeLessThanOrEqual(6));
  });
});

describe("optimize", () => {
  it("PNG losslessly smaller; JPG re-encoded; bytes_saved reported", async () => {
    const png = (await imageOptimize.run(
      [corpusInput("images/cloudconvert-input.png")],
      {},
      imageContext(),
    )) as BytesOutput;
    const original = corpus("images/cloudconvert-input.png");
    expect(png.extra?.bytes_saved).toBe(original.byteLength - png.files[0].data.byteLength);
    expect(png.extra?.bytes_saved).toBeGreaterThan(0);
    expect(compareAE(original, png.files[0].data)).toBe(0); // lossless: not one pixel differs
    const jpg = (await imageOptimize.run(
      [corpusInput("images/tika-testJPEG_GEO.jpg")],
      { profile: "max" },
      imageContext(),
    )) as BytesOutput;
    expect(jpg.files[0].filename).toBe("tika-testJPEG_GEO.jpg");
    expect(jpg.extra?.bytes_saved).toBeGreaterThan(0);
    expect(identify(jpg.files[0].data)).toMatchObject({ format: "JPEG", width: 100, height: 68 });
  });
});

import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
function execConvert(args: string[]): Buffer {
  return execFileSync("convert", args);
}
/** Number of differing pixels according to Debian's `compare -metric AE`. */
function compareAE(a: Uint8Array, b: Uint8Array): number {
  const dir = mkdtempSync(join(tmpdir(), "img-"));
  writeFileSync(join(dir, "a.png"), a);
  writeFileSync(join(dir, "b.png"), b);
  const r = spawnSync("compare", ["-metric", "AE", join(dir, "a.png"), join(dir, "b.png"), "null:"]);
  return Number(r.stderr.toString().trim());
}
