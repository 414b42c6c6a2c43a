/**
 * The PDFium rasterizer (engine name "pdfium"): PDF pages → PNG, in workerd, Node and browsers.
 * Chosen over mupdf (AGPL-3.0) because PDFium is Apache-2.0/BSD and its wrapper MIT, compatible
 * with this project's Apache-2.0 license; quality is Chrome's PDF viewer's.
 */
export { createPdfiumEngine, type PdfiumEngineOptions } from "./engine";
export { instantiatePdfium, type PdfiumWasmSource } from "./instance";
export { rasterSize, DEFAULT_DENSITY } from "./size";
export {
  DEFAULT_RASTER_BUDGET,
  PDFIUM_ENGINE,
  type PdfiumEngine,
  type RasterBudget,
  type RasterFit,
  type RasterPage,
  type RasterPageRange,
  type RasterRequest,
  type RasterResult,
} from "./types";
