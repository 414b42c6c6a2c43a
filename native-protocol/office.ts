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
}
