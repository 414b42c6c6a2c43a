/**
 * The pdf-lib engine: the PDF kind's page, crypt and watermark methods (engine.ts), and the helpers
 * it is built from (open with passwords and budgets, document info, save).
 */
export { createPdfLibEngine } from "./engine";
export { PDFLIB_ENGINE } from "./version";
export { openPdf, looksLikePdf, type OpenOptions } from "./open";
export { savePdf } from "./save";
export { copyInfo } from "./info";
export { DEFAULT_PDF_BUDGET, checkBytes, checkPages, type PdfBudget } from "./budget";
export { saslprep, passwordCandidates } from "./password";
