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
