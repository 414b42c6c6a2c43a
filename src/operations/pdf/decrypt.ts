/**
 * pdf/decrypt: removes the encryption of a PDF given its user or owner `password` (R2–R6, RC4 and
 * AES; AES-256 passwords are also tried SASLprep-normalised). A wrong or missing password is the
 * task error INVALID_PASSWORD. An input that is not encrypted is passed through re-saved.
 */
import { z } from "zod";
import type { OperationHandler } from "../types";
import { perDocumentStreamed, PDF_TO_PDF } from "./common";

const params = z.object({ password: z.string().max(127).optional() });

export const decryptPdf: OperationHandler<z.infer<typeof params>> = {
  operation: "pdf/decrypt",
  ...PDF_TO_PDF,
  params,
  run: (inputs, p, ctx) =>
    perDocumentStreamed("pdf/decrypt", inputs, p, ctx, (engine, input) => engine.decrypt?.({ input }), p.password),
};
