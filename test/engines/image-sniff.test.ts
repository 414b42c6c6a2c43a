// Header readers and budget checks (engines/imagemagick/sniff*.ts, budget.ts) against Debian's
// identify and the corpus facts; resize planning (geometry.ts). No WASM involved.
import { describe, expect, it } from "vitest";
import { TaskError } from "../../src/engines/errors";
import { checkImageBudget, DEFAULT_IMAGE_BUDGET, sniffImage } from "../../src/engines/imagemagick/budget";
import { sniffIco, sniffSvg } from "../../src/engines/imagemagick/sniff-more";
import { planResize, placeOverlay } from "../../src/engines/imagemagick/geometry";
import { execFileSync } from "node:child_process";
import { corpus, identify } from "../support/image-helpers";
import { corpusPath } from "../support/corpus";

const IMAGES: [string, string][] = [
  ["images/cloudconvert-input.png", "png"],
  ["images/pngsuite-basn6a16.png", "png"],
  ["images/pngsuite-basi3p08.png", "png"],
  ["images/exif-orientation-Landscape_6.jpg", "jpg"],
  ["images/pillow-pil_sample_cmyk.jpg", "jpg"],
  ["images/pillow-chi.gif", "gif"],
  ["images/libwebp-test.webp", "webp"],
  ["images/pillow-hopper.tif", "tiff"],
  ["images/pillow-multipage.tiff", "tiff"],
  ["images/libavif-kodim03_yuv420_8bpc.avif", "avif"],
  ["images/tika-IMG_1034.heic", "heic"],
];

describe("header sniffing agrees with identify", () => {
  it.each(IMAGES)("%s", (rel, format) => {
    const bytes = corpus(rel);
    const h = sniffImage(bytes)!;
    const oracle = identify(bytes);
    expect(h.format).toBe(format);
    expect([h.width, h.height]).toEqual([oracle.maxWidth, oracle.maxHeight]); // budgets use the largest frame
    expect(h.frames).toBe(oracle.frames);
  });

  it("reads BMP (from Debian convert) and ICO entries", () => {
    const bmp = new Uint8Array(execFileSync("convert", [corpusPath("images/pngsuite-basi3p08.png"), "bmp:-"]));
    expect(sniffImage(bmp)).toMatchObject({ format: "bmp", width: 32, height: 32 });
    const ico = new Uint8Array(execFileSync("convert", ["-size", "48x40", "xc:red", "ico:-"]));
    expect(sniffIco(ico)).toMatchObject({ format: "ico", width: 48, height: 40, frames: 1 });
  });

  it("issue 47: reads Netpbm headers (P1–P6, comments between fields) and the PSD header, as identify sizes them", () => {
    const ppm = corpusPath("images/pillow-hopper.ppm");
    // P6 as written by Pillow; the other five by Debian's convert from it (plain with -compress none)
    expect(sniffImage(corpus("images/pillow-hopper.ppm"))).toMatchObject({ format: "ppm", width: 128, height: 128 });
    for (const [coder, plain] of [
      ["ppm", true],
      ["pgm", false],
      ["pgm", true],
      ["pbm", false],
      ["pbm", true],
    ] as const) {
      const bytes = new Uint8Array(
        execFileSync("convert", [ppm, "-resize", "100x60!", ...(plain ? ["-compress", "none"] : []), `${coder}:-`]),
      );
      const magic = String.fromCharCode(bytes[0], bytes[1]);
      expect(["P1", "P2", "P3", "P4", "P5"]).toContain(magic);
      expect(sniffImage(bytes), magic).toMatchObject({ format: "ppm", width: 100, height: 60, frames: 1 });
      expect(identify(bytes)).toMatchObject({ width: 100, height: 60 });
    }
    const commented = new TextEncoder().encode("P5 # made by hand\n# another\n 7\t9 #x\n255\n");
    expect(sniffImage(commented)).toMatchObject({ format: "ppm", width: 7, height: 9 });
    expect(sniffImage(new TextEncoder().encode("P6x 7 9 255"))).toBeNull();
    const psd = corpus("images/pillow-hopper.psd");
    expect(sniffImage(psd)).toMatchObject({ format: "psd", width: 128, height: 128, frames: 1 }); // the merged image
    expect(identify(psd)).toMatchObject({ format: "PSD", width: 128, height: 128 });
  });

  it("reads the SVG root size (viewBox when width/height are absent)", () => {
    expect(sniffSvg(corpus("images/resvg-embedded-png.svg"))).toMatchObject({ width: 80, height: 80 });
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="2in" viewBox="0 0 10 5"/>');
    expect(sniffSvg(svg)).toMatchObject({ width: 192, height: 96 });
  });
});

describe("budgets refuse before decoding", () => {
  const budget = DEFAULT_IMAGE_BUDGET;
  const refuse = (rel: string, format: Parameters<typeof checkImageBudget>[1], allFrames = false) => {
    // checkImageBudget reads headers only (no WASM, no decoder), so there is no timing to assert here
    try {
      checkImageBudget(corpus(rel), format, budget, allFrames);
    } catch (err) {
      expect(err).toBeInstanceOf(TaskError);
      return err as TaskError;
    }
    throw new Error(`${rel} was accepted`);
  };

  it("JPEG declaring 64250×64250 (fuzzdb lottapixel) → OVER_BUDGET", () => {
    const e = refuse("broken/fuzzdb-lottapixel.jpg", "jpg");
    expect(e.code).toBe("OVER_BUDGET");
    expect(e.message).toContain("64250×64250");
  });

  it("44-byte GIF whose frame declares 65535 px wide (pillow bomb) → OVER_BUDGET", () => {
    expect(refuse("broken/pillow-decompression_bomb.gif", "gif").code).toBe("OVER_BUDGET");
  });

  it("GIF of 40000 frames (fuzzdb uber) → OVER_BUDGET on the frame count", () => {
    const e = refuse("broken/fuzzdb-uber.gif", "gif");
    expect(e.code).toBe("OVER_BUDGET");
    expect(e.message).toMatch(/more than 500 frames/);
  });

  it("PNG with a broken signature (pngsuite xs1n0g01) → OPEN_FAILED", () => {
    expect(refuse("broken/pngsuite-xs1n0g01.png", "png").code).toBe("OPEN_FAILED");
  });

  it("bytes over the budget → OVER_BUDGET", () => {
    expect(() => checkImageBudget(new Uint8Array(10), "png", { ...budget, maxBytes: 5 }, false)).toThrow(
      /at most 5 bytes/,
    );
  });

  it("an animation kept whole counts every frame", () => {
    const small = { ...budget, maxTotalPixels: 1_000_000 };
    expect(() => checkImageBudget(corpus("images/pillow-chi.gif"), "gif", small, true)).toThrow(/31 frames/);
    expect(checkImageBudget(corpus("images/pillow-chi.gif"), "gif", small, false).frames).toBe(31);
  });
});

describe("planResize (fit semantics, contract §6)", () => {
  it("max fits inside and never enlarges", () => {
    expect(planResize(1800, 1200, { width: 300, height: 300, fit: "max" })).toEqual({ resize: { w: 300, h: 200 } });
    expect(planResize(100, 50, { width: 300, height: 300, fit: "max" })).toBeNull();
    expect(planResize(1800, 1200, { width: 900 })).toEqual({ resize: { w: 900, h: 600 } });
  });
  it("crop covers the box then crops the centre", () => {
    expect(planResize(1800, 1200, { width: 300, height: 300, fit: "crop" })).toEqual({
      resize: { w: 450, h: 300 },
      crop: { w: 300, h: 300 },
    });
  });
  it("scale forces the exact size, enlarging if asked", () => {
    expect(planResize(100, 50, { width: 300, height: 300, fit: "scale" })).toEqual({ resize: { w: 300, h: 300 } });
  });
  it("places overlays by position and margin", () => {
    expect(
      placeOverlay(1000, 500, 100, 50, {
        position_vertical: "bottom",
        position_horizontal: "right",
        margin_vertical: 10,
        margin_horizontal: 20,
      }),
    ).toEqual({ x: 880, y: 440 });
    expect(placeOverlay(1000, 500, 100, 50, {})).toEqual({ x: 450, y: 225 });
  });
});
