/**
 * pdf/a: a PDF/A copy of each input PDF (service-spec: "Converts a PDF to PDF/A-1B, PDF/A-2B or
 * PDF/A-3B"), by Ghostscript in the native engine. `conformance_level` is 1b, 2b (default) or 3b;
 * the upper-case forms are accepted too (contract §6). The output carries the pdfaid XMP, embedded
 * fonts and an sRGB output intent; `password` opens an encrypted input. `invoice` names a task whose
 * file is a ZUGFeRD / Factur-X invoice XML: with 3b it is attached as factur-x.xml (relationship
 * Alternative, Factur-X XMP with its extension schema), making a ZUGFeRD 2 / Factur-X e-invoice.
 * Inputs over the native row's stream threshold travel to Ghostscript as streams and come back as one (issue 49); the
 * invoice XML is read whole (up to that threshold).
 */
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import { useEngine } from "../../engines/use";
import { readInput } from "../kit";
import type { OperationHandler } from "../types";
import { passwordParam, perDocumentStreamed, PDF_TO_PDF } from "./common";

const params = z.object({
  conformance_level: z
    .enum(["1b", "2b", "3b", "1B", "2B", "3B"])
    .default("2b")
    .transform((v) => v.toLowerCase() as "1b" | "2b" | "3b")
    .describe("PDF/A part and level: 1b, 2b or 3b (ISO 19005-1, -2, -3, level B)"),
  password: passwordParam,
  invoice: z
    .string()
    .max(256)
    .optional()
    .describe(
      "Name of a task whose file is a ZUGFeRD / Factur-X invoice XML, attached as factur-x.xml (conformance_level 3b)",
    ),
});

export const pdfA: OperationHandler<z.infer<typeof params>> = {
  operation: "pdf/a",
  ...PDF_TO_PDF,
  params,
  taskRefs: ["invoice"],
  check: (p) =>
    p.invoice && p.conformance_level !== "3b"
      ? ["invoice: an invoice XML can be attached to PDF/A-3 only; use conformance_level 3b."]
      : [],
  async run(inputs, p, ctx) {
    let invoice: { data: Uint8Array; filename: string } | undefined;
    if (p.invoice) {
      const files = await ctx.taskFiles(p.invoice);
      if (files.length === 0)
        throw new TaskError("FILE_NOT_FOUND", `invoice: task ${p.invoice} has no file to attach.`);
      const { row } = useEngine(ctx, "pdf", "pdf/a");
      invoice = { filename: files[0].filename, data: await readInput(files[0], ctx, row, "invoice") };
    }
    // issue 49: an input over the row's stream threshold reaches Ghostscript as a stream, its PDF/A comes back as one
    return perDocumentStreamed(
      "pdf/a",
      inputs,
      p,
      ctx,
      (engine, input) => engine.pdfa?.({ input, conformance: p.conformance_level, invoice }),
      p.password,
    );
  },
};
