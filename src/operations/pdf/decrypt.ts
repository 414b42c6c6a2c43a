/**
 * pdf/decrypt: removes the encryption of a PDF given its user or owner `password` (R2–R6, RC4 and
 * AES; AES-256 passwords are also tried SASLprep-normalised). A wrong or missing password is the
 * task error INVALID_PASSWORD. An input that is not encrypted is passed through re-saved.
 */
import { z } from "zod";
import { savePdf } from "../../engines/pdflib";
import type { OperationHandler, OutputFile } from "../types";
import { pdfFile, readPdf, requirePdfInputs, singleName, throwIfAborted, PDF_TO_PDF } from "./common";

const params = z.object({ password: z.string().max(127).optional() });

export const decryptPdf: OperationHandler<z.infer<typeof params>> = {
  operation: "pdf/decrypt",
  ...PDF_TO_PDF,
  params,
  async run(inputs, p, ctx) {
    requirePdfInputs(inputs, "pdf/decrypt", p.input_format);
    const files: OutputFile[] = [];
    for (const [i, input] of inputs.entries()) {
      throwIfAborted(ctx.signal);
      // pdf-lib decrypts every object on load; saving writes them without an /Encrypt dictionary.
      const doc = await readPdf(input, ctx, p.password);
      files.push(pdfFile(singleName(p.filename, input.filename, "pdf", i + 1), await savePdf(doc, input.filename)));
    }
    return { files };
  },
};
