/** The PDF registry rows: shape, engine versions, and creation-time (422) checks through validateTaskParams. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PDFIUM_ENGINE } from "../../src/engines/pdfium";
import { PDFLIB_ENGINE } from "../../src/engines/pdflib";
import { enginesFor } from "../../src/engines/routing";
import { PDF_HANDLERS } from "../../src/operations/pdf";
import { shapeOf, validateTaskParams } from "../../src/operations/validate";

const version = (pkg: string) => JSON.parse(readFileSync(`node_modules/${pkg}/package.json`, "utf8")).version;
const rows = (operation: string) => PDF_HANDLERS.filter((h) => h.operation === operation);

describe("PDF registry rows", () => {
  it("report the installed engine versions", () => {
    expect(PDFLIB_ENGINE.version).toBe(version("@cantoo/pdf-lib"));
    expect(PDFIUM_ENGINE.version).toBe(version("@embedpdf/pdfium"));
  });

  it("cover the operations of issue 4 with object schemas and formats", () => {
    // a handler restricted to one placement (issue 49's native OCR) runs only on rows of it (operations/registry.ts)
    const engineOf = (h: (typeof PDF_HANDLERS)[number]) =>
      enginesFor({
        kind: h.kind,
        operation: h.operation,
        input: h.formats[0]!.input,
        output: h.formats[0]!.output,
      }).filter((e) => !h.placement || e.placement === h.placement)[0]!.name;
    expect(PDF_HANDLERS.map((h) => `${h.operation}:${engineOf(h)}`)).toEqual([
      "merge:pdflib",
      "pdf/split-pages:pdflib",
      "pdf/extract-pages:pdflib",
      "pdf/rotate-pages:pdflib",
      "pdf/encrypt:pdflib",
      "pdf/decrypt:pdflib",
      "watermark:pdflib",
      "convert:pdfium",
      "thumbnail:pdfium",
      // pdf → pdf, a re-save (issue 31)
      "convert:pdflib",
      // Ghostscript in the native engine (issue 12)
      "pdf/a:ghostscript",
      "pdf/x:ghostscript",
      "optimize:ghostscript",
      // tesseract (issue 17)
      "pdf/ocr:tesseract",
      // the whole PDF on the native OCRmyPDF, when the page-by-page OCR cannot hold it (issue 49)
      "pdf/ocr:ocrmypdf",
      // image → pdf, searchable with ocr (issue 17)
      "convert:pdflib",
      "convert:tesseract",
      // a TIFF scan over pdf-lib's budget → pdf, streamed (issue 49)
      "convert:libtiff",
    ]);
    for (const h of PDF_HANDLERS) {
      expect(h.formats.length).toBeGreaterThan(0);
      expect(h.takesInput).toBe(true);
      expect(h.credits).toBeGreaterThanOrEqual(1);
      expect(typeof shapeOf(h.params)).toBe("object");
    }
    // bmp, gif, tiff, ico, psd: issue 32 (re-encoded from PDFium's PNG by the image engine)
    expect(rows("convert")[0].formats).toEqual(
      ["png", "jpg", "webp", "bmp", "gif", "tiff", "ico", "psd"].map((output) => ({ input: "pdf", output })),
    );
  });

  it.each([
    ["pdf/rotate-pages", { rotation: "45" }, /^rotation: must be a multiple of 90/],
    ["pdf/rotate-pages", { rotation: "90", pages: "1-x" }, /^pages: "1-x" is not a page or a range/],
    ["pdf/extract-pages", {}, /^pages: /],
    ["pdf/extract-pages", { pages: "3-1" }, /^pages: "3-1": a range goes from the lower page/],
    ["pdf/encrypt", { set_password: "x", allow_print: "high" }, /^allow_print: /],
    ["watermark", { input_format: "pdf", layer: "above" }, /^text or image is required/],
    ["convert", { input_format: "pdf", output_format: "png", pixel_density: 0 }, /^pixel_density: /],
    ["convert", { input_format: "pdf", output_format: "docx" }, /not supported by this server/],
  ])("%s %j is refused at creation", (operation, raw, message) => {
    const res = validateTaskParams(rows(operation), raw);
    expect("errors" in res && res.errors[0]).toMatch(message);
  });

  it("accepts and normalises valid parameters", () => {
    expect(validateTaskParams(rows("pdf/rotate-pages"), { rotation: "-90", pages: "1,3-" })).toEqual({
      params: { rotation: "-90", pages: "1,3-" },
    });
    expect(validateTaskParams(rows("pdf/encrypt"), { set_password: "x", allow_extract: "false" })).toEqual({
      params: { set_password: "x", allow_extract: false },
    });
    expect(
      validateTaskParams(rows("convert"), {
        input_format: "pdf",
        output_format: "jpg",
        pixel_density: 300,
        quality: 80,
        pages: "1",
      }),
    ).toMatchObject({ params: { pixel_density: 300 } });
  });
});
