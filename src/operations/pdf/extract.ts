/**
 * pdf/extract-pages: a new PDF holding the pages of `pages` ("1,3,5-7"; open range "5-" = page 5 to
 * the end; pages.ts), in the order given, with the input's document info.
 */
import { z } from "zod";
import { savePdf } from "../../engines/pdflib";
import type { OperationHandler, OutputFile } from "../types";
import { pdfFile, readPdf, requirePdfInputs, singleName, throwIfAborted, PDF_TO_PDF } from "./common";
import { checkPages, resolvePages } from "./pages";
import { copyToNew } from "./split";

const params = z.object({ pages: z.string().max(1000).describe('1-based pages and ranges in output order, e.g. "1,3,5-7"; "5-" = page 5 to the last page') });

export const extractPages: OperationHandler<z.infer<typeof params>> = {
  operation: "pdf/extract-pages",
  ...PDF_TO_PDF,
  params,
  check: (p) => checkPages(p.pages),
  async run(inputs, p, ctx) {
    requirePdfInputs(inputs, "pdf/extract-pages", p.input_format);
    const files: OutputFile[] = [];
    for (const [i, input] of inputs.entries()) {
      throwIfAborted(ctx.signal);
      const src = await readPdf(input, ctx);
      const pages = resolvePages(p.pages, src.getPageCount(), input.filename);
      const out = await copyToNew(src, pages);
      files.push(pdfFile(singleName(p.filename, input.filename, "pdf", i + 1), await savePdf(out, input.filename)));
    }
    return { files };
  },
};
