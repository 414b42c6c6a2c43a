/**
 * pdf/a: a PDF/A copy of each input PDF (service-spec: "Converts a PDF to PDF/A-1B, PDF/A-2B or
 * PDF/A-3B"), by Ghostscript in the native engine. `conformance_level` is 1b, 2b (default) or 3b;
 * the upper-case forms are accepted too (contract §6). The output carries the pdfaid XMP, embedded
 * fonts and an sRGB output intent; `password` opens an encrypted input.
 */
import { z } from "zod";
import type { OperationHandler } from "../types";
import { passwordParam, perDocument, PDF_TO_PDF } from "./common";

const params = z.object({
  conformance_level: z
    .enum(["1b", "2b", "3b", "1B", "2B", "3B"])
    .default("2b")
    .transform((v) => v.toLowerCase() as "1b" | "2b" | "3b")
    .describe("PDF/A part and level: 1b, 2b or 3b (ISO 19005-1, -2, -3, level B)"),
  password: passwordParam,
});

export const pdfA: OperationHandler<z.infer<typeof params>> = {
  operation: "pdf/a",
  ...PDF_TO_PDF,
  params,
  run: (inputs, p, ctx) =>
    perDocument("pdf/a", inputs, p, ctx, (engine, input) => engine.pdfa?.({ input, conformance: p.conformance_level }), p.password),
};
