/**
 * The request of one office conversion, as the Worker's office kind (src/engines/kinds/office.ts)
 * sends it and the native engine's office engines (container/engines/libreoffice.ts, poppler.ts,
 * pandoc.ts) convert it. Imports types only.
 */
import type { LocalFile, StreamedBytes } from "./frame.ts";

/**
 * The largest document the office row (LibreOffice) takes, bytes (issue 49): 1 GiB, which is also the most a zipped
 * document may expand to before it is refused as a zip bomb (container/engines/libreoffice.ts MAX_EXPANDED_BYTES). A
 * docx or pptx of pictures stores them undeflated, so a larger one would expand past that anyway. LibreOffice loads the
 * whole document into its own memory (a 209 MB docx of 30 pictures peaked at ~740 MB in soffice: test/slow/
 * large-docx.test.ts), within its address-space limit (NATIVE_OFFICE_MEMORY_MB, 3 GiB by default).
 */
export const OFFICE_MAX_BYTES = 1024 * 1024 * 1024;

/**
 * One document: its bytes, or (issue 49: inputs over the stream threshold, for the native rows that take files —
 * LibreOffice, poppler, DjVuLibre, pandoc) a stream of known length the Worker sends on the framed wire, which reaches
 * the engine as a file in its call's folder (LocalFile). The Worker's engines that hold documents whole (SheetJS,
 * pandoc in WebAssembly) answer UNSUPPORTED to a stream; routing gives them bytes within their budgets.
 */
export interface OfficeInput {
  data: Uint8Array | StreamedBytes | LocalFile;
  filename: string;
  password?: string;
}

/**
 * One document conversion: `format` is the output's extension (pdf, docx, csv, txt, svg …; which pairs an
 * engine takes is its row's, src/engines/registry.ts); `password` opens an encrypted document.
 */
export interface OfficeRequest {
  input: OfficeInput;
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

/**
 * One output file of a conversion that makes several (a csv per sheet, an svg per page): its label and bytes (`D`:
 * the native LibreOffice answers files, LocalFile, which reach the Worker as streams when large).
 */
export interface OfficePart<D = Uint8Array> {
  /** What tells it apart: the sheet name or the 1-based page number. */
  label: string;
  data: D;
}

/** Encodings the text outputs (txt, csv) are written in (the names CloudConvert's users send, lower-case). */
export const TEXT_ENCODINGS = ["utf-8", "utf-16", "windows-1252", "iso-8859-1", "ascii"] as const;

/** One of TEXT_ENCODINGS. */
export type TextEncoding = (typeof TEXT_ENCODINGS)[number];
