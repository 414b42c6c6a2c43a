/**
 * The image watermark's CloudConvert parameters (issue 16): text in any script drawn with the same
 * fonts and shaping as PDFs, font_align, font_width_percent, image_height (aspect kept when alone),
 * image_width_percent and layer above/below, checked by pixel statistics from ImageMagick's
 * command-line tools (convert -trim, %[fx:mean], compare -metric AE); validation by the schema.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { WatermarkOptions } from "../../src/engines/kinds/image";
import { watermarkParams } from "../../src/operations/image/schemas";
import { nodeImageMagickEngine } from "../../src/runtime/node/imagemagick";

const engine = nodeImageMagickEngine();
const dir = mkdtempSync(join(tmpdir(), "image-watermark-"));
let n = 0;
const path = (ext = "png") => join(dir, `${++n}.${ext}`);

/** A file made by ImageMagick's convert (`args` before the output path), as bytes. */
function made(args: string[]): Uint8Array {
  const p = path();
  execFileSync("convert", [...args, p]);
  return new Uint8Array(readFileSync(p));
}

async function mark(input: Uint8Array, options: WatermarkOptions, extra?: Uint8Array): Promise<string> {
  const r = await engine.run({
    op: "watermark",
    input,
    inputFormat: "png",
    outputFormat: "png",
    options,
    extra,
    extraFormat: extra ? "png" : undefined,
  });
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  const p = path();
  writeFileSync(p, r.outputs[0].data);
  return p;
}

/** The bounding box of what differs from white: {w, h, x, y} (convert -trim: the trimmed size and its page offset). */
function inkBox(file: string, crop?: string): { w: number; h: number; x: number; y: number } {
  const args = [
    file,
    ...(crop ? ["-crop", crop, "+repage"] : []),
    "-background",
    "white",
    "-flatten",
    "-fuzz",
    "20%",
    "-trim",
    "-format",
    "%w %h %X %Y",
    "info:",
  ];
  const m = /^(\d+) (\d+) \+?(-?\d+) \+?(-?\d+)/.exec(execFileSync("convert", args, { encoding: "utf8" }))!;
  return { w: +m[1], h: +m[2], x: +m[3], y: +m[4] };
}

/** Mean of an fx expression over the image (0..1). */
const mean = (file: string, expr = "mean", crop?: string) =>
  Number(
    execFileSync("convert", [file, ...(crop ? ["-crop", crop, "+repage"] : []), "-format", `%[fx:${expr}]`, "info:"], {
      encoding: "utf8",
    }),
  );

let white: Uint8Array;
beforeAll(() => {
  white = made(["-size", "800x400", "xc:white"]);
});

describe("image watermark text in any script", () => {
  for (const text of ["機密", "기밀 문서", "这是机密", "СЕКРЕТНО", "ΕΜΠΙΣΤΕΥΤΙΚΟ", "سري للغاية", "סודי"]) {
    it(`draws "${text}": the centre is darker than the corners`, async () => {
      const out = await mark(white, { text, font_size: 60 });
      expect(mean(out, "mean", "300x100+250+150")).toBeLessThan(0.98);
      expect(mean(out, "mean", "100x100+0+0")).toBe(1);
    });
  }

  it("Arabic is joined: narrower than the same letters forced apart (U+200C)", async () => {
    const joined = inkBox(await mark(white, { text: "سري للغاية", font_size: 60 }));
    const apart = inkBox(await mark(white, { text: [..."سري للغاية"].join("\u200c"), font_size: 60 }));
    expect(joined.w).toBeLessThan(apart.w * 0.85);
  });

  it("names the characters no shipped font covers", async () => {
    const r = await engine.run({
      op: "watermark",
      input: white,
      inputFormat: "png",
      outputFormat: "png",
      options: { text: "ᱚᱞ" }, // Ol Chiki: no shipped face (issue 44 covers the scripts in common use)
    });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe("UNSUPPORTED");
      expect(r.error.message).toContain("U+1C5A");
    }
  });
});

describe("image watermark parameters", () => {
  it("font_align left/right moves the short line's ink to that side of the block", async () => {
    const text = "AB\nA much longer line";
    const left = await mark(white, { text, font_size: 40, font_align: "left" });
    const right = await mark(white, { text, font_size: 40, font_align: "right" });
    const block = inkBox(left);
    const top = `800x${Math.floor(block.h / 2) - 2}+0+${block.y}`; // the first line only
    const l = inkBox(left, top);
    const r = inkBox(right, top);
    expect(l.x).toBeLessThan(block.x + 10);
    expect(r.x + r.w).toBeGreaterThan(block.x + block.w - 10);
    expect(r.x - l.x).toBeGreaterThan(block.w / 2);
  });

  for (const pct of [30, 75]) {
    it(`font_width_percent ${pct}: the ink is ≈ ${pct}% of the image width`, async () => {
      const box = inkBox(await mark(white, { text: "CONFIDENTIAL", font_width_percent: pct, font_size: 10 }));
      expect(box.w / 800).toBeGreaterThan(pct / 100 - 0.04);
      expect(box.w / 800).toBeLessThan(pct / 100 + 0.02);
    });
  }

  it("image_height alone keeps the aspect; with image_width it is exact; image_width_percent wins", async () => {
    const logo = made(["-size", "100x40", "xc:red"]);
    expect(inkBox(await mark(white, { image_height: 60 }, logo))).toMatchObject({ w: 150, h: 60 });
    expect(inkBox(await mark(white, { image_height: 60, image_width: 90 }, logo))).toMatchObject({ w: 90, h: 60 });
    expect(inkBox(await mark(white, { image_width_percent: 25, image_height: 300 }, logo))).toMatchObject({
      w: 200,
      h: 80,
    });
  });

  it("layer below: an opaque image is unchanged; a transparent one shows the text", async () => {
    const below = await mark(white, { text: "HIDDEN", font_size: 80, layer: "below" });
    const inputPath = path();
    writeFileSync(inputPath, white);
    const ae = spawnSync("compare", ["-metric", "AE", inputPath, below, "null:"], { encoding: "utf8" });
    expect(ae.stderr.trim()).toBe("0");
    const clear = made(["-size", "400x200", "xc:none"]);
    const shown = await mark(clear, { text: "SHOWN", font_size: 80, layer: "below" });
    expect(mean(shown, "maxima.a")).toBe(1); // opaque ink where the image was transparent
    expect(mean(shown, "mean.a")).toBeGreaterThan(0.05);
    const above = await mark(white, { text: "SHOWN", font_size: 80 });
    expect(mean(above)).toBeLessThan(0.99); // above: drawn over the opaque image
  });
});

describe("image watermark parameter validation (422 messages)", () => {
  const issues = (p: unknown) =>
    (watermarkParams.safeParse(p).error?.issues ?? []).map((i) => `${i.path.join(".")}: ${i.message}`);
  it("accepts the CloudConvert parameters", () => {
    expect(
      issues({ text: "x", font_align: "right", font_width_percent: 50, layer: "below", image_height: 20 }),
    ).toEqual([]);
  });
  it("names the field and the allowed values", () => {
    expect(issues({ text: "x", font_align: "middle" })[0]).toMatch(/^font_align: .*"left".*"center".*"right"/);
    expect(issues({ text: "x", layer: "behind" })[0]).toMatch(/^layer: .*"above".*"below"/);
    expect(issues({ text: "x", font_width_percent: 150 })[0]).toMatch(/^font_width_percent: .*100/);
    expect(issues({ image: "logo", image_height: 0 })[0]).toMatch(/^image_height: .*1/);
  });
});
