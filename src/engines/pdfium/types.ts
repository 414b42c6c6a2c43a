/**
 * The PDFium rasterizer seam: plain, structured-clone-serialisable data in and out, so
 * `ctx.engines.pdfium` may be the in-process engine (engine.ts) or an RPC stub to an engine Worker;
 * failures come back as data (`{ok: false, error}`), never as thrown classes (DESIGN.md principle 4).
 */
import type { TaskFailure } from "../errors";
import type { PdfBudget } from "../pdflib/budget";

/** How the page fits a requested box (contract §6 `fit`). */
export type RasterFit = "max" | "crop" | "scale";

/** One page range, 1-based, `to` null = to the last page (operations/pdf/pages.ts). */
export interface RasterPageRange {
  from: number;
  to: number | null;
}

/** Limits checked before any page is rendered (all in pixels). */
export interface RasterBudget extends PdfBudget {
  /** Largest output bitmap of one page (default 12 MP: an A4 page at 300 dpi is 8.7 MP; 48 MB of RGBA). */
  maxPagePixels: number;
  /** Largest sum of image pixels a page declares, decoded while rendering (default 150 MP; OCRmyPDF's hugemono.pdf declares 1225 MP). */
  maxImagePixels: number;
  /** Largest sum of output pixels over all pages of one call (default 150 MP). */
  maxTotalPixels: number;
}

export const DEFAULT_RASTER_BUDGET: RasterBudget = {
  maxBytes: 100 * 1024 * 1024,
  maxPages: 2000,
  maxPagePixels: 12_000_000,
  maxImagePixels: 150_000_000,
  maxTotalPixels: 150_000_000,
};

/** One rasterize call. Sizes in pixels; density in pixels per inch. */
export interface RasterRequest {
  input: Uint8Array;
  /** Input file name, for messages. */
  filename: string;
  /** Password (user or owner) of an encrypted PDF; absent = try the empty user password. */
  password?: string;
  /** Pages to render (absent = all), resolved against the page count: INVALID_PAGES when out of range. */
  pages?: RasterPageRange[];
  /** Render only the first N pages of the selection (thumbnail). */
  limit?: number;
  /** Pixels per inch (default 150, pdftoppm's default). */
  density?: number;
  width?: number;
  height?: number;
  /** max (default): inside width × height, never larger than at `density`; crop: fill and crop centred; scale: exactly width × height. */
  fit?: RasterFit;
  budget?: Partial<RasterBudget>;
}

/** One rendered page as PNG (RGB, or grey when the page has no colour). */
export interface RasterPage {
  /** 1-based page number. */
  page: number;
  width: number;
  height: number;
  png: Uint8Array;
}

export type RasterResult =
  | { ok: true; pages: RasterPage[]; pageCount: number; engineVersion: string; ms: number; wasmMemoryBytes: number }
  | { ok: false; error: TaskFailure; engineVersion: string };

/** What `ctx.engines.pdfium` holds. */
export interface PdfiumEngine {
  /** Renders pages to PNG. Never rejects for bad input: failures come back as `{ok: false}`. */
  rasterize(request: RasterRequest): Promise<RasterResult>;
}

/** Engine name and version (the @embedpdf/pdfium package version) reported on tasks. */
export const PDFIUM_ENGINE = { name: "pdfium", version: "2.15.1" } as const;
