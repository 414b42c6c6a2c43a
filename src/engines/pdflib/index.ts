/**
 * The pdf-lib engine adapter: open (with passwords and budgets), keep document info, save.
 * Engine name "pdflib" as reported on tasks; the version is the @cantoo/pdf-lib package version
 * (checked against node_modules by test/unit/pdf-rows.test.ts).
 */
export { openPdf, looksLikePdf, type OpenOptions } from "./open";
export { savePdf } from "./save";
export { copyInfo } from "./info";
export { DEFAULT_PDF_BUDGET, checkBytes, checkPages, type PdfBudget } from "./budget";
export { saslprep, passwordCandidates } from "./password";

/** Engine name and version reported as `engine` / `engine_version` by page operations. */
export const PDFLIB_ENGINE = { name: "pdflib", version: "2.11.1" } as const;
