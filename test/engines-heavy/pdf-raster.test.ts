/**
 * PDF → image with PDFium, against pdftoppm (poppler) as the oracle: dimensions and the ink of the
 * page (matches(), which is shown to reject a white image and the neighbouring page; issue 11).
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { convertPdfToImage } from "../../src/operations/pdf/rasterize";
import { pdfThumbnail } from "../../src/operations/pdf/thumbnail";
import { nodePdfiumEngine } from "../../src/runtime/node/pdfium";
import { CORPUS, corpusInput, dataOf, expectTaskError, pngSize, testContext, tmpFile } from "../support/pdf-helpers";
import { MAX_MISSING, matches, type Raster } from "../support/raster-oracle";

const ctx = testContext({ engines: { pdfium: nodePdfiumEngine() } });

/** Decodes any image to raw RGB with ImageMagick's `convert … ppm:-` (P6). */
function rgb(pathOrBytes: string | Uint8Array): Raster {
  const path = typeof pathOrBytes === "string" ? pathOrBytes : tmpFile(pathOrBytes, "img");
  const ppm: Uint8Array = execFileSync("convert", [path, "-depth", "8", "ppm:-"], { maxBuffer: 1 << 28 });
  const header = new TextDecoder().decode(ppm.subarray(0, 40)).match(/^P6\s+(\d+)\s+(\d+)\s+255\s/)!;
  return { w: +header[1], h: +header[2], px: ppm.subarray(header[0].length) };
}

/** pdftoppm's rendering of one page at `dpi` (of a corpus file, or of a PDF at an absolute path), as raw RGB. */
function poppler(rel: string, page: number, dpi: number): Raster {
  const path = rel.startsWith("/") ? rel : `${CORPUS}/${rel}`;
  const ppm = execFileSync(
    "pdftoppm",
    ["-r", String(dpi), "-f", String(page), "-l", String(page), "-singlefile", path],
    { maxBuffer: 1 << 28 },
  );
  return rgb(tmpFile(new Uint8Array(ppm), "ppm"));
}

/** A pure white image of `like`'s size. */
function white(like: Raster): Raster {
  return { w: like.w, h: like.h, px: new Uint8Array(like.px.length).fill(255) };
}

// Thresholds of matches(), measured with pdftoppm 22.12 and this PDFium on the five cases below
// (extra / missing):
//   PDFium's output:            extra 0.001–0.013, missing 0.021–0.038 (widget case: 0.031 / 0.083,
//                               was 0.555 missing before the form-fill layer drew widget appearances)
//   pure white, same size:      extra 0,           missing 1.000
//   neighbouring page, same size: extra 0.714–1.000, missing 0.648–1.000
//   (tracemonkey p2 for p1 0.714/0.648; cloudconvert p3 for p2 0.796/0.754; pages_12 p4 for p3
//   0.821/0.800; rotation p1 turned landscape for p2 1.000/1.000; js-buttons for the widget page
//   0.880/0.980)
// (the comparison — inkDiff, matches() and these bounds — lives in test/support/raster-oracle.ts)

describe("convert pdf → png (PDFium)", () => {
  /** A page of the same size as `rel` page `page` that is not that page: the next one, or another document's. */
  const neighbour = {
    tracemonkey: () => poppler("pdf/pdfjs-tracemonkey.pdf", 2, 150),
    cloudconvert: () => poppler("pdf/cloudconvert-input.pdf", 3, 150),
    pages12: () => poppler("pdf/gotenberg-pages_12.pdf", 4, 100),
    // page 1 is portrait: turned by a quarter like page 2 so that only the pixels can tell them apart
    rotation: () =>
      poppler(
        tmpFile(
          new Uint8Array(execFileSync("qpdf", [`${CORPUS}/pdf/pdfjs-rotation.pdf`, "--rotate=+90:1", "--", "-"])),
        ),
        1,
        150,
      ),
    widgets: () => poppler("pdf/pdfjs-js-buttons.pdf", 1, 72), // one-page document: another 612x792 pt form page
  };

  it.each([
    ["pdf/pdfjs-tracemonkey.pdf", 1, 150, neighbour.tracemonkey, MAX_MISSING],
    ["pdf/cloudconvert-input.pdf", 2, 150, neighbour.cloudconvert, MAX_MISSING],
    ["pdf/gotenberg-pages_12.pdf", 3, 100, neighbour.pages12, MAX_MISSING], // "Page 3": one glyph away from page 4
    ["pdf/pdfjs-rotation.pdf", 2, 150, neighbour.rotation, MAX_MISSING], // /Rotate 90: landscape output
    // Form widgets: the seven field values are drawn by PDFium's form-fill layer (FPDF_FFLDraw);
    // without it they were absent (missing 0.555, within 0.008/0.098 of `pdftoppm -hide-annotations`).
    ["pdf/pdfjs-annotation-text-widget.pdf", 1, 72, neighbour.widgets, MAX_MISSING],
  ])(
    "%s page %i at %i ppi matches pdftoppm; white and the neighbouring page do not",
    async (rel, page, dpi, other, maxMissing) => {
      const { files, engine } = await convertPdfToImage.run(
        [corpusInput(rel)],
        { output_format: "png", pages: String(page), pixel_density: dpi },
        ctx,
      );
      expect(engine?.name).toBe("pdfium");
      expect(files).toHaveLength(1);
      const ours = rgb(dataOf(files[0]));
      const ref = poppler(rel, page, dpi);
      expect([ours.w, ours.h]).toEqual([ref.w, ref.h]);
      const real = matches(ours, ref, maxMissing);
      expect(real.ok, `PDFium: ${real.why}`).toBe(true);
      // the oracle bites: a blank page of the right size, and a wrong page of the right size, fail it
      const blank = matches(white(ref), ref, maxMissing);
      expect(blank.ok, `white: ${blank.why}`).toBe(false);
      const wrong = other();
      expect([wrong.w, wrong.h], "the neighbour has the same size, so only its pixels can reject it").toEqual([
        ref.w,
        ref.h,
      ]);
      const near = matches(wrong, ref, maxMissing);
      expect(near.ok, `neighbouring page: ${near.why}`).toBe(false);
    },
  );

  it("writes one PNG per page named by page number, at 150 ppi by default", async () => {
    const { files } = await convertPdfToImage.run(
      [corpusInput("pdf/gotenberg-pages_12.pdf")],
      { output_format: "png", pages: "2,11-" },
      ctx,
    );
    expect(files.map((f) => f.filename)).toEqual([
      "gotenberg-pages_12-2.png",
      "gotenberg-pages_12-11.png",
      "gotenberg-pages_12-12.png",
    ]);
    expect([rgb(dataOf(files[0])).w, rgb(dataOf(files[0])).h]).toEqual([930, 1316]); // 446.25 x 631.5 pt at 150 ppi, rounded up
    expect(execFileSync("identify", ["-format", "%x", tmpFile(dataOf(files[0]), "png")], { encoding: "utf8" })).toMatch(
      /^(150|59\.0\d)/,
    );
  });

  it("names a one-page PDF's image after the PDF", async () => {
    const { files } = await convertPdfToImage.run(
      [corpusInput("pdf/pdfjs-attachment.pdf")],
      { output_format: "png" },
      ctx,
    );
    expect(files.map((f) => f.filename)).toEqual(["pdfjs-attachment.png"]);
  });

  it.each([
    [{ width: 300 }, [300, 388]],
    [{ width: 300, height: 300 }, [232, 300]],
    [{ width: 5000 }, [1275, 1650]], // max never exceeds the page at pixel_density (150)
    [{ width: 200, height: 200, fit: "crop" as const }, [200, 200]],
    [{ width: 300, height: 100, fit: "scale" as const }, [300, 100]],
  ])("fits %j → %j", async (p, size) => {
    const { files } = await convertPdfToImage.run(
      [corpusInput("pdf/pdfjs-rotation.pdf")],
      { output_format: "png", pages: "1", ...p },
      ctx,
    );
    const img = rgb(dataOf(files[0]));
    expect([img.w, img.h]).toEqual(size);
  });

  it("errors: out-of-range pages, encrypted without password, no engine", async () => {
    const pages = await expectTaskError(
      () => convertPdfToImage.run([corpusInput("pdf/pdfjs-rotation.pdf")], { output_format: "png", pages: "3" }, ctx),
      "INVALID_PAGES",
    );
    expect(pages.message).toBe("pages: page 3 does not exist; pdfjs-rotation.pdf has 2 pages.");
    await expectTaskError(
      () =>
        convertPdfToImage.run(
          [corpusInput("pdf-encrypted/qpdf-enc-R3-V2-U_view-O_master.pdf")],
          { output_format: "png" },
          ctx,
        ),
      "INVALID_PASSWORD",
    );
    await expectTaskError(
      () => convertPdfToImage.run([corpusInput("pdf/pdfjs-rotation.pdf")], { output_format: "png" }, testContext()),
      "ENGINE_UNAVAILABLE",
    );
    await expectTaskError(
      () => convertPdfToImage.run([corpusInput("pdf/pdfjs-rotation.pdf")], { output_format: "jpg" }, ctx),
      "ENGINE_UNAVAILABLE",
    );
  });

  it("opens encrypted PDFs with an empty user password", async () => {
    const { files } = await convertPdfToImage.run(
      [corpusInput("pdf-encrypted/tika-testPDF_protected.pdf")],
      { output_format: "png", pages: "1", pixel_density: 50 },
      ctx,
    );
    expect(rgb(dataOf(files[0])).w).toBe(Math.ceil((595 * 50) / 72));
  });
});

describe("thumbnail of a PDF", () => {
  it("draws the first page inside the box, at most 72 ppi", async () => {
    const { files } = await pdfThumbnail.run(
      [corpusInput("pdf/pdfjs-tracemonkey.pdf")],
      { output_format: "png", width: 200 },
      ctx,
    );
    expect(files.map((f) => f.filename)).toEqual(["pdfjs-tracemonkey.png"]);
    const img = rgb(dataOf(files[0]));
    expect([img.w, img.h]).toEqual([200, 259]);
    const full = await pdfThumbnail.run([corpusInput("pdf/pdfjs-tracemonkey.pdf")], { output_format: "png" }, ctx);
    expect(rgb(dataOf(full.files[0])).w).toBe(612);
  });

  it("count and pages select several pages, named by page", async () => {
    const { files } = await pdfThumbnail.run(
      [corpusInput("pdf/gotenberg-pages_12.pdf")],
      { output_format: "png", pages: "4-", count: 2, width: 100, height: 100, fit: "crop" },
      ctx,
    );
    expect(files.map((f) => f.filename)).toEqual(["gotenberg-pages_12-4.png", "gotenberg-pages_12-5.png"]);
    for (const f of files) expect(pngSize(dataOf(f)), f.filename).toEqual({ width: 100, height: 100 }); // crop fills the box exactly
  });
});

describe("convert pdf → jpg/webp (PDFium + ImageMagick)", () => {
  it.each(["jpg", "webp"] as const)("%s: PDFium renders, ImageMagick encodes with quality", async (format) => {
    const { nodeImageMagickEngine } = await import("../../src/runtime/node/imagemagick");
    const both = testContext({ engines: { pdfium: nodePdfiumEngine(), imagemagick: nodeImageMagickEngine() } });
    const { files } = await convertPdfToImage.run(
      [corpusInput("pdf/pdfjs-rotation.pdf")],
      { output_format: format, pixel_density: 72, quality: 80 },
      both,
    );
    expect(files.map((f) => [f.filename, f.contentType])).toEqual([
      [`pdfjs-rotation-1.${format}`, format === "jpg" ? "image/jpeg" : "image/webp"],
      [`pdfjs-rotation-2.${format}`, format === "jpg" ? "image/jpeg" : "image/webp"],
    ]);
    const img = rgb(dataOf(files[1]));
    expect([img.w, img.h]).toEqual([792, 612]);
  });
});
