/**
 * pdf/x: a PDF/X copy of each input PDF for print exchange (service-spec: "Converts a PDF to
 * PDF/X-1A, PDF/X-3 or PDF/X-4"), by Ghostscript in the native engine: CMYK content, the
 * GTS_PDFXVersion key and a CMYK output intent. `variant` is 1a, 3 or 4 (default 4; "x-4",
 * "pdfx4", "PDF/X-4" spellings accepted). Inputs over the native row's stream threshold travel to Ghostscript as
 * streams and come back as one (issue 49).
 */
import { z } from "zod";
import type { OperationHandler } from "../types";
import { passwordParam, perDocumentStreamed, PDF_TO_PDF } from "./common";

/** "x-4", "pdfx4", "PDF/X-1a" … → "1a" | "3" | "4", or null. */
export function parsePdfxVariant(v: string): "1a" | "3" | "4" | null {
  const m = /^(?:pdf)?[\s/_-]*(?:x)?[\s_-]*(1a|3|4)$/i.exec(v.trim());
  return m ? (m[1]!.toLowerCase() as "1a" | "3" | "4") : null;
}

const params = z.object({
  variant: z
    .string()
    .max(16)
    .default("4")
    .refine((v) => parsePdfxVariant(v) !== null, { message: 'must be 1a, 3 or 4 (also written "x-4" or "pdfx4")' })
    .describe("PDF/X variant: 1a, 3 or 4 (ISO 15930-1, -3, -7)"),
  password: passwordParam,
});

export const pdfX: OperationHandler<z.infer<typeof params>> = {
  operation: "pdf/x",
  ...PDF_TO_PDF,
  params,
  run: (inputs, p, ctx) =>
    perDocumentStreamed(
      "pdf/x",
      inputs,
      p,
      ctx,
      (engine, input) => engine.pdfx?.({ input, variant: parsePdfxVariant(p.variant) ?? "4" }),
      p.password,
    ),
};
