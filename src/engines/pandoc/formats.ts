/**
 * What pandoc in WebAssembly (row "pandoc-wasm", issue 47) reads and writes, by CloudConvert format. The markup
 * readers and writers are the native pandoc row's (native-protocol/pandoc.ts); pandoc also reads docx, odt, rtf, epub
 * and fb2 and writes epub, which this row offers where another engine stays first (registry.ts says which).
 */
import { PANDOC_READERS, PANDOC_WRITERS } from "../../../native-protocol/pandoc";

/** Input format → pandoc reader. */
export const PANDOC_WASM_READERS: Readonly<Record<string, string>> = {
  ...PANDOC_READERS,
  docx: "docx",
  odt: "odt",
  rtf: "rtf",
  epub: "epub",
  fb2: "fb2",
};

/** Output format → pandoc writer (and whether it is written `standalone`). */
export const PANDOC_WASM_WRITERS: Readonly<Record<string, { writer: string; standalone: boolean }>> = {
  ...PANDOC_WRITERS,
  epub: { writer: "epub3", standalone: false },
};

/** Inputs read as binary containers (zip): everything else is text. */
export const PANDOC_BINARY_INPUTS: ReadonlySet<string> = new Set(["docx", "odt", "epub"]);

const pairs = (inputs: readonly string[], outputs: readonly string[]) =>
  inputs.flatMap((input) => outputs.filter((o) => o !== input).map((output) => ({ input, output })));

/**
 * Documents LibreOffice lays out (docx, odt, rtf, and txt into a document): pandoc converts their text, structure and
 * pictures, not their page layout, so LibreOffice stays first and this row is its fallback and the browser's engine.
 */
export const PANDOC_WASM_DOCUMENT_PAIRS: readonly { input: string; output: string }[] = [
  ...pairs(["docx", "odt", "rtf"], ["docx", "odt", "html", "rtf", "txt"]),
  ...pairs(["txt"], ["docx", "odt", "rtf"]),
];

/** E-book pairs (calibre's, CloudConvert's e-book engine): this row only after every other engine. */
export const PANDOC_WASM_EBOOK_PAIRS: readonly { input: string; output: string }[] = [
  ...pairs(["docx", "odt", "rtf", "txt", "html"], ["epub"]),
  ...pairs(["epub"], ["rtf", "txt"]),
  // fb2 → epub is not offered: pandoc's EPUB writer looks for an FB2's cover picture as a file, not in what it read
  ...pairs(["fb2"], ["rtf", "txt"]),
];
