/**
 * PDFium's facts: its budget defaults and identity. The request and result shapes are the PDF
 * kind's (kinds/pdf.ts `rasterize`); PDFium implements only that method.
 */
import type { PdfOps, RasterBudget } from "../kinds/pdf";

export type { RasterBudget, RasterFit, RasterPage, RasterRequest } from "../kinds/pdf";
export type { PageRange as RasterPageRange } from "../kinds/pdf-pages";

export const DEFAULT_RASTER_BUDGET: RasterBudget = {
  maxBytes: 100 * 1024 * 1024,
  maxPages: 2000,
  // an A4 page at 300 dpi is 8.7 MP; 12 MP is 48 MB of RGBA
  maxPagePixels: 12_000_000,
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
