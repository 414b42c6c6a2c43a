/**
 * Budgets for PDF work inside a Worker isolate (128 MB: JS heap + WASM memories, wasm-engines.md
 * "Production limits"). They are checked before the heavy step — bytes before parsing, pages right
 * after the cross-reference table is read and before any page is copied, drawn or saved — so an
 * over-budget input fails fast with OVER_BUDGET instead of exhausting the isolate.
 */
import { TaskError } from "../errors";

import type { PdfBudget } from "../kinds/pdf";

export type { PdfBudget };

/**
 * Defaults of this service; the job layer may pass tighter ones. `maxBytes` holds an isolate under ~100 MB (issue 49):
 * measured 2026-11-29 in Node (peak RSS growth of one call in a fresh process, Ghostscript-written PDFs of 6 MB JPEG
 * pages), on top of the input the runner holds, pdf-lib needs 0.4–0.8× the input to rotate or extract, 2× to split,
 * 3× the inputs' total to merge and 3.7× to encrypt. At 24.5 MB encrypt peaked at 91 MB over the input (115 MB in
 * all), so 20 MiB (~100 MB at worst) seemed the most a 128 MB isolate takes with room for the Worker itself; the
 * table-driven test of every engine (the high-water mark reset before the call, garbage collected before it, V8's
 * heap capped at 128 MB) then measured encrypt at 18.1 MB from +51 to +79 MB (97 MB with the input), so 16 MiB. Larger
 * PDFs go to the native qpdf where it has the operation (merge, split, extract, rotate, decrypt: OVER_BUDGET hands
 * them on) and end OVER_BUDGET otherwise. `test/engines-heavy/isolate-memory.test.ts` keeps the bound.
 */
export const DEFAULT_PDF_BUDGET: PdfBudget = { maxBytes: 16 * 1024 * 1024, maxPages: 2000 };

/** Throws OVER_BUDGET when `size` (bytes) of file `name` exceeds the budget. */
export function checkBytes(size: number, name: string, budget: PdfBudget = DEFAULT_PDF_BUDGET): void {
  if (size > budget.maxBytes) {
    throw new TaskError(
      "OVER_BUDGET",
      `${name} is ${mib(size)} MiB; PDFs over ${mib(budget.maxBytes)} MiB are not processed here. Split it first or use a smaller file.`,
    );
  }
}

/** Throws OVER_BUDGET when a document of file `name` has more than `budget.maxPages` pages. */
export function checkPages(pages: number, name: string, budget: PdfBudget = DEFAULT_PDF_BUDGET): void {
  if (pages > budget.maxPages) {
    throw new TaskError(
      "OVER_BUDGET",
      `${name} has ${pages} pages; at most ${budget.maxPages} pages are processed per PDF.`,
    );
  }
}

function mib(n: number): string {
  return (n / 1024 / 1024).toFixed(1).replace(/\.0$/, "");
}
