/**
 * merge with pdf-lib: one PDF of every input's pages, in input order. PDF inputs are copied page by
 * page; JPEG and PNG inputs (sniffed from their bytes) become one page each (images.ts), sized by
 * their resolution (`ppi`, else the one the file records, else 72 ppi). The
 * document info of the first PDF input is kept. Budgets: the sum of the inputs' bytes and the
 * merged page count (budget.ts). Each PDF input's structure — outlines (one after another at the top
 * level), form fields (colliding root names renamed "name+1"), links, named destinations and embedded
 * files — comes along (structure.ts).
 */
import type { PDFDocument } from "@cantoo/pdf-lib";
import { TaskError } from "../errors";
import type { PdfInput } from "../kinds/pdf";
import { checkBytes, checkPages, DEFAULT_PDF_BUDGET } from "./budget";
import { addImagePage, embedImage } from "./images";
import { recordedPpi, sniffImage } from "../sniff";
import { copyInfo } from "./info";
import { looksLikePdf, openPdf } from "./open";
import { DocumentBuilder, type StructureReport } from "./structure";
import { SourceIndex } from "./structure-source";

/**
 * Merges `inputs` into a new document.
 * @throws TaskError OVER_BUDGET | OPEN_FAILED | INVALID_PASSWORD | INVALID_CONVERSION_TYPE (an input neither PDF, JPEG nor PNG)
 */
export async function mergeDocs(
  inputs: PdfInput[],
  signal?: AbortSignal,
): Promise<{ doc: PDFDocument; dropped: StructureReport }> {
  checkBytes(
    inputs.reduce((n, f) => n + f.data.byteLength, 0),
    "the merge inputs together",
  );
  const builder = await DocumentBuilder.create();
  const out = builder.out;
  let infoTaken = false;
  let total = 0;
  for (const input of inputs) {
    if (signal?.aborted) throw new TaskError("CANCELLED", "The task was cancelled.");
    if (looksLikePdf(input.data)) {
      const src = await openPdf(input.data, { filename: input.filename, password: input.password });
      total += src.getPageCount();
      checkPages(total, "the merged PDF", DEFAULT_PDF_BUDGET);
      builder.addPages(
        new SourceIndex(src),
        src.getPageIndices().map((i) => i + 1),
      );
      if (!infoTaken) copyInfo(src, out);
      infoTaken = true;
    } else if (sniffImage(input.data)) {
      addImagePage(out, await embedImage(out, input.data, input.filename), input.ppi ?? recordedPpi(input.data));
      checkPages(++total, "the merged PDF", DEFAULT_PDF_BUDGET);
    } else {
      throw new TaskError(
        "INVALID_CONVERSION_TYPE",
        `merge takes PDF, JPEG and PNG files; ${input.filename} is none of them. Convert it to PDF first.`,
      );
    }
  }
  return { doc: builder.finish(), dropped: builder.dropped };
}
