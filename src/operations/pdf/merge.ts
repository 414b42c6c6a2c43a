/**
 * merge (output_format pdf): one PDF of every input's pages, in the order of `input`, by the
 * routed PDF engine (PDF, JPEG and PNG inputs). Other images (gif, webp, tiff, bmp, heic, avif,
 * ico) are converted to PNG by the image engine first (issue 4: "converted first where that engine
 * exists"). Office documents are converted to PDF by the office engine (LibreOffice, issue 12);
 * anything else needs a convert task first: INVALID_CONVERSION_TYPE naming the file. The document info of the first PDF input is kept,
 * and every input's outlines, form fields, links, named destinations and embedded files (result `dropped`: what was not).
 * Encrypted inputs open with `password` (one string: tried on every encrypted input; an array:
 * the password of each input in `input` order, null or "" for an input that needs none); the
 * merged PDF is written unencrypted. A missing or wrong password is INVALID_PASSWORD naming the file.
 * On a row that takes streams (the native qpdf, issue 49) PDF inputs past its threshold go as streams and the merged
 * PDF may come back as one: merging 1 GB PDFs holds none of them in the Worker. Images become one-page PDFs by pdf-lib
 * first there (qpdf merges PDFs only).
 */
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import { canonicalFormat } from "../../engines/kinds/image";
import type { PdfStreamableInput } from "../../engines/kinds/pdf";
import { looksLikePdf, sniffImage } from "../../engines/sniff";
import { useEngine, useEngineWhere } from "../../engines/use";
import { extensionOf } from "../io/filenames";
import { baseName, engineCall, heldBytes, readInput, readInputOrDefer, throwIfAborted } from "../kit";
import type { OperationContext, OperationHandler } from "../types";
import { droppedExtra, passwordParam, pdfFile } from "./common";
import { OFFICE_INPUTS } from "../../engines/registry";
import { isOfficeFile, officePdf } from "./from-office";
import { pngPages } from "./from-images";

/** `password`: one for every encrypted input, or one per input in `input` order. */
const params = z.object({
  password: z
    .union([passwordParam.unwrap(), z.array(passwordParam.unwrap().nullable()).max(1000)])
    .optional()
    .describe("Opens encrypted inputs: one password for all, or one per input in input order (null for none)"),
});

/** Image formats merge hands to the image engine (what it reads, minus what PDF engines embed themselves). */
const CONVERTIBLE = ["gif", "webp", "tif", "tiff", "bmp", "heic", "avif", "ico"];

/**
 * Converts a non-JPG/PNG image to PNG pages with the image engine (every page of a multi-page
 * TIFF, every GIF frame, each with its resolution), or throws INVALID_CONVERSION_TYPE naming the
 * file when the format is not an image this server reads or no image engine is here.
 */
async function imageToPng(
  ctx: OperationContext,
  bytes: Uint8Array,
  filename: string,
): Promise<{ data: Uint8Array; ppi?: number }[]> {
  const fmt = extensionOf(filename) || "unknown";
  const refuse = (cause?: unknown) =>
    new TaskError(
      "INVALID_CONVERSION_TYPE",
      `merge takes PDF and image files; ${filename} (${fmt}) must be converted to PDF first with a convert task (output_format pdf).`,
      { cause },
    );
  const inputFormat = canonicalFormat(fmt);
  if (!CONVERTIBLE.includes(fmt) || !inputFormat) throw refuse();
  let image;
  try {
    image = useEngine(ctx, "image", "convert", { input: inputFormat, output: "png" });
  } catch (err) {
    throw refuse(err); // no image engine here: the way out is the same as for a format merge does not take
  }
  return pngPages(ctx, image, bytes, inputFormat, filename);
}

/**
 * On a row that merges PDFs only (the native qpdf, issue 49), each JPEG or PNG page as a one-page PDF the in-Worker
 * pdf-lib makes first (its page size from the image's ppi, as in pdf-lib's own merge), so a merge too large for pdf-lib
 * still takes images. PDFs and streams pass unchanged.
 * @throws TaskError UNSUPPORTED when no in-Worker PDF engine is here | its codes (OVER_BUDGET, OPEN_FAILED…)
 */
async function imagePagesAsPdf(ctx: OperationContext, docs: PdfStreamableInput[]): Promise<PdfStreamableInput[]> {
  const out: PdfStreamableInput[] = [];
  for (const d of docs) {
    if (!(d.data instanceof Uint8Array) || looksLikePdf(d.data) || !sniffImage(d.data)) {
      out.push(d);
      continue;
    }
    throwIfAborted(ctx.signal);
    const maker = useEngineWhere(ctx, "pdf", "merge", (_, row) => row.placement === "in-worker");
    if (!maker)
      throw new TaskError("UNSUPPORTED", `${d.filename}: no engine here makes a PDF page of an image to merge.`);
    const page = { data: d.data, filename: d.filename, ...(d.ppi ? { ppi: d.ppi } : {}) };
    const r = await engineCall(maker.engine.merge?.({ inputs: [page], filename: d.filename }), "", maker.row.name);
    out.push({ data: await heldBytes(r.data), filename: d.filename });
  }
  return out;
}

export const mergePdf: OperationHandler<z.infer<typeof params>> = {
  operation: "merge",
  kind: "pdf",
  formats: ["pdf", "jpg", "png", ...CONVERTIBLE, ...OFFICE_INPUTS].map((input) => ({ input, output: "pdf" })),
  params,
  credits: 1,
  takesInput: true,
  requiresOutputFormat: true,
  async run(inputs, p, ctx) {
    if (p.output_format && p.output_format !== "pdf") {
      throw new TaskError(
        "INVALID_CONVERSION_TYPE",
        `merge only produces PDF; output_format ${p.output_format} is not supported.`,
      );
    }
    if (inputs.length === 0) throw new TaskError("INVALID_CONVERSION_TYPE", "merge needs at least one input file.");
    const { engine, row } = useEngine(ctx, "pdf", "merge");
    const total = inputs.reduce((n, f) => n + f.size, 0);
    if (total > row.budget.maxBytes) {
      throw new TaskError(
        "OVER_BUDGET",
        `The merge inputs add up to ${total} bytes; the ${row.name} engine merges up to ${row.budget.maxBytes} bytes.`,
      );
    }
    const docs: PdfStreamableInput[] = [];
    const passwordOf = (i: number) => (Array.isArray(p.password) ? p.password[i] || undefined : p.password);
    // bytes the Worker holds for this call: on a row that takes streams (the native qpdf), PDFs past its threshold go
    // as streams (issue 49), so the inputs together stay under it however many there are
    let held = 0;
    for (const [i, input] of inputs.entries()) {
      throwIfAborted(ctx.signal);
      if (isOfficeFile(input.filename)) {
        const pdf = await officePdf(ctx, input);
        held += pdf.byteLength;
        docs.push({ data: pdf, filename: input.filename });
        continue;
      }
      if (row.budget.streamOver !== undefined && ["pdf", ""].includes(extensionOf(input.filename))) {
        // a PDF by its name (qpdf refuses what is not one); its bytes when they fit, else a stream opened when its turn comes
        const data = await readInputOrDefer(input, ctx, row, "input", held);
        if (data instanceof Uint8Array) held += data.byteLength;
        docs.push({ data, filename: input.filename, ...(passwordOf(i) ? { password: passwordOf(i) } : {}) });
        continue;
      }
      const bytes = await readInput(input, ctx, row);
      held += bytes.byteLength;
      if (looksLikePdf(bytes) || sniffImage(bytes)) {
        docs.push({
          data: bytes,
          filename: input.filename,
          ...(looksLikePdf(bytes) && passwordOf(i) ? { password: passwordOf(i) } : {}),
        });
      } else {
        for (const page of await imageToPng(ctx, bytes, input.filename))
          docs.push({ ...page, filename: input.filename });
      }
    }
    const name = p.filename ?? `${baseName(inputs[0].filename)}.pdf`;
    const ready = row.placement === "native" ? await imagePagesAsPdf(ctx, docs) : docs;
    const r = await engineCall(engine.merge?.({ inputs: ready, filename: name }), "", row.name);
    return {
      files: [pdfFile(name, r.data)],
      ...droppedExtra(r.dropped ?? {}),
      engine: { name: row.name, version: r.engineVersion },
    };
  },
};
