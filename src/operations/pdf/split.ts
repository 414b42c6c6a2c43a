/**
 * pdf/split-pages: one PDF per page, named `<name>-1.pdf`, `<name>-2.pdf` … (or the `filename`
 * parameter with `%d` replaced by the page number). Document info (Title, Author, Producer …) is
 * copied into every part.
 */
import { PDFDocument } from "@cantoo/pdf-lib";
import { z } from "zod";
import { copyInfo, savePdf } from "../../engines/pdflib";
import type { OperationHandler, OutputFile } from "../types";
import { numberedName, pdfFile, readPdf, requirePdfInputs, throwIfAborted, PDF_TO_PDF } from "./common";

/** No parameters of its own (only the common ones). */
const params = z.object({});

/** Copies pages `pages` (1-based) of `src` into a new document carrying `src`'s document info. */
export async function copyToNew(src: PDFDocument, pages: number[]): Promise<PDFDocument> {
  const out = await PDFDocument.create({ updateMetadata: false });
  const copied = await out.copyPages(src, pages.map((p) => p - 1));
  for (const page of copied) out.addPage(page);
  copyInfo(src, out);
  return out;
}

export const splitPages: OperationHandler<Record<string, unknown>> = {
  operation: "pdf/split-pages",
  ...PDF_TO_PDF,
  params,
  async run(inputs, p, ctx) {
    requirePdfInputs(inputs, "pdf/split-pages", p.input_format);
    const files: OutputFile[] = [];
    for (const input of inputs) {
      const src = await readPdf(input, ctx);
      const count = src.getPageCount();
      for (let page = 1; page <= count; page++) {
        throwIfAborted(ctx.signal);
        const part = await copyToNew(src, [page]);
        files.push(pdfFile(numberedName(p.filename, input.filename, page, "pdf"), await savePdf(part, input.filename)));
      }
    }
    return { files };
  },
};
