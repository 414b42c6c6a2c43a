/** PDF → image with PDFium, against pdftoppm (poppler) as the oracle: dimensions and pixel difference. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { convertPdfToImage } from "../../src/operations/pdf/rasterize";
import { pdfThumbnail } from "../../src/operations/pdf/thumbnail";
import { nodePdfiumEngine } from "../../src/runtime/node/pdfium";
import { CORPUS, corpusInput, dataOf, expectTaskError, testContext, tmpFile } from "./pdf-helpers";

const ctx = testContext({ engines: { pdfium: nodePdfiumEngine() } });

/** Decodes any image to raw RGB with ImageMagick's `convert … ppm:-` (P6). */
function rgb(pathOrBytes: string | Uint8Array): { w: number; h: number; px: Uint8Array } {
  const path = typeof pathOrBytes === "string" ? pathOrBytes : tmpFile(pathOrBytes, "img");
  const ppm: Uint8Array = execFileSync("convert", [path, "-depth", "8", "ppm:-"], { maxBuffer: 1 << 28 });
  const header = new TextDecoder().decode(ppm.subarray(0, 40)).match(/^P6\s+(\d+)\s+(\d+)\s+255\s/)!;
  return { w: +header[1], h: +header[2], px: ppm.subarray(header[0].length) };
}

/** pdftoppm's rendering of one page at `dpi`, as raw RGB. */
function poppler(rel: string, page: number, dpi: number) {
  const ppm = execFileSync("pdftoppm", ["-r", String(dpi), "-f", String(page), "-l", String(page), "-singlefile", `${CORPUS}/${rel}`], { maxBuffer: 1 << 28 });
  return rgb(tmpFile(new Uint8Array(ppm), "ppm"));
}

/** Mean absolute difference per channel (0–255) and share of pixels off by more than 64 in some channel. */
function diff(a: Uint8Array, b: Uint8Array): { mean: number; off: number } {
  let sum = 0;
  let off = 0;
  for (let i = 0; i < a.length; i += 3) {
    const d = Math.max(Math.abs(a[i] - b[i]), Math.abs(a[i + 1] - b[i + 1]), Math.abs(a[i + 2] - b[i + 2]));
    sum += Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]);
    if (d > 64) off++;
  }
  return { mean: sum / a.length, off: off / (a.length / 3) };
}

describe("convert pdf → png (PDFium)", () => {
  it.each([
    ["pdf/pdfjs-tracemonkey.pdf", 1, 150],
    ["pdf/cloudconvert-input.pdf", 2, 150],
    ["pdf/gotenberg-pages_12.pdf", 3, 100],
    ["pdf/pdfjs-rotation.pdf", 2, 150], // /Rotate 90: landscape output
    ["pdf/pdfjs-annotation-text-widget.pdf", 1, 72], // form widgets
  ])("%s page %i at %i ppi matches pdftoppm in size and pixels", async (rel, page, dpi) => {
    const { files, engine } = await convertPdfToImage.run([corpusInput(rel)], { output_format: "png", pages: String(page), pixel_density: dpi }, ctx);
    expect(engine?.name).toBe("pdfium");
    expect(files).toHaveLength(1);
    const ours = rgb(dataOf(files[0]));
    const ref = poppler(rel, page, dpi);
    expect([ours.w, ours.h]).toEqual([ref.w, ref.h]);
    // Measured: 0.01–0.2 on vector pages, up to 5.9 mean / 2.9 % on text-dense pages (glyph
    // anti-aliasing differs between PDFium and poppler's Splash); a wrong page or scale is > 20.
    const d = diff(ours.px, ref.px);
    expect(d.mean, JSON.stringify(d)).toBeLessThan(8);
    expect(d.off, JSON.stringify(d)).toBeLessThan(0.04);
  });

  it("writes one PNG per page named by page number, at 150 ppi by default", async () => {
    const { files } = await convertPdfToImage.run([corpusInput("pdf/gotenberg-pages_12.pdf")], { output_format: "png", pages: "2,11-" }, ctx);
    expect(files.map((f) => f.filename)).toEqual(["gotenberg-pages_12-2.png", "gotenberg-pages_12-11.png", "gotenberg-pages_12-12.png"]);
    expect([rgb(dataOf(files[0])).w, rgb(dataOf(files[0])).h]).toEqual([930, 1316]); // 446.25 x 631.5 pt at 150 ppi, rounded up
    expect(execFileSync("identify", ["-format", "%x", tmpFile(dataOf(files[0]), "png")], { encoding: "utf8" })).toMatch(/^(150|59\.0\d)/);
  });

  it("names a one-page PDF's image after the PDF", async () => {
    const { files } = await convertPdfToImage.run([corpusInput("pdf/pdfjs-attachment.pdf")], { output_format: "png" }, ctx);
    expect(files.map((f) => f.filename)).toEqual(["pdfjs-attachment.png"]);
  });

  it.each([
    [{ width: 300 }, [300, 388]],
    [{ width: 300, height: 300 }, [232, 300]],
    [{ width: 5000 }, [1275, 1650]], // max never exceeds the page at pixel_density (150)
    [{ width: 200, height: 200, fit: "crop" as const }, [200, 200]],
    [{ width: 300, height: 100, fit: "scale" as const }, [300, 100]],
  ])("fits %j → %j", async (p, size) => {
    const { files } = await convertPdfToImage.run([corpusInput("pdf/pdfjs-rotation.pdf")], { output_format: "png", pages: "1", ...p }, ctx);
    const img = rgb(dataOf(files[0]));
    expect([img.w, img.h]).toEqual(size);
  });

  it("errors: out-of-range pages, encrypted without password, no engine", async () => {
    const pages = await expectTaskError(() => convertPdfToImage.run([corpusInput("pdf/pdfjs-rotation.pdf")], { output_format: "png", pages: "3" }, ctx), "INVALID_PAGES");
    expect(pages.message).toBe("pages: page 3 does not exist; pdfjs-rotation.pdf has 2 pages.");
    await expectTaskError(() => convertPdfToImage.run([corpusInput("pdf-encrypted/qpdf-enc-R3-V2-U_view-O_master.pdf")], { output_format: "png" }, ctx), "INVALID_PASSWORD");
    await expectTaskError(() => convertPdfToImage.run([corpusInput("pdf/pdfjs-rotation.pdf")], { output_format: "png" }, testContext()), "ENGINE_UNAVAILABLE");
    await expectTaskError(() => convertPdfToImage.run([corpusInput("pdf/pdfjs-rotation.pdf")], { output_format: "jpg" }, ctx), "ENGINE_UNAVAILABLE");
  });

  it("opens encrypted PDFs with an empty user password", async () => {
    const { files } = await convertPdfToImage.run([corpusInput("pdf-encrypted/tika-testPDF_protected.pdf")], { output_format: "png", pages: "1", pixel_density: 50 }, ctx);
    expect(rgb(dataOf(files[0])).w).toBe(Math.ceil((595 * 50) / 72));
  });
});

describe("thumbnail of a PDF", () => {
  it("draws the first page inside the box, at most 72 ppi", async () => {
    const { files } = await pdfThumbnail.run([corpusInput("pdf/pdfjs-tracemonkey.pdf")], { output_format: "png", width: 200 }, ctx);
    expect(files.map((f) => f.filename)).toEqual(["pdfjs-tracemonkey.png"]);
    const img = rgb(dataOf(files[0]));
    expect([img.w, img.h]).toEqual([200, 259]);
    const full = await pdfThumbnail.run([corpusInput("pdf/pdfjs-tracemonkey.pdf")], { output_format: "png" }, ctx);
    expect(rgb(dataOf(full.files[0])).w).toBe(612);
  });

  it("count and pages select several pages, named by page", async () => {
    const { files } = await pdfThumbnail.run([corpusInput("pdf/gotenberg-pages_12.pdf")], { output_format: "png", pages: "4-", count: 2, width: 100, height: 100, fit: "crop" }, ctx);
    expect(files.map((f) => f.filename)).toEqual(["gotenberg-pages_12-4.png", "gotenberg-pages_12-5.png"]);
    expect(readFileSync(tmpFile(dataOf(files[1]), "png")).subarray(1, 4).toString()).toBe("PNG");
  });
});

describe("convert pdf → jpg/webp (PDFium + ImageMagick)", () => {
  it.each(["jpg", "webp"] as const)("%s: PDFium renders, ImageMagick encodes with quality", async (format) => {
    const { nodeImageMagickEngine } = await import("../../src/runtime/node/imagemagick");
    const both = testContext({ engines: { pdfium: nodePdfiumEngine(), imagemagick: nodeImageMagickEngine() } });
    const { files } = await convertPdfToImage.run([corpusInput("pdf/pdfjs-rotation.pdf")], { output_format: format, pixel_density: 72, quality: 80 }, both);
    expect(files.map((f) => [f.filename, f.contentType])).toEqual([
      [`pdfjs-rotation-1.${format}`, format === "jpg" ? "image/jpeg" : "image/webp"],
      [`pdfjs-rotation-2.${format}`, format === "jpg" ? "image/jpeg" : "image/webp"],
    ]);
    const img = rgb(dataOf(files[1]));
    expect([img.w, img.h]).toEqual([792, 612]);
  });
});
