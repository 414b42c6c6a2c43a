/**
 * The request of one office conversion, as the Worker's office kind (src/engines/kinds/office.ts)
 * sends it and the native engine's office engines (container/engines/libreoffice.ts, poppler.ts,
 * pandoc.ts) convert it. Imports nothing.
 */

/**
 * One document conversion: `format` is the output's extension (pdf, docx, csv, txt, svg …; which pairs an
 * engine takes is its row's, src/engines/registry.ts); `password` opens an encrypted document.
 */
export interface OfficeRequest {
  input: { data: Uint8Array; filename: string; password?: string };
  /** Output format (the native engine takes an absent one as pdf). */
  format: string;
  /**
   * PDF output only (issue 31): `pages`, the pages exported ("1-2", "1,3,5-": LibreOffice's PageRange);
   * `pdfa`, PDF/A-1b/2b/3b written by LibreOffice's own export (SelectPdfVersion). Issue 32, CloudConvert's
   * office options: `bookmarks` (false: no outline; ExportBookmarks), `markup` (comments as PDF annotations;
   * ExportNotes), `hiddenSlides` (ExportHiddenSlides), `notesPages` (presentations: the notes pages only;
   * ExportNotesPages + ExportOnlyNotesPages).
   */
  pdf?: {
    pages?: string;
    pdfa?: 1 | 2 | 3;
    bookmarks?: boolean;
    markup?: boolean;
    hiddenSlides?: boolean;
    notesPages?: boolean;
  };
  /**
   * csv output (issue 32): `delimiter`, one character (default ","); `sheet`, the 1-based sheet written
   * (default 1), or 0 for every sheet as its own file.
   */
  csv?: { delimiter?: string; sheet?: number };
  /**
   * Text outputs (txt, csv; issue 32): `encoding`, one of TEXT_ENCODINGS (default utf-8); `layout` (pdf → txt):
   * keep the page's physical layout (pdftotext -layout) rather than reading order.
   */
  text?: { encoding?: TextEncoding; layout?: boolean };
}

/** What the djvulibre row writes from a DjVu (issue 32; container/engines/djvulibre.ts): pdf, one image per page, a re-save. */
export const DJVU_OUTPUTS = ["pdf", "png", "jpg", "djvu"] as const;

/** One output file of a conversion that makes several (a csv per sheet, an svg per page): its label and bytes. */
export interface OfficePart {
  /** What tells it apart: the sheet name or the 1-based page number. */
  label: string;
  data: Uint8Array;
}

/** Encodings the text outputs (txt, csv) are written in (the names CloudConvert's users send, lower-case). */
export const TEXT_ENCODINGS = ["utf-8", "utf-16", "windows-1252", "iso-8859-1", "ascii"] as const;

/** One of TEXT_ENCODINGS. */
export type TextEncoding = (typeof TEXT_ENCODINGS)[number];
