/**
 * merge (output_format pdf): one PDF of every input's pages, in the order of `input`. PDF inputs
 * are copied page by page; JPEG/PNG inputs become one page each (images.ts); other images (gif, webp,
 * tiff, bmp, heic, avif, ico) are converted to PNG by the ImageMagick engine first (issue 4: "converted
 * first where that engine exists"). Anything else (office documents…) needs a convert task to PDF
 * first: INVALID_CONVERSION_TYPE naming the file.
 * The document info of the first PDF input is kept. Encrypted inputs open only with an empty user
 * password (merge has no password parameter): otherwise INVALID_PASSWORD naming the file.
 */
import { PDFDocument } from "@cantoo/pdf-lib";
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import { checkBytes, checkPages, copyInfo, DEFAULT_PDF_BUDGET, looksLikePdf, openPdf, PDFLIB_ENGINE, savePdf } from "../../engines/pdflib";
import { extensionOf } from "../io/filenames";
import type { ImageFormat, ImageMagickEngine } from "../../engines/imagemagick/types";
import type { OperationContext, OperationHandler } from "../types";
import { baseName, pdfFile, throwIfAborted } from "./common";
import { addImagePage, embedImage, sniffImage } from "./images";

/** No parameters of its own (only the common ones). */
const params = z.object({});

/** Image formats merge hands to the ImageMagick engine (READABLE_FORMATS minus what pdf-lib embeds itself). */
const CONVERTIBLE = ["gif", "webp", "tif", "tiff", "bmp", "heic", "avif", "ico"];

/**
 * Converts a non-JPG/PNG image to PNG with the ImageMagick engine, or throws INVALID_CONVERSION_TYPE
 * naming the file when the format is not an image this server reads or the engine is absent.
 */
async function imageToPng(ctx: OperationContext, bytes: Uint8Array, filename: string): Promise<Uint8Array> {
  const fmt = extensionOf(filename) || "unknown";
  const im = ctx.engines.imagemagick as ImageMagickEngine | undefined;
  if (!CONVERTIBLE.includes(fmt) || !im || typeof im.run !== "function") {
    throw new TaskError(
      "INVALID_CONVERSION_TYPE",
      `merge takes PDF and image files; ${filename} (${fmt}) must be converted to PDF first with a convert task (output_format pdf).`,
    );
  }
  const res = await im.run({ op: "convert", input: bytes, inputFormat: fmt === "tif" ? "tiff" : (fmt as ImageFormat), outputFormat: "png", options: {} });
  if (!res.ok) throw new TaskError(res.error.code, `${filename}: ${res.error.message}`, { retryable: res.error.retryable });
  return res.outputs[0].data;
}

export const mergePdf: OperationHandler<Record<string, unknown>> = {
  operation: "merge",
  engine: PDFLIB_ENGINE.name,
  engineVersion: PDFLIB_ENGINE.version,
  formats: ["pdf", "jpg", "png", ...CONVERTIBLE].map((input) => ({ input, output: "pdf" })),
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
        // Other images (gif, webp, tiff, bmp, heic, avif…) are converted to PNG by the ImageMagick engine first.
        const png = await imageToPng(ctx, bytes, input.filename);
        addImagePage(out, await embedImage(out, png, input.filename));
        checkPages(++total, "the merged PDF", DEFAULT_PDF_BUDGET);
      }
    }
    const name = p.filename ?? `${baseName(inputs[0].filename)}.pdf`;
    return { files: [pdfFile(name, await savePdf(out, name))] };
  },
};
