/**
 * Budgets for PDF work inside a Worker isolate (128 MB: JS heap + WASM memories, wasm-engines.md
 * "Production limits"). They are checked before the heavy step — bytes before parsing, pages right
 * after the cross-reference table is read and before any page is copied, drawn or saved — so an
 * over-budget input fails fast with OVER_BUDGET instead of exhausting the isolate.
 */
import { TaskError } from "../errors";

import type { PdfBudget } from "../kinds/pdf";

export type { PdfBudget };

/** Defaults of this service; the job layer may pass tighter ones. */
export const DEFAULT_PDF_BUDGET: PdfBudget = { maxBytes: 100 * 1024 * 1024, maxPages: 2000 };

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
