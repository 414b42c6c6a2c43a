/**
 * The request of one office conversion, as the Worker's office kind (src/engines/kinds/office.ts)
 * sends it and the native engine's LibreOffice (container/engines/libreoffice.ts) converts it.
 * Imports nothing.
 */

/** One office conversion: office → pdf, or pdf → docx/odt; `password` opens an encrypted document. */
export interface OfficeRequest {
  input: { data: Uint8Array; filename: string; password?: string };
  /** Output format (the native engine takes an absent one as pdf). */
  format: "pdf" | "docx" | "odt";
  /**
   * PDF output only (issue 31): `pages`, the pages exported ("1-2", "1,3,5-": LibreOffice's PageRange);
   * `pdfa`, PDF/A-1b/2b/3b written by LibreOffice's own export (SelectPdfVersion).
   */
  pdf?: { pages?: string; pdfa?: 1 | 2 | 3 };
}
