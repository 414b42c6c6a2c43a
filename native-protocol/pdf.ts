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
}
