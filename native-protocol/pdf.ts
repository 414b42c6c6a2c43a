/**
 * The PDF input both the Worker's pdf kind (src/engines/kinds/pdf.ts) and the native engine's PDF
 * tools (container/engines/ghostscript.ts, qpdf.ts) take: one document's bytes, its name and its
 * password. Imports nothing.
 */

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

/** The native pdf methods' requests (container/engines/qpdf.ts, ghostscript.ts): what each reads of the pdf kind's. */
export interface PdfRequests {
  merge: { inputs: PdfInput[]; filename: string };
  split: { input: PdfInput };
  extract: { input: PdfInput; pages: string };
  rotate: { input: PdfInput; rotation: number; pages?: string };
  decrypt: { input: PdfInput };
  pdfa: { input: PdfInput; conformance: string; invoice?: { data: Uint8Array; filename: string } };
  pdfx: { input: PdfInput; variant: string };
  optimize: { input: PdfInput; profile?: string; flattenSignatures?: boolean };
}
