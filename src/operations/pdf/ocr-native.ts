/**
 * pdf/ocr of whole PDFs on the native engine (issue 49): the twin of ocr.ts's page-by-page path for what it cannot hold —
 * a PDF over pdf-lib's budget (a 300 MB scanned book: the OCR rows' own budgets leave only this one) or a page over
 * PDFium's 2.2 MP (OCRmyPDF's 30-inch page, which ocr.ts answers OVER_BUDGET). A fallback handler (types.ts), so routing
 * tries the OCR rows' handler first and comes here only when it hands the task on (OVER_BUDGET, UNSUPPORTED); its rows
 * are the native ones of the pdf kind that offer pdf/ocr (`placement`: the native OCRmyPDF, container/engines/ocrmypdf.ts;
 * not pdf-lib, which offers pdf/ocr to lay ocr.ts's text layer).
 *
 * The PDF goes to the engine's folder as a stream over the row's threshold, is OCRed there a page at a time and comes
 * back as a stream: the Worker holds neither. Same parameters as ocr.ts: `language` (tesseract codes, joined with +),
 * `pages`, `password` (the PDF is decrypted first; the output is not encrypted), `force_ocr` (OCRmyPDF's --redo-ocr:
 * pages with text are OCRed too, their visible text kept), `auto_orient` (--rotate-pages). `result.ocr` says, per input,
 * the pages recognised and those left alone and why (OCRmyPDF's own log): with text, without images (vector pages, which
 * it would have to rasterize), or too large (over NATIVE_OCR_MAX_MEGAPIXELS); the last two also in `result.warnings`. An
 * input of which no page was read because those asked for are too large ends the task OVER_BUDGET.
 */
import { NATIVE_OCR_MAX_MEGAPIXELS } from "../../../native-protocol/pdf";
import { TaskError } from "../../engines/errors";
import type { PdfOcrReport } from "../../engines/kinds/pdf";
import { useEngine } from "../../engines/use";
import { engineCall, outputName, readInputOrStream, throwIfAborted } from "../kit";
import type { OperationHandler, OutputFile } from "../types";
import { pdfFile, requirePdfInputs } from "./common";
import { ocrParams, ocrPdf, type OcrParams } from "./ocr";
import { languagesOf } from "./ocr-languages";

/** `result.ocr` of one input from the engine's report (snake_case, as ocr.ts's), and the warnings it calls for. */
export function ocrResultOf(
  file: string,
  r: PdfOcrReport,
  engine: string,
  autoOrient: boolean,
): { report: Record<string, unknown>; warnings: string[] } {
  const warnings: string[] = [];
  if (r.skippedNoImages.length)
    warnings.push(
      `${file}: page(s) ${r.skippedNoImages.join(", ")} hold no image (vector content only) and were not OCRed: ${engine} would have to rasterize them.`,
    );
  if (r.skippedTooLarge.length)
    warnings.push(
      `${file}: page(s) ${r.skippedTooLarge.join(", ")} would render over ${NATIVE_OCR_MAX_MEGAPIXELS} megapixels, more than the ${engine} engine OCRs; left without OCR.`,
    );
  return {
    report: {
      file,
      pages: r.ocred,
      skipped_pages_with_text: r.skippedWithText,
      ...(r.skippedNoImages.length ? { skipped_pages_without_images: r.skippedNoImages } : {}),
      ...(r.skippedTooLarge.length ? { skipped_pages_too_large: r.skippedTooLarge } : {}),
      engines: Object.fromEntries(r.ocred.map((n) => [n, engine])),
      ...(autoOrient ? { oriented_pages: r.rotated } : {}),
    },
    warnings,
  };
}

/**
 * pdf/ocr's native whole-document handler (module comment): each input streamed to the routed native pdf row's `ocr`
 * (OCRmyPDF), its searchable PDF answered as it comes back.
 * @throws TaskError UNSUPPORTED (a row that does not OCR whole PDFs) | OVER_BUDGET (every asked page too large) | the
 *   engine's codes (OPEN_FAILED, INVALID_PASSWORD, INVALID_PAGES, TIMEOUT, CONVERSION_FAILED …)
 */
export const ocrPdfNative: OperationHandler<OcrParams> = {
  operation: "pdf/ocr",
  kind: "pdf",
  formats: [{ input: "pdf", output: "pdf" }],
  params: ocrParams,
  credits: 1,
  takesInput: true,
  fallback: true,
  placement: "native",
  check: ocrPdf.check,
  async run(inputs, p, ctx) {
    requirePdfInputs(inputs, "pdf/ocr", p.input_format);
    const { engine, row } = useEngine(ctx, "pdf", "pdf/ocr");
    if (row.placement !== "native" || !engine.ocr)
      throw new TaskError("UNSUPPORTED", `The ${row.name} engine does not OCR a whole PDF.`);
    const languages = languagesOf(p.language);
    const files: OutputFile[] = [];
    const reports: Record<string, unknown>[] = [];
    const warnings: string[] = [];
    let version = row.version;
    for (const [i, file] of inputs.entries()) {
      throwIfAborted(ctx.signal);
      const data = await readInputOrStream(file, ctx, row);
      const r = await engineCall(
        engine.ocr({
          input: { data, filename: file.filename, password: p.password },
          languages,
          pages: p.pages,
          redo: p.force_ocr,
          rotatePages: p.auto_orient,
        }),
        file.filename,
        row.name,
      );
      version = r.engineVersion;
      // nothing read because the pages asked for are too large: the task is over budget, not done (some read: a warning)
      if (r.report.skippedTooLarge.length && !r.report.ocred.length) {
        // the answer's file, streamed back unread, is let go
        if (!(r.data instanceof Uint8Array)) await r.data.stream.cancel().catch(() => {});
        throw new TaskError(
          "OVER_BUDGET",
          `${file.filename}: page(s) ${r.report.skippedTooLarge.join(", ")} would render over ${NATIVE_OCR_MAX_MEGAPIXELS} megapixels, more than the ${row.name} engine OCRs.`,
        );
      }
      const name = outputName({
        filename: p.filename,
        input: file.filename,
        ext: "pdf",
        index: i + 1,
        numbered: false,
      });
      files.push(pdfFile(name, r.data));
      const out = ocrResultOf(file.filename, r.report, row.name, !!p.auto_orient);
      reports.push(out.report);
      warnings.push(...out.warnings);
      ctx.progress?.(((i + 1) / inputs.length) * 100);
    }
    return {
      files,
      extra: {
        ocr: reports.length === 1 ? reports[0] : reports,
        language: languages,
        ...(warnings.length ? { warnings } : {}),
      },
      engine: { name: row.name, version },
    };
  },
};
