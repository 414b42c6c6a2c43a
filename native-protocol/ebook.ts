/**
 * The request of one e-book conversion, as the Worker's ebook kind (src/engines/kinds/ebook.ts) sends
 * it and the native engine's calibre (container/engines/calibre.ts) converts it. Imports types only.
 */
import type { LocalFile, StreamedBytes } from "./frame.ts";

/**
 * E-book formats calibre 6.13 (Debian 12) reads, of the catalogue's e-book inputs; cbr repacked as cbz by
 * libarchive's bsdtar first (Debian's calibre is built without unrardll, RAR being non-free). Not snb: calibre
 * 6.13 reads no chapter back from an SNB it wrote itself (empty spine, StopIteration), and no other SNB
 * sample is at hand to show it reads real Bambook books.
 */
export const EBOOK_INPUTS = [
  "epub",
  "mobi",
  "azw",
  "azw3",
  "azw4",
  "prc",
  "fb2",
  "lit",
  "lrf",
  "pdb",
  "pml",
  "rb",
  "tcr",
  "txtz",
  "htmlz",
  "chm",
  "cbz",
  "cbr",
  "cbc",
] as const;

/**
 * E-book formats calibre writes: the catalogue's outputs (azw3, epub, lrf, mobi, oeb as a zip, pdb, pdf,
 * rtf, txt) and each input it can also write (the catalogue's "+ same"; not pml, which calibre writes only
 * zipped as pmlz); azw and prc are MOBI files by another name, written as MOBI. docx as calibre writes it.
 */
export const EBOOK_OUTPUTS = [
  "epub",
  "mobi",
  "azw",
  "azw3",
  "prc",
  "pdf",
  "txt",
  "rtf",
  "lrf",
  "pdb",
  "oeb",
  "fb2",
  "lit",
  "rb",
  "tcr",
  "txtz",
  "htmlz",
  "docx",
] as const;

/**
 * Documents calibre also reads (issue 32: its DOCX, ODT, RTF, TXT, HTML and PDF input plugins), converted to the
 * e-book outputs CloudConvert lists for them (catalogue: docx/odt/rtf/txt/html/pdf → azw3 epub lrf mobi oeb pdb).
 * Their other outputs (pdf, txt, docx…) are the office engines'. HTML takes no file outside its own folder
 * (calibre's document root) and follows no link (--max-levels=0).
 */
export const EBOOK_DOCUMENT_INPUTS = ["docx", "odt", "rtf", "txt", "html", "pdf"] as const;
/** The e-book outputs of {@link EBOOK_DOCUMENT_INPUTS}. */
export const EBOOK_DOCUMENT_OUTPUTS = ["azw3", "epub", "lrf", "mobi", "oeb", "pdb"] as const;

/** Every (input, output) pair calibre converts here: e-book × e-book, and the documents' e-book outputs. */
export const EBOOK_PAIRS: readonly { input: string; output: string }[] = [
  ...EBOOK_INPUTS.flatMap((input) => EBOOK_OUTPUTS.map((output) => ({ input, output }))),
  ...EBOOK_DOCUMENT_INPUTS.flatMap((input) => EBOOK_DOCUMENT_OUTPUTS.map((output) => ({ input, output }))),
  // Apple Pages → epub (the catalogue's one e-book output of pages): LibreOffice writes DOCX, calibre the EPUB
  { input: "pages", output: "epub" },
];

/** One output e-book format. */
export type EbookFormat = (typeof EBOOK_OUTPUTS)[number];

/** Paper sizes the PDF output takes by name (CloudConvert's page_format values; calibre's --paper-size or a custom size). */
export const EBOOK_PAGE_FORMATS = [
  "letter",
  "legal",
  "tabloid",
  "ledger",
  "a0",
  "a1",
  "a2",
  "a3",
  "a4",
  "a5",
  "a6",
] as const;

/** Options CloudConvert users send that calibre has (all optional). */
export interface EbookOptions {
  /** PDF output: a named paper size. */
  page_format?: (typeof EBOOK_PAGE_FORMATS)[number];
  /** PDF output: page width and height, cm (both, overriding page_format). */
  page_width?: number;
  page_height?: number;
  /** PDF output: page margins, mm. */
  margin_top?: number;
  margin_bottom?: number;
  margin_left?: number;
  margin_right?: number;
  /** Base font size, pt: every font size of the book is rescaled from it (calibre's --base-font-size). */
  base_font_size?: number;
  /** Metadata written into the output: title, and authors separated by "&". */
  title?: string;
  author?: string;
}

/**
 * One e-book conversion: `input` (of `input.format`, one of {@link EBOOK_INPUTS}) → `format`. Issue 49: the Worker sends
 * a large book as a stream (StreamedBytes, on the framed wire), which reaches calibre as a file in its folder
 * (LocalFile), as every part of a framed call does (the cover too).
 */
export interface EbookRequest {
  input: { data: Uint8Array | StreamedBytes | LocalFile; filename: string; format: string };
  format: EbookFormat;
  options?: EbookOptions;
  /** A cover image (JPEG, PNG, GIF, WebP) set as the output's cover. */
  cover?: { data: Uint8Array | LocalFile; filename: string };
}
