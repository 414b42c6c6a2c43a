/**
 * pdf/ocr (contract §6 "pdf/ocr": adds an OCR text layer to scanned PDFs; `language` an array of
 * tesseract codes): every selected page without text is rendered by the PDF rasterizer (PDFium)
 * at a resolution chosen from its size within the OCR pixel budget (`dpi` below), recognised by the
 * routed OCR engine (tesseract in WebAssembly; native tesseract for the languages it lacks), and
 * the words are laid on the original page as invisible text (pdflib/text-layer.ts), so the page
 * looks exactly as before and becomes searchable and selectable. Pages that already carry text
 * (their resources name a font) are left alone unless `force_ocr`; a PDF with nothing to do comes
 * back byte for byte. A page whose text is turned (90/180/270) is recognised upright (the engine's
 * orientation detection) and its words laid along their real baseline.
 *
 * Budgets: at most {@link OCR_MAX_PAGES} pages per input on a WebAssembly engine (each page is ~0.3–
 * 1.5 s of recognition), pages rendered at ≤ {@link OCR_MAX_PIXELS} pixels (tesseract's memory
 * grows with the page: 300 dpi Letter ≈ 95 MB of WASM memory, wasm-engines.md), never below
 * {@link OCR_MIN_DPI}; beyond either the task is OVER_BUDGET, which hands it to the native engine.
 */
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import type { OcrPage } from "../../engines/kinds/ocr";
import { resolvePageSet } from "../../engines/kinds/pdf-pages";
import type { PdfPageInfo, TextLayerWord } from "../../engines/kinds/pdf";
import { useEngine } from "../../engines/use";
import { engineCall, outputName, readInput, throwIfAborted } from "../kit";
import type { OperationHandler, OutputFile } from "../types";
import { boolParam, checkPagesParam, pagesParam, passwordParam, pdfFile, requirePdfInputs } from "./common";
import { checkLanguages, languageParam, languagesOf } from "./ocr-languages";

/** Most pages OCRed per input on an in-Worker (WebAssembly) engine. */
export const OCR_MAX_PAGES = 200;
/** Largest rendered page in pixels handed to the WebAssembly OCR engine (≈ Letter at 250 dpi). */
export const OCR_MAX_PIXELS = 6_000_000;
/** Preferred rendering resolution (tesseract's best accuracy is at 300 ppi). */
export const OCR_DPI = 300;
/** Below this resolution recognition degrades too far: such pages are over budget instead. */
export const OCR_MIN_DPI = 100;

const params = z.object({
  language: languageParam,
  force_ocr: boolParam.describe("Also OCR pages that already carry text (their text layer is added to, not replaced)"),
  pages: pagesParam,
  password: passwordParam,
});
type OcrParams = z.infer<typeof params>;

/** The resolution a page of `info`'s size is rendered at: 300 ppi, lowered to fit {@link OCR_MAX_PIXELS}. @throws TaskError OVER_BUDGET below OCR_MIN_DPI */
export function ocrDpi(info: PdfPageInfo, page: number, filename: string, maxPixels = OCR_MAX_PIXELS): number {
  const squareInches = (info.width / 72) * (info.height / 72);
  const dpi = Math.min(OCR_DPI, Math.floor(Math.sqrt(maxPixels / Math.max(squareInches, 1e-6))));
  if (dpi < OCR_MIN_DPI) {
    throw new TaskError(
      "OVER_BUDGET",
      `${filename} page ${page} is ${Math.round(info.width)}×${Math.round(info.height)} pt; at ${OCR_MIN_DPI} ppi it would be over the ${OCR_MAX_PIXELS} pixels this OCR engine reads.`,
    );
  }
  return dpi;
}

/**
 * The words of an OCR result (pixels of the page image, y down) in page-display points (y up):
 * scale 72/dpi; the baseline angle is the text's clockwise turn on the image, counted back.
 */
export function toDisplayWords(page: OcrPage, dpi: number, displayHeight: number): TextLayerWord[] {
  const s = 72 / dpi;
  const angle = (360 - page.rotation) % 360;
  return page.words.map((w) => ({
    text: w.text,
    x0: w.x0 * s,
    x1: w.x1 * s,
    y0: displayHeight - w.y1 * s,
    y1: displayHeight - w.y0 * s,
    angle,
  }));
}

export const ocrPdf: OperationHandler<OcrParams> = {
  operation: "pdf/ocr",
  kind: "ocr",
  formats: [{ input: "pdf", output: "pdf" }],
  params,
  credits: 1,
  takesInput: true,
  check: (p) => [...checkLanguages(p.language), ...checkPagesParam(p)],
  async run(inputs, p, ctx) {
    requirePdfInputs(inputs, "pdf/ocr", p.input_format);
    const ocr = useEngine(ctx, "ocr", "pdf/ocr");
    const pdf = useEngine(ctx, "pdf", "pdf/ocr");
    const raster = useEngine(ctx, "pdf", "convert", { input: "pdf", output: "png" });
    const languages = languagesOf(p.language);
    const native = ocr.row.placement === "native";
    const files: OutputFile[] = [];
    const report: Record<string, unknown>[] = [];
    let version = ocr.row.version;
    for (const [i, file] of inputs.entries()) {
      throwIfAborted(ctx.signal);
      const input = { data: await readInput(file, ctx, pdf.row), filename: file.filename, password: p.password };
      const info = (await engineCall(pdf.engine.pageInfo?.({ input }), file.filename, pdf.row.name)).pages;
      const selected = resolvePageSet(p.pages, info.length, file.filename);
      const todo = selected.filter((n) => p.force_ocr || !info[n - 1]!.hasText);
      if (!native && todo.length > OCR_MAX_PAGES) {
        throw new TaskError(
          "OVER_BUDGET",
          `${file.filename} has ${todo.length} pages to OCR; the ${ocr.row.name} engine takes up to ${OCR_MAX_PAGES} per file.`,
        );
      }
      const name = outputName({
        filename: p.filename,
        input: file.filename,
        ext: "pdf",
        index: i + 1,
        numbered: false,
      });
      const skipped = selected.filter((n) => !todo.includes(n));
      if (todo.length === 0) {
        files.push(pdfFile(name, input.data));
        report.push({ file: file.filename, pages: [], skipped_pages_with_text: skipped });
        continue;
      }
      const layers: { page: number; words: TextLayerWord[] }[] = [];
      const dpis: number[] = [];
      const rotations: Record<number, number> = {};
      for (const n of todo) {
        throwIfAborted(ctx.signal);
        const page = info[n - 1]!;
        const dpi = ocrDpi(page, n, file.filename, native ? 4 * OCR_MAX_PIXELS : OCR_MAX_PIXELS);
        const rendered = await engineCall(
          raster.engine.rasterize?.({
            input: input.data,
            filename: file.filename,
            password: p.password,
            pages: [{ from: n, to: n }],
            density: dpi,
          }),
          file.filename,
          raster.row.name,
        );
        const image = rendered.pages[0];
        if (!image)
          throw new TaskError("CONVERSION_FAILED", `${file.filename} page ${n} could not be rendered for OCR.`);
        const words = await engineCall(
          ocr.engine.recognize({ image: image.png, filename: `${file.filename} page ${n}`, languages, dpi }),
          file.filename,
          ocr.row.name,
        );
        version = words.engineVersion;
        layers.push({ page: n, words: toDisplayWords(words, dpi, page.height) });
        ctx.progress?.(((i + layers.length / todo.length) / inputs.length) * 100);
        dpis.push(dpi);
        if (words.rotation) rotations[n] = words.rotation;
      }
      const out = await engineCall(pdf.engine.textLayer?.({ input, pages: layers }), file.filename, pdf.row.name);
      files.push(pdfFile(name, out.data));
      report.push({
        file: file.filename,
        pages: todo,
        skipped_pages_with_text: skipped,
        dpi: [...new Set(dpis)],
        words: out.words,
        ...(Object.keys(rotations).length ? { rotated_pages: rotations } : {}),
      });
    }
    return {
      files,
      extra: { ocr: report.length === 1 ? report[0] : report, language: languages },
      engine: { name: ocr.row.name, version },
    };
  },
};
