/**
 * PDFium's facts: its budget defaults and identity. The request and result shapes are the PDF
 * kind's (kinds/pdf.ts `rasterize`); PDFium implements only that method.
 */
import type { PdfOps, RasterBudget } from "../kinds/pdf";

export type { RasterBudget, RasterFit, RasterPage, RasterRequest } from "../kinds/pdf";
export type { PageRange as RasterPageRange } from "../kinds/pdf-pages";

/**
 * PDFium's budget in the api Worker's 128 MB isolate (issue 49). Measured in Node (peak resident growth of one call in
 * a fresh process, warm instance; test/engines-heavy/isolate-memory.test.ts): a page costs ~19 bytes a pixel at worst
 * (a photo page whose PNG does not compress: the RGBA bitmap in WebAssembly memory, the filtered rows, the deflated
 * chunks and the PNG's copies), so 12 MP took +200 MB and 6 MP +105 MB; 4 MP (A4 at 200 dpi) takes ~+80 MB, which with
 * a 16 MiB input stays under ~100 MB. Larger pages and PDFs end OVER_BUDGET and go to the native rasterizers
 * (poppler's pdftocairo; the OCR pages at a lower dpi).
 */
export const DEFAULT_RASTER_BUDGET: RasterBudget = {
  maxBytes: 16 * 1024 * 1024,
  maxPages: 2000,
  // an A4 page at 200 dpi is 3.9 MP (at 300 dpi 8.7 MP, native); 4 MP is 16 MB of RGBA
  maxPagePixels: 4_000_000,
  // OCRmyPDF's hugemono.pdf declares 1225 MP
  maxImagePixels: 150_000_000,
  maxTotalPixels: 150_000_000,
};

/** Result of one rasterize call. */
export type RasterResult = Awaited<ReturnType<PdfOps["rasterize"]>>;

/** The PDFium engine: the PDF kind's `rasterize`. */
export type PdfiumEngine = Pick<PdfOps, "rasterize">;

/** Engine name and version (the @embedpdf/pdfium package version) reported on tasks. */
export const PDFIUM_ENGINE = { name: "pdfium", version: "2.15.1" } as const;
