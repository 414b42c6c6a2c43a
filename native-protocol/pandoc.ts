/**
 * Pandoc's readers and writers by CloudConvert format, shared by the native engine's Debian pandoc
 * (container/engines/pandoc.ts) and pandoc in WebAssembly (src/engines/pandoc/, issue 47), so both rows read and write
 * a format the same way.
 */

/** Input format → pandoc reader. txt is read as Markdown (plain paragraphs stay paragraphs). */
export const PANDOC_READERS: Readonly<Record<string, string>> = {
  md: "markdown",
  rst: "rst",
  tex: "latex",
  html: "html",
  txt: "markdown",
};

/** Output format → pandoc writer, and whether it needs `--standalone` to be a whole document. */
export const PANDOC_WRITERS: Readonly<Record<string, { writer: string; standalone: boolean }>> = {
  docx: { writer: "docx", standalone: false },
  odt: { writer: "odt", standalone: false },
  html: { writer: "html5", standalone: true },
  md: { writer: "markdown", standalone: false },
  rst: { writer: "rst", standalone: false },
  rtf: { writer: "rtf", standalone: true },
  tex: { writer: "latex", standalone: true },
  txt: { writer: "plain", standalone: false },
};
