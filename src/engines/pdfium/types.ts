/**
 * PDFium's facts: its budget defaults and identity. The request and result shapes are the PDF
 * kind's (kinds/pdf.ts `rasterize`); PDFium implements only that method.
 */
import type { PdfOps, RasterBudget } from "../kinds/pdf";

export type { RasterBudget, RasterFit, RasterPage, RasterRequest } from "../kinds/pdf";
export type { PageRange as RasterPageRange } from "../kinds/pdf-pages";

/**
 * PDFium's budget in the api Worker's 128 MB isolate (issue 49). Measured by test/engines-heavy/isolate-memory.test.ts from the isolate's own figures (V8's used heap + external memory: array buffers and WebAssembly memory; README "Large files"): the engine
 * holds ~40 MB idle (its instance's WebAssembly memory), and a page costs ~19 bytes a pixel at worst (a photo page whose
 * PNG does not compress: the RGBA bitmap, the filtered rows, the deflated chunks and the PNG's copies); with a 15 MB
 * input the isolate peaked at 130 MB for a 4 MP page, 101 MB at 2.4 MP, 98 MB at 2.2 MP (A4 or Letter at 150 dpi, the
 * default density) and with a 9 MB one 84 MB; so 12 MiB and 2.2 MP. Larger pages
 * and PDFs end OVER_BUDGET and go to the native rasterizer (poppler's pdftoppm, row poppler-raster:
 * container/engines/poppler-raster.ts; the OCR pages at a lower dpi).
 */
export const DEFAULT_RASTER_BUDGET: RasterBudget = {
  maxBytes: 12 * 1024 * 1024,
  maxPages: 2000,
  // an A4 page at 150 dpi is 2.17 MP (at 300 dpi 8.7 MP, native); 2.2 MP is 8.8 MB of RGBA
  maxPagePixels: 2_200_000,
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
