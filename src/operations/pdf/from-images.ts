/**
 * convert image → pdf (issue 17: "png/jpg/tif (multi-page TIFF included) → pdf with an `ocr`
 * option, giving a searchable PDF"): each input becomes one PDF with a page per image — a JPEG is
 * embedded as it is (no re-encoding), a PNG decoded by pdf-lib, and every other image (TIFF pages,
 * GIF frames, BMP, WebP) split into PNG pages by the image engine first. A page is as large as the
 * image at its recorded resolution (JFIF density, PNG pHYs, TIFF XResolution), else 72 ppi (1 px =
 * 1 pt), as ImageMagick and img2pdf size it.
 *
 * With `ocr: true` each page image is recognised by the OCR engine (`language` as in pdf/ocr) and
 * the words are laid on the page as an invisible text layer (pdflib/text-layer.ts), so the page
 * looks like the image and its text is searchable and selectable.
 *
 * Two handlers share the work, one per engine kind, so routing does what it does everywhere: the
 * PDF engine (pdflib) converts without OCR and passes `ocr: true` on (UNSUPPORTED); the OCR rows
 * take it — tesseract in WebAssembly first, and native tesseract for the languages it lacks or
 * images over its pixel budget (its OVER_BUDGET hands the task on).
 */
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import type { PdfInput, TextLayerWord } from "../../engines/kinds/pdf";
import { IMAGE_PDF_INPUTS } from "../../engines/registry";
import { recordedPpi, sniffImage, tiffPages } from "../../engines/sniff";
import { useEngine, type UsedEngine } from "../../engines/use";
import { eachImage, inputFormatOf } from "../image/common";
import { engineCall, heldBytes, outputName, readInput, throwIfAborted } from "../kit";
import type { CommonParams, InputFile, OperationContext, OperationHandler, OutputFile } from "../types";
import { boolParam, pdfFile } from "./common";
import { toDisplayWords } from "./ocr";
import { checkLanguages, languageParam, languagesOf } from "./ocr-languages";

const params = z.object({
  ocr: boolParam.describe(
    "Recognise the text of each page (tesseract) and add it as an invisible, searchable text layer",
  ),
  language: languageParam,
});
type Params = z.infer<typeof params>;

/** One page to be: the image bytes the PDF engine embeds (JPEG or PNG) and their resolution. */
export interface PageImage {
  data: Uint8Array;
  ppi?: number;
}

/** The page images of one input: a JPEG or PNG as it is, anything else as PNG by the image engine — every page of a TIFF, the first frame of an animation. */
async function pageImages(
  ctx: OperationContext,
  file: InputFile,
  bytes: Uint8Array,
  inputFormat: string | undefined,
): Promise<PageImage[]> {
  const format = inputFormatOf(file, inputFormat, "convert");
  if ((format === "jpg" || format === "png") && sniffImage(bytes)) return [{ data: bytes, ppi: recordedPpi(bytes) }];
  const image = useEngine(ctx, "image", "convert", { input: format, output: "png" });
  return pngPages(ctx, image, bytes, format, file.filename);
}

/**
 * The pages of an image as PNG by the image engine: every page of a TIFF, one page per call (issue 44: the engine
 * holds one page at a time, so a scan is bounded by its largest page, not by the sum of its pages — a 3-page A4 fax
 * at 400 dpi is 46 MP in all, 15.5 MP a page), the first frame of anything else. Shared by convert → pdf and merge.
 * @throws TaskError from the engine (OPEN_FAILED, OVER_BUDGET, …) naming the file and page
 */
export async function pngPages(
  ctx: OperationContext,
  image: UsedEngine<"image">,
  bytes: Uint8Array,
  format: string,
  filename: string,
): Promise<PageImage[]> {
  const pages = format === "tiff" ? tiffPages(bytes) : 1;
  const out: PageImage[] = [];
  for (let frame = 0; frame < pages; frame++) {
    throwIfAborted(ctx.signal);
    const r = await engineCall(
      image.engine.run({
        op: "convert",
        input: bytes,
        inputFormat: format as never,
        outputFormat: "png",
        options: format === "tiff" ? { frame } : {},
      }),
      pages > 1 ? `${filename} (page ${frame + 1})` : filename,
      image.row.name,
    );
    for (const o of r.outputs) out.push({ data: await heldBytes(o.data), ...(o.ppi ? { ppi: o.ppi } : {}) });
  }
  return out;
}

/**
 * Every input to a PDF, with a text layer when `ocr` is given.
 * @throws TaskError from the engines (OPEN_FAILED, OVER_BUDGET, …) naming the file
 */
async function imagesToPdf(
  inputs: InputFile[],
  p: Params & CommonParams,
  ctx: OperationContext,
  ocr?: UsedEngine<"ocr">,
): Promise<{ files: OutputFile[]; report: Record<string, unknown>[]; version?: string }> {
  const pdf = useEngine(ctx, "pdf", "merge");
  const languages = languagesOf(p.language);
  const files: OutputFile[] = [];
  const report: Record<string, unknown>[] = [];
  let version: string | undefined;
  for (const [i, file] of inputs.entries()) {
    throwIfAborted(ctx.signal);
    const pages = await pageImages(ctx, file, await readInput(file, ctx, pdf.row), p.input_format);
    const name = outputName({ filename: p.filename, input: file.filename, ext: "pdf", index: i + 1, numbered: false });
    const docs: PdfInput[] = pages.map((pg, n) => ({
      data: pg.data,
      filename: pages.length > 1 ? `${file.filename} page ${n + 1}` : file.filename,
      ...(pg.ppi ? { ppi: pg.ppi } : {}),
    }));
    const merged = await engineCall(pdf.engine.merge?.({ inputs: docs, filename: name }), file.filename, pdf.row.name);
    version ??= merged.engineVersion;
    if (!ocr) {
      files.push(pdfFile(name, merged.data));
      continue;
    }
    // merged from bytes, so bytes (or a small stream) back
    const input = { data: await heldBytes(merged.data), filename: name };
    const info = (await engineCall(pdf.engine.pageInfo?.({ input }), file.filename, pdf.row.name)).pages;
    const layers: { page: number; words: TextLayerWord[] }[] = [];
    const rotations: Record<number, number> = {};
    for (const [n, pg] of pages.entries()) {
      throwIfAborted(ctx.signal);
      const page = info[n]!;
      const words = await engineCall(
        ocr.engine.recognize({
          image: pg.data,
          filename: docs[n].filename,
          languages,
          ...(pg.ppi ? { dpi: pg.ppi } : {}),
        }),
        file.filename,
        ocr.row.name,
      );
      version = words.engineVersion;
      // word boxes are pixels of the image as given: its resolution on the page, whatever the page
      // size came from (its ppi, 72, or the 14 400 pt cap)
      layers.push({
        page: n + 1,
        words: toDisplayWords(words, (72 * (words.width || page.width)) / page.width, page.height),
      });
      if (words.rotation) rotations[n + 1] = words.rotation;
      ctx.progress?.(((i + (n + 1) / pages.length) / inputs.length) * 100);
    }
    const out = await engineCall(pdf.engine.textLayer?.({ input, pages: layers }), file.filename, pdf.row.name);
    files.push(pdfFile(name, out.data));
    report.push({
      file: file.filename,
      pages: pages.map((_, n) => n + 1),
      ppi: [...new Set(pages.map((pg) => pg.ppi ?? 72))],
      words: out.words,
      ...(Object.keys(rotations).length ? { rotated_pages: rotations } : {}),
    });
  }
  return { files, report, version };
}

const base = {
  operation: "convert",
  formats: IMAGE_PDF_INPUTS.map((input) => ({ input, output: "pdf" })),
  params,
  credits: 1,
  takesInput: true,
  requiresOutputFormat: true,
  check: (p: Params) => (p.ocr ? checkLanguages(p.language) : []),
} as const;

/** image → pdf by the PDF engine; `ocr: true` is passed on to the OCR rows. */
export const imagePdf: OperationHandler<Params> = {
  ...base,
  kind: "pdf",
  async run(inputs, p, ctx) {
    if (p.ocr) throw new TaskError("UNSUPPORTED", "OCR is done by the OCR engines.");
    const pdf = useEngine(ctx, "pdf", "merge");
    const r = await imagesToPdf(inputs, p, ctx);
    return { files: r.files, engine: { name: pdf.row.name, version: r.version ?? pdf.row.version } };
  },
};

/** The TIFF inputs of image → pdf (a TIFF's extension, either spelling), the pairs {@link imagePdfStreamed} takes. */
export const TIFF_PDF_PAIRS = [
  { input: "tiff", output: "pdf" },
  { input: "tif", output: "pdf" },
] as const;

/**
 * tiff → pdf over pdf-lib's budget (issue 49: a 300 MB scan) by a native image row that takes streams (the libtiff
 * row's tiff2pdf, every page kept): the scan goes to it as a stream and the PDF comes back as one, held whole by neither
 * side. A fallback route (types.ts), so pdf-lib and the OCR rows come first and keep the scans they can hold. Only the
 * libtiff row lists tiff → pdf among the image rows (registry.ts: the ImageMagick rows would write a TIFF's first page
 * only); where it is absent the task's error stays the OVER_BUDGET that named pdf-lib's limit. No OCR here (the OCR
 * rows' handler does it).
 */
export const imagePdfStreamed: OperationHandler<Params> = {
  ...base,
  formats: [...TIFF_PDF_PAIRS],
  kind: "image",
  fallback: true,
  async run(inputs, p, ctx) {
    if (p.ocr) throw new TaskError("UNSUPPORTED", "OCR of an image → pdf is done by the OCR engines.");
    const image = useEngine(ctx, "image", "convert", { input: "tiff", output: "pdf" });
    return eachImage(image, ctx, "convert", inputs, p, () => ({ outputFormat: "pdf", options: {} }));
  },
};

/** image → pdf with a text layer by the OCR engine (tesseract), the PDF built by the PDF engine. */
export const imagePdfOcr: OperationHandler<Params> = {
  ...base,
  kind: "ocr",
  async run(inputs, p, ctx) {
    const ocr = useEngine(ctx, "ocr", "convert");
    const r = await imagesToPdf(inputs, p, ctx, p.ocr ? ocr : undefined);
    return {
      files: r.files,
      ...(p.ocr
        ? { extra: { ocr: r.report.length === 1 ? r.report[0] : r.report, language: languagesOf(p.language) } }
        : {}),
      engine: {
        name: p.ocr ? ocr.row.name : useEngine(ctx, "pdf", "merge").row.name,
        version: r.version ?? ocr.row.version,
      },
    };
  },
};
