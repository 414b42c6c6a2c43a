/**
 * pdf/extract-pages: a new PDF holding the pages of `pages` ("1,3,5-7"; open range "5-" = page 5 to
 * the end; engines/kinds/pdf-pages.ts), in the order given, with the input's document info.
 */
import { z } from "zod";
import { checkPages } from "../../engines/kinds/pdf-pages";
import type { OperationHandler } from "../types";
import { passwordParam, perDocumentStreamed, PDF_TO_PDF } from "./common";

const params = z.object({
  pages: z
    .string()
    .max(1000)
    .describe('1-based pages and ranges in output order, e.g. "1,3,5-7"; "5-" = page 5 to the last page'),
  password: passwordParam,
});

export const extractPages: OperationHandler<z.infer<typeof params>> = {
  operation: "pdf/extract-pages",
  ...PDF_TO_PDF,
  params,
  check: (p) => checkPages(p.pages),
  run: (inputs, p, ctx) =>
    perDocumentStreamed(
      "pdf/extract-pages",
      inputs,
      p,
      ctx,
      (engine, input) => engine.extract?.({ input, pages: p.pages }),
      p.password,
    ),
};
