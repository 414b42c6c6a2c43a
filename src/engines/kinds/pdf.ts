/**
 * The pdf kind (kinds/index.ts): one interface sized to the PDF operations (merge, split, extract, rotate,
 * encrypt, decrypt, watermark, rasterize; later pdf/a, pdf/x, optimize), like Gotenberg's
 * `PdfEngine`. An engine implements the methods it can do; a missing method is its "unsupported"
 * answer, and routing hands the task to the next engine (engines/routing.ts). pdf-lib (engines/pdflib)
 * implements the page, crypt and watermark methods; PDFium (engines/pdfium) implements rasterize;
 * Ghostscript and qpdf in the native engine slot in behind the same methods.
 *
 * Bytes in, bytes out, failures as data ({@link EngineResult}): the same shapes cross a service
 * binding or the native engine's HTTP seam unchanged.
 */
import type { EngineResult } from "../errors";
import type { WatermarkOptions } from "../../../native-protocol/image";
import type { PageRange } from "./pdf-pages";
import type {
  PdfInput,
  PdfOcrReport,
  PdfOcrRequest,
  PdfPageFrame,
  PdfPermissions,
  PdfStamp,
  PdfStreamableInput,
} from "../../../native-protocol/pdf";
import type { StreamedBytes } from "../../../native-protocol/frame";

/**
 * What page operations report they could not keep of their inputs' document structure (issue 16):
 * kind → count, e.g. `{links: 2, xfa: 1}` (the kinds: pdflib/structure.ts), summed over the
 * outputs of a task and shown in its result as `dropped`.
 */
export type DroppedStructure = Record<string, number>;

/** Adds the counts of `more` into `into` (absent = nothing); mutates `into`. */
export function addDropped(into: DroppedStructure, more: DroppedStructure | undefined): void {
  for (const [k, n] of Object.entries(more ?? {})) into[k] = (into[k] ?? 0) + n;
}

/** One input document (native-protocol/pdf.ts: the native engine takes the same shape). */
export type { PdfInput, PdfPageFrame, PdfPermissions, PdfStamp, PdfStreamableInput };
/** pdf/ocr of a whole PDF and what was done (native-protocol/pdf.ts: the native OCRmyPDF's request and report). */
export type { PdfOcrReport, PdfOcrRequest };

/**
 * A page operation's document (issue 49): bytes, or from the native qpdf, when its input was streamed, a stream of
 * its answer's file (client.ts: parts over the stream threshold come back as StreamedBytes).
 */
export type PdfData = Uint8Array | StreamedBytes;

/**
 * The answer of a page operation that streams (merge, extract, rotate, encrypt, decrypt, watermark); `warnings`: what
 * the engine accepted but did not honour (the compatibility rule: reported in result.warnings).
 */
export type PdfPagesOut = EngineResult<{ data: PdfData; dropped?: DroppedStructure; warnings?: string[] }>;

/**
 * A watermark on PDF pages (contract §6 "watermark"). Units: points (1/72 in) for font_size,
 * margins and image sizes; % of the displayed page width for *_percent; degrees clockwise for
 * rotation; opacity 0–100. Defaults: above, centre/centre, margins 25 pt, 40 pt black Helvetica.
 * The same options as on images (one watermark schema, operations/watermark-params.ts), plus pages.
 */
export interface PdfWatermark extends WatermarkOptions {
  /** Page list (pdf-pages.ts notation); absent = every page. */
  pages?: string;
}

/** How a rendered page fits a requested box (contract §6 `fit`). */
export type RasterFit = "max" | "crop" | "scale";

/** Limits of one input PDF. */
export interface PdfBudget {
  /** Largest input file in bytes. */
  maxBytes: number;
  /** Largest page count. */
  maxPages: number;
}

/** Limits checked before any page is rendered (all in pixels). */
export interface RasterBudget extends PdfBudget {
  /** Largest output bitmap of one page. */
  maxPagePixels: number;
  /** Largest sum of image pixels a page declares, decoded while rendering. */
  maxImagePixels: number;
  /** Largest sum of output pixels over all pages of one call. */
  maxTotalPixels: number;
}

/** One rasterize call. Sizes in pixels; density in pixels per inch. */
export interface RasterRequest {
  /**
   * The PDF: bytes, or for the native pdftoppm (issue 49: a PDF over PDFium's 12 MiB, over 64 MiB) a stream of known
   * length that reaches it as a file; PDFium answers OVER_BUDGET to a stream.
   */
  input: Uint8Array | StreamedBytes;
  /** Input file name, for messages. */
  filename: string;
  /** Password (user or owner) of an encrypted PDF; absent = try the empty user password. */
  password?: string;
  /** Pages to render (absent = all), resolved against the page count: INVALID_PAGES when out of range. */
  pages?: PageRange[];
  /** Render only the first N pages of the selection (thumbnail). */
  limit?: number;
  /** Pixels per inch (default 150, pdftoppm's default). */
  density?: number;
  width?: number;
  height?: number;
  /** max (default): inside width × height, never larger than at `density`; crop: fill and crop centred; scale: exactly width × height. */
  fit?: RasterFit;
  /**
   * When neither `density`, `width` nor `height` is asked: a page the default density would draw over the page-pixel
   * budget is drawn at the density that fits it (issue 49; its page's `fittedDensity` says so) instead of ending
   * OVER_BUDGET. For callers with no engine to hand the page to (office → images, whose PDF has just been made).
   */
  fitPageBudget?: boolean;
  budget?: Partial<RasterBudget>;
}

/** One rendered page as PNG (RGB, or grey when the page has no colour). */
export interface RasterPage {
  /** 1-based page number. */
  page: number;
  width: number;
  height: number;
  /** The PNG: bytes, or from the native pdftoppm, when its input was streamed, a stream of its file (issue 49). */
  png: Uint8Array | StreamedBytes;
  /** The pixels per inch the page was drawn at when lowered to fit the page budget (`fitPageBudget`). */
  fittedDensity?: number;
}

/** One output document; `dropped` from page operations that rebuild documents (merge, extract). */
export type PdfOut = EngineResult<{ data: Uint8Array; dropped?: DroppedStructure }>;

/** Every PDF method; an engine implements a subset ({@link PdfEngine}). */
export interface PdfOps {
  /**
   * One PDF of every input's pages in order; JPEG and PNG inputs (sniffed) become one page each. Document info of the
   * first PDF is kept. Inputs may be streams for the native qpdf (issue 49), which then answers a stream when large.
   */
  merge(req: { inputs: PdfStreamableInput[]; filename: string }): Promise<PdfPagesOut>;
  /** One PDF per page, each with the document info and its page's structure; `dropped` sums the parts. */
  split(req: { input: PdfStreamableInput }): Promise<EngineResult<{ parts: PdfData[]; dropped?: DroppedStructure }>>;
  /** A PDF of the pages of `pages`, in the order given. INVALID_PAGES for a page that does not exist. */
  extract(req: { input: PdfStreamableInput; pages: string }): Promise<PdfPagesOut>;
  /** Turns the pages of `pages` (all when absent) clockwise by `rotation` degrees (0, 90, 180, 270) relative to their /Rotate. */
  rotate(req: { input: PdfStreamableInput; rotation: number; pages?: string }): Promise<PdfPagesOut>;
  /** AES-256 encryption (ISO 32000-2 revision 6). */
  encrypt(req: {
    input: PdfStreamableInput;
    userPassword: string;
    ownerPassword: string;
    permissions: PdfPermissions;
  }): Promise<PdfPagesOut>;
  /** Removes the encryption (the input's `password` opens it). */
  decrypt(req: { input: PdfStreamableInput }): Promise<PdfPagesOut>;
  /**
   * Draws a text and/or image (JPEG/PNG bytes) watermark (pdf-lib), or lays a watermark already drawn on the pages
   * (`stamp`, from {@link PdfOps.stamp}: the native qpdf's overlay, issue 49, which takes the input as a stream).
   */
  watermark(req: {
    input: PdfStreamableInput;
    mark: PdfWatermark;
    image?: { data: Uint8Array; filename: string };
    stamp?: PdfStamp;
  }): Promise<PdfPagesOut>;
  /** Each page's displayed frame (points, after /Rotate, in the box a stamp is laid in), in order; the input may be a stream. */
  pageFrames(req: { input: PdfStreamableInput }): Promise<EngineResult<{ pages: PdfPageFrame[] }>>;
  /**
   * The watermark `mark` drawn alone on blank pages, one per frame of `frames` (page k: frames[k - 1]), as a small PDF:
   * what {@link PdfOps.watermark}'s `stamp` lays on the pages of a document too large to open here (issue 49).
   */
  stamp(req: {
    frames: { width: number; height: number }[];
    mark: PdfWatermark;
    image?: { data: Uint8Array; filename: string };
  }): Promise<PdfOut>;
  /**
   * PDF/A (ISO 19005) of conformance level B, part 1, 2 or 3: pdfaid XMP, fonts embedded, an sRGB
   * output intent; with `invoice` (3b only) a ZUGFeRD / Factur-X XML attached as factur-x.xml. The input may be a
   * stream for the native Ghostscript (issue 49), which then answers a stream when large.
   */
  pdfa(req: {
    input: PdfStreamableInput;
    conformance: "1b" | "2b" | "3b";
    invoice?: { data: Uint8Array; filename: string };
  }): Promise<PdfPagesOut>;
  /**
   * PDF/X (ISO 15930) variant 1a, 3 or 4: CMYK content, GTS_PDFXVersion, a CMYK output intent. Like pdfa, the input
   * may be a stream for the native Ghostscript (issue 49), which then answers a stream when large.
   */
  pdfx(req: { input: PdfStreamableInput; variant: "1a" | "3" | "4" }): Promise<PdfPagesOut>;
  /**
   * Re-writes the PDF smaller by `profile`; `unchanged` when the result would not be smaller (the input comes back). Sizes in bytes.
   * `flattenSignatures`: signature fields (and every other annotation) are first drawn into the page content and removed,
   * so the signatures' appearance survives the rewrite that invalidates them (what comes back "unchanged" is that flattened copy).
   * The input may be a stream for the native Ghostscript (issue 49), which then answers a stream when large.
   */
  optimize(req: {
    input: PdfStreamableInput;
    profile: PdfOptimizeProfile;
    flattenSignatures?: boolean;
  }): Promise<EngineResult<{ data: PdfData; sizeBefore: number; sizeAfter: number; unchanged: boolean }>>;
  /**
   * pdf/ocr of the whole document (issue 49: the native OCRmyPDF, for PDFs over pdf-lib's budget and pages over
   * PDFium's): the input may be a stream, the searchable PDF comes back as one when large; `report` says which pages
   * were recognised and which left alone, and why.
   */
  ocr(req: PdfOcrRequest): Promise<EngineResult<{ data: PdfData; report: PdfOcrReport }>>;
  /** Page sizes as displayed (points, after /Rotate and the crop box) and whether each page names a font (carries text). */
  pageInfo(req: { input: PdfInput }): Promise<EngineResult<{ pages: PdfPageInfo[] }>>;
  /**
   * Adds invisible text (render mode 3) on the pages given, words in page-display points (origin
   * bottom-left, y up): the OCR text layer. Page content is not re-encoded.
   */
  textLayer(req: {
    input: PdfInput;
    pages: { page: number; words: TextLayerWord[] }[];
  }): Promise<EngineResult<{ data: Uint8Array; words: number }>>;
  /** Renders pages to PNG. */
  rasterize(
    req: RasterRequest,
  ): Promise<EngineResult<{ pages: RasterPage[]; pageCount: number; ms: number; wasmMemoryBytes: number }>>;
}

/** One page as displayed: size in points after /Rotate (clockwise degrees) and the crop box; `hasText`: its resources name a font. */
export interface PdfPageInfo {
  width: number;
  height: number;
  rotation: number;
  hasText: boolean;
}

/** One word of a text layer in page-display points (origin bottom-left, y up); `angle` = baseline direction, degrees counter-clockwise. */
export interface TextLayerWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  angle?: number;
}

/** The PDF optimize profiles (service-spec "optimize"). */
export type PdfOptimizeProfile = "web" | "print" | "archive" | "mrc" | "max";

/** A PDF engine: the methods it offers (a missing one answers "unsupported"). */
export type PdfEngine = Partial<PdfOps>;

/** Name of one PDF method. */
export type PdfMethod = keyof PdfOps;
