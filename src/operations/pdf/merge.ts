/**
 * merge (output_format pdf): one PDF of every input's pages, in the order of `input`. PDF inputs
 * are copied page by page; JPEG/PNG inputs become one page each (images.ts). Other formats need a
 * convert task to PDF first (no converting engine is reachable from here): INVALID_CONVERSION_TYPE.
 * The document info of the first PDF input is kept. Encrypted inputs open only with an empty user
 * password (merge has no password parameter): otherwise INVALID_PASSWORD naming the file.
 */
import { PDFDocument } from "@cantoo/pdf-lib";
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import { checkBytes, checkPages, copyInfo, DEFAULT_PDF_BUDGET, looksLikePdf, openPdf, PDFLIB_ENGINE, savePdf } from "../../engines/pdflib";
import { extensionOf } from "../io/filenames";
import type { OperationHandler } from "../types";
import { baseName, pdfFile, throwIfAborted } from "./common";
import { addImagePage, embedImage, sniffImage } from "./images";

/** No parameters of its own (only the common ones). */
const params = z.object({});

export const mergePdf: OperationHandler<Record<string, unknown>> = {
  operation: "merge",
  engine: PDFLIB_ENGINE.name,
  engineVersion: PDFLIB_ENGINE.version,
  formats: ["pdf", "jpg", "png"].map((input) => ({ input, output: "pdf" })),
  params,
  credits: 1,
  takesInput: true,
  requiresOutputFormat: true,
  async run(inputs, p, ctx) {
    if (p.output_format && p.output_format !== "pdf") {
      throw new TaskError("INVALID_CONVERSION_TYPE", `merge only produces PDF; output_format ${p.output_format} is not supported.`);
    }
    if (inputs.length === 0) throw new TaskError("INVALID_CONVERSION_TYPE", "merge needs at least one input file.");
    checkBytes(inputs.reduce((n, f) => n + f.size, 0), "the merge inputs together");
    const out = await PDFDocument.create({ updateMetadata: false });
    let infoTaken = false;
    let total = 0;
    for (const input of inputs) {
      throwIfAborted(ctx.signal);
      checkBytes(input.size, input.filename);
      const bytes = await input.bytes();
      if (looksLikePdf(bytes)) {
        const src = await openPdf(bytes, { filename: input.filename });
        total += src.getPageCount();
        checkPages(total, "the merged PDF", DEFAULT_PDF_BUDGET);
        const pages = await out.copyPages(src, src.getPageIndices());
        for (const page of pages) out.addPage(page);
        if (!infoTaken) copyInfo(src, out);
        infoTaken = true;
      } else if (sniffImage(bytes)) {
        addImagePage(out, await embedImage(out, bytes, input.filename));
        checkPages(++total, "the merged PDF", DEFAULT_PDF_BUDGET);
      } else {
        const fmt = extensionOf(input.filename) || "unknown";
        throw new TaskError(
          "INVALID_CONVERSION_TYPE",
          `merge takes PDF, JPG and PNG files; ${input.filename} (${fmt}) must be converted to PDF first with a convert task (output_format pdf).`,
        );
      }
    }
    const name = p.filename ?? `${baseName(inputs[0].filename)}.pdf`;
    return { files: [pdfFile(name, await savePdf(out, name))] };
  },
};
