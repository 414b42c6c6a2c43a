/** watermark on PDFs: text found by pdftotext where asked, images placed, layer below hidden by opaque pages. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { watermarkPdf } from "../../src/operations/pdf/watermark";
import {
  corpusInput,
  expectQpdfCheck,
  expectTaskError,
  pdfinfo,
  pdftotext,
  testContext,
  tmpFile,
  dataOf,
} from "../support/pdf-helpers";
import { corpusPath } from "../support/corpus";

const ctx = testContext({
  taskFiles: async (name) => (name === "logo" ? [corpusInput("images/cloudconvert-input.png")] : []),
});

/** Word boxes per page from `pdftotext -bbox` (displayed coordinates, origin top-left, points). */
function wordBoxes(
  data: Uint8Array,
  word: string,
): { page: number; xMin: number; yMin: number; xMax: number; yMax: number }[] {
  const html = execFileSync("pdftotext", ["-bbox", tmpFile(data), "-"], { encoding: "utf8" });
  const out: { page: number; xMin: number; yMin: number; xMax: number; yMax: number }[] = [];
  html
    .split("<page ")
    .slice(1)
    .forEach((chunk: string, i: number) => {
      for (const m of chunk.matchAll(
        /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
      )) {
        if (m[5] === word) out.push({ page: i + 1, xMin: +m[1], yMin: +m[2], xMax: +m[3], yMax: +m[4] });
      }
    });
  return out;
}

describe("watermark (PDF, text)", () => {
  it("puts the text on the pages asked for, at the position asked for, keeping document info", async () => {
    const params = {
      text: "CONFIDENTIAL",
      pages: "1,3",
      position_vertical: "top" as const,
      position_horizontal: "right" as const,
      font_size: 20,
      margin_horizontal: 30,
      margin_vertical: 40,
      opacity: 50,
    };
    const { files } = await watermarkPdf.run([corpusInput("pdf/gotenberg-pages_12.pdf")], params, ctx);
    expectQpdfCheck(files[0]);
    const boxes = wordBoxes(dataOf(files[0]), "CONFIDENTIAL");
    expect(boxes.map((b) => b.page)).toEqual([1, 3]);
    // page 446.25 x 631.5 pt: right edge at 446.25 - 30, top edge 40 below the top (font box)
    expect(boxes[0].xMax).toBeCloseTo(446.25 - 30, 0);
    expect(boxes[0].yMin).toBeGreaterThanOrEqual(39);
    expect(boxes[0].yMin).toBeLessThan(46);
  });

  it("is upright and placed in the displayed frame of a /Rotate 90 page", async () => {
    const { files } = await watermarkPdf.run(
      [corpusInput("pdf/pdfjs-rotation.pdf")],
      { text: "DRAFT", position_vertical: "bottom", position_horizontal: "left" },
      ctx,
    );
    const [p1, p2] = wordBoxes(dataOf(files[0]), "DRAFT");
    expect(p1.xMin).toBeCloseTo(25, 0);
    expect(p1.yMax).toBeGreaterThan(792 - 25 - 2); // page 1: 612 x 792
    expect(p2.xMin).toBeCloseTo(25, 0);
    expect(p2.yMax).toBeGreaterThan(612 - 25 - 2); // page 2 displayed 792 x 612
    expect(p2.xMax - p2.xMin).toBeGreaterThan(p2.yMax - p2.yMin); // horizontal, not turned with the page
    expect(pdfinfo(files[0]).Title).toBe("Microsoft Word - Document1");
  });

  it("fits font_width_percent to the page width, with several lines", async () => {
    const { files } = await watermarkPdf.run(
      [corpusInput("pdf/cloudconvert-input.pdf")],
      {
        text: "TOP\nSECRET",
        font_width_percent: 50,
        font_name: "Times New Roman Bold",
        font_color: "#ff0000",
        pages: "2-",
      },
      ctx,
    );
    expectQpdfCheck(files[0]);
    expect(pdftotext(files[0])).toContain("SECRET");
    const boxes = wordBoxes(dataOf(files[0]), "SECRET");
    expect(boxes.map((b) => b.page)).toEqual(Array.from({ length: 30 }, (_, i) => i + 2));
    expect(boxes[0].xMax - boxes[0].xMin).toBeCloseTo(595 / 2, -1); // the widest line is half the page width
  });

  it("turns the text by rotation degrees, clockwise (pdftotext skips diagonal text, so 90 here)", async () => {
    const { files } = await watermarkPdf.run(
      [corpusInput("pdf/pdfjs-rotation.pdf")],
      { text: "VERTICAL", rotation: 90, pages: "1", position_horizontal: "right" },
      ctx,
    );
    const [box] = wordBoxes(dataOf(files[0]), "VERTICAL");
    expect(box.yMax - box.yMin).toBeGreaterThan(3 * (box.xMax - box.xMin));
    expect(box.xMax).toBeCloseTo(612 - 25, 0);
  });

  it("refuses characters the standard fonts cannot draw, and missing text/image at creation", async () => {
    await expectTaskError(
      () => watermarkPdf.run([corpusInput("pdf/pdfjs-rotation.pdf")], { text: "機密" }, ctx),
      "UNSUPPORTED",
    );
    expect(watermarkPdf.check!({})[0]).toMatch(/^text or image is required/);
    expect(watermarkPdf.check!({ text: "x", pages: "0" })[0]).toMatch(/^pages:/);
  });
});

describe("watermark (PDF, image)", () => {
  it("places the image task's PNG with a given width", async () => {
    const { files } = await watermarkPdf.run(
      [corpusInput("pdf/gotenberg-pages_12.pdf")],
      { image: "logo", image_width: 200, pages: "2", opacity: 40 },
      ctx,
    );
    expectQpdfCheck(files[0]);
    const list = execFileSync("pdfimages", ["-list", tmpFile(dataOf(files[0]))], { encoding: "utf8" });
    const rows: string[][] = list
      .split("\n")
      .slice(2)
      .filter(Boolean)
      .map((l: string) => l.trim().split(/\s+/));
    const logo = rows.filter((r) => r[3] === "1015" && r[4] === "668" && r[2] === "image");
    expect(logo.map((r) => r[0])).toEqual(["2"]);
  });

  it("needs the image task to have a file", async () => {
    await expectTaskError(
      () => watermarkPdf.run([corpusInput("pdf/pdfjs-rotation.pdf")], { image: "missing" }, ctx),
      "FILE_NOT_FOUND",
    );
  });
});

describe("watermark layer", () => {
  /** Mean value of a grey PNG region rendered by pdftoppm (pixels at 36 dpi). */
  function meanGray(data: Uint8Array, x: number, y: number, size: number): number {
    const ppm = execFileSync("pdftoppm", [
      "-r",
      "36",
      "-gray",
      "-f",
      "1",
      "-l",
      "1",
      "-x",
      String(x),
      "-y",
      String(y),
      "-W",
      String(size),
      "-H",
      String(size),
      tmpFile(data),
    ]);
    const px: Uint8Array = ppm.subarray(ppm.length - size * size);
    return px.reduce((s: number, v: number) => s + v, 0) / px.length;
  }

  it("above covers an opaque scan, below is hidden by it", async () => {
    const scan = "scans/ocrmypdf-c02-22.pdf"; // one opaque page image, 384 x 470.88 pt
    const p = { text: "XXXXXXXX", font_size: 60, font_color: "#000000", font_name: "Arial Bold" };
    const region = [60, 105, 25] as const; // 36 dpi pixels inside the centred text
    const base = meanGray(new Uint8Array(readFileSync(corpusPath(scan))), ...region);
    const above = await watermarkPdf.run([corpusInput(scan)], { ...p, layer: "above" }, ctx);
    const below = await watermarkPdf.run([corpusInput(scan)], { ...p, layer: "below" }, ctx);
    expectQpdfCheck(below.files[0]);
    expect(meanGray(dataOf(above.files[0]), ...region)).toBeLessThan(base - 30);
    expect(Math.abs(meanGray(dataOf(below.files[0]), ...region) - base)).toBeLessThan(2);
    expect(pdftotext(below.files[0])).toContain("XXXXXXXX");
  });
});
