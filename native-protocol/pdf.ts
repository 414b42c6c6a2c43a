/**
 * The PDF input both the Worker's pdf kind (src/engines/kinds/pdf.ts) and the native engine's PDF
 * tools (container/engines/ghostscript.ts, qpdf.ts) take: one document's bytes, its name and its
 * password.
 */
import type { LocalFile, StreamedBytes } from "./frame.ts";

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
 * An input of the page operations that stream (issue 49: split, extract, rotate, decrypt): its bytes, or for the
 * native qpdf a stream of known length (StreamedBytes) the Worker sends on the framed wire, which reaches qpdf as a
 * file in its folder (LocalFile), so a 1 GB PDF is held whole by neither side. pdf-lib answers UNSUPPORTED to a stream.
 */
export interface PdfStreamableInput extends Omit<PdfInput, "data"> {
  data: Uint8Array | StreamedBytes | LocalFile;
}

/** The native pdf methods' requests (container/engines/qpdf.ts, ghostscript.ts): what each reads of the pdf kind's. */
export interface PdfRequests {
  merge: { inputs: PdfInput[]; filename: string };
  split: { input: PdfStreamableInput };
  extract: { input: PdfStreamableInput; pages: string };
  rotate: { input: PdfStreamableInput; rotation: number; pages?: string };
  decrypt: { input: PdfStreamableInput };
  pdfa: { input: PdfInput; conformance: string; invoice?: { data: Uint8Array; filename: string } };
  pdfx: { input: PdfInput; variant: string };
  optimize: { input: PdfInput; profile?: string; flattenSignatures?: boolean };
}
