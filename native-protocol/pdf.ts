/**
 * The PDF input both the Worker's pdf kind (src/engines/kinds/pdf.ts) and the native engine's PDF
 * tools (container/engines/ghostscript.ts, qpdf.ts) take: one document's bytes, its name and its
 * password.
 */
import type { DeferredBytes, LocalFile, StreamedBytes } from "./frame.ts";
import type { WatermarkOptions } from "./image.ts";

/** One input document. */
export interface PdfInput {
  data: Uint8Array;
  /** File name, for messages. */
  filename: string;
  /** User or owner password of an encrypted PDF; absent = try the empty user password. */
  password?: string;
  /**
   * For a JPEG or PNG input of merge: its resolution in pixels per inch, which sets its page size
   * (width px × 72 / ppi points); absent = the file's own (JFIF density, PNG pHYs), else 72 (1 px = 1 pt).
   */
  ppi?: number;
}

/**
 * An input of the operations that stream (issue 49: split, extract, rotate, decrypt …, and Ghostscript's pdf/a, pdf/x
 * and optimize): its bytes, or for the native qpdf and Ghostscript a stream of known length (StreamedBytes) the Worker
 * sends on the framed wire, which reaches the tool as a file in its folder (LocalFile), so a 1 GB PDF is held whole by neither side; merge's streams are DeferredBytes, opened
 * one after another as the framed body reaches them. pdf-lib answers UNSUPPORTED to a stream.
 */
export interface PdfStreamableInput extends Omit<PdfInput, "data"> {
  data: Uint8Array | StreamedBytes | DeferredBytes | LocalFile;
}

/**
 * Permission flags of an encrypted PDF (ISO 32000-2 §7.6.4.2 Table 22, as pdf-lib and qpdf name them): what whoever
 * opens it with the user password may do.
 */
export interface PdfPermissions {
  printing: false | "lowResolution" | "highResolution";
  copying: boolean;
  contentAccessibility: boolean;
  documentAssembly: boolean;
  fillingForms: boolean;
  annotating: boolean;
  modifying: boolean;
}

/** One page as displayed, in points: its width and height after /Rotate (clockwise degrees) inside its box. */
export interface PdfPageFrame {
  width: number;
  height: number;
  rotation: number;
}

/**
 * A watermark already drawn (issue 49, the native watermark of a PDF too large for pdf-lib): `data` is a small PDF whose
 * page k (1-based) is the watermark on a blank page of one displayed frame, and `pages[i]` the stamp page to lay on
 * page i + 1 of the input (0: none). `below`: under the page content instead of over it.
 */
export interface PdfStamp {
  data: Uint8Array;
  pages: number[];
  below?: boolean;
}

/** The native pdf methods' requests (container/engines/qpdf.ts, ghostscript.ts): what each reads of the pdf kind's. */
export interface PdfRequests {
  merge: { inputs: PdfStreamableInput[]; filename: string };
  split: { input: PdfStreamableInput };
  extract: { input: PdfStreamableInput; pages: string };
  rotate: { input: PdfStreamableInput; rotation: number; pages?: string };
  decrypt: { input: PdfStreamableInput };
  encrypt: { input: PdfStreamableInput; userPassword: string; ownerPassword: string; permissions: PdfPermissions };
  pageFrames: { input: PdfStreamableInput };
  // the stamp's bytes reach an engine that takes files as a LocalFile, as every part of a framed call does
  watermark: {
    input: PdfStreamableInput;
    mark?: WatermarkOptions;
    stamp?: Omit<PdfStamp, "data"> & { data: Uint8Array | LocalFile };
  };
  // issue 49: Ghostscript takes its input as the page operations do (a file in its folder on a framed call), and the
  // invoice XML of a framed call as a file, as every part of one
  pdfa: {
    input: PdfStreamableInput;
    conformance: string;
    invoice?: { data: Uint8Array | LocalFile; filename: string };
  };
  pdfx: { input: PdfStreamableInput; variant: string };
  optimize: { input: PdfStreamableInput; profile?: string; flattenSignatures?: boolean };
  // issue 49: pdf/ocr of a whole PDF on disk (the native OCRmyPDF), its input as the page operations take it
  ocr: PdfOcrRequest;
  // issue 49: pdf → images of a PDF or page over PDFium's budget (the native pdftoppm, container/engines/poppler-raster.ts)
  rasterize: PdfRasterRequest;
}

/**
 * One rasterize call as the native pdftoppm reads it (issue 49): the fields of the Worker's RasterRequest
 * (src/engines/kinds/pdf.ts, which says what each means) it honours. Sizes in pixels, density in pixels per inch;
 * `pages`: 1-based ranges (`to` null: to the last page), rendered as a sorted set, the first `limit` of them.
 */
export interface PdfRasterRequest {
  input: Uint8Array | StreamedBytes | LocalFile;
  filename: string;
  password?: string;
  pages?: { from: number; to: number | null }[];
  limit?: number;
  density?: number;
  width?: number;
  height?: number;
  fit?: "max" | "crop" | "scale";
}

/**
 * Largest page the native pdftoppm draws, pixels (issue 49): 128 MP, the area limit of the image's ImageMagick policy
 * (/etc/ImageMagick-6/policy.xml, container/engines/imagemagick.ts), so every page it draws can still be re-encoded
 * to jpg/webp/tiff by an image engine that takes it; Splash holds the page as an RGB bitmap, ~4 bytes a pixel resident
 * (measured: an A4 page at 1000 ppi, 96.6 MP, 390 MB resident and 7.8 s; at 300 ppi 46 MB, 1 s), so 128 MP is ~0.5 GB,
 * well inside the tools' 2 GiB address-space limit (NATIVE_MEMORY_MB). A larger page ends OVER_BUDGET naming it.
 */
export const NATIVE_RASTER_MAX_PAGE_PIXELS = 128_000_000;

/**
 * Most bytes of page images one native rasterize call writes (issue 49): 1 GiB, the native poppler's input limit
 * (src/engines/native/rows.ts NATIVE_POPPLER_MAX_BYTES), since the call's disk reservation (container/disk-budget.ts)
 * counts its input, not the pages drawn from it (2,000 A4 pages at 300 ppi of photos would be ~50 GB). Past it the call
 * ends OVER_BUDGET, its pages not answered; the Worker's PDFium has its own 150 MP a call instead.
 */
export const NATIVE_RASTER_MAX_OUTPUT_BYTES = 1024 ** 3;

/**
 * Largest rendered page the native OCRmyPDF recognises, megapixels (its --skip-big; issue 49): OCRmyPDF's own corpus
 * page of 30 × 30 in at 300 ppi is 81 MP and peaked at 0.9 GB resident (measured: tesseract holding the page), within the
 * tools' 2 GiB address-space limit. A larger page is left without OCR and reported (PdfOcrReport `skippedTooLarge`).
 */
export const NATIVE_OCR_MAX_MEGAPIXELS = 100;

/**
 * pdf/ocr of a whole document by the native OCRmyPDF (issue 49, container/engines/ocrmypdf.ts): the PDF OCRed page by
 * page in the call's folder and answered whole, pages that already carry text left alone unless `redo`.
 */
export interface PdfOcrRequest {
  input: PdfStreamableInput;
  /** Tesseract language codes, e.g. ["eng", "deu"] (joined with "+"); empty = ["eng"]. */
  languages: string[];
  /** Pages to OCR (contract §6 notation: "1,3,5-7", "5-"); absent = every page. */
  pages?: string;
  /** pdf/ocr `force_ocr`: also OCR pages that carry text, their earlier OCR layer replaced and visible text kept. */
  redo?: boolean;
  /** pdf/ocr `auto_orient`: turn pages whose text is turned upright by their /Rotate. */
  rotatePages?: boolean;
}

/**
 * What OCRmyPDF did, page by page (1-based page numbers of the document), from its own log: `ocred` it recognised,
 * `skippedWithText` it left alone because they carry text, `skippedNoImages` because they hold no image (vector pages:
 * rasterizing them would lose detail), `skippedTooLarge` because they are over its page budget (megapixels), `rotated`
 * the clockwise degrees it added to a page's /Rotate.
 */
export interface PdfOcrReport {
  pageCount: number;
  ocred: number[];
  skippedWithText: number[];
  skippedNoImages: number[];
  skippedTooLarge: number[];
  rotated: Record<number, number>;
}
