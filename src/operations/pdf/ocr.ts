/**
 * pdf/ocr (contract §6 "pdf/ocr": adds an OCR text layer to scanned PDFs; `language` an array of
 * tesseract codes): every selected page without text is rendered by the PDF rasterizer (PDFium)
 * at a resolution chosen from its size within the OCR pixel budget (`dpi` below), recognised by the
 * routed OCR engine (tesseract in WebAssembly; native tesseract for the languages it lacks), and
 * the words are laid on the original page as invisible text (pdflib/text-layer.ts), so the page
 * looks exactly as before and becomes searchable and selectable. Pages that already carry text
 * (their resources name a font) are left alone unless `force_ocr`; a PDF with nothing to do comes
 * back byte for byte. A page whose text is turned (90/180/270) is recognised upright (the engine's
 * orientation detection) and its words laid along their real baseline; with `auto_orient` (CloudConvert's
 * pdf/ocr option, seen in the n8n node) such a page is also turned upright by its /Rotate (the content is not
 * re-encoded), as OCRmyPDF's --rotate-pages does, and `result.ocr.oriented_pages` names each page so turned.
 *
 * Budgets: at most {@link OCR_MAX_PAGES} pages per input on a WebAssembly engine (each page is ~0.3–
 * 1.5 s of recognition). The resolution is chosen page by page (issue 31): 300 ppi, lowered until the
 * rendered page fits the pixels of the engine that reads it — {@link OCR_MAX_PIXELS} for tesseract in
 * WebAssembly (its memory grows with the page: 300 dpi Letter ≈ 95 MB of WASM memory, wasm-engines.md),
 * {@link OCR_NATIVE_MAX_PIXELS} for native tesseract, and never more than the rasterizer renders
 * (PDFium: 2.2 MP a page since issue 49). A page the
 * WebAssembly engine could only read below {@link OCR_GOOD_DPI} goes, alone, to the native OCR engine
 * when this host has one (at its higher resolution); without one it is read in WebAssembly down to
 * {@link OCR_MIN_DPI}. Only a page that does not fit even at OCR_MIN_DPI within every engine's budget
 * makes this handler OVER_BUDGET, as does a PDF over pdf-lib's budget; routing then hands the task to pdf/ocr's native
 * twin (ocr-native.ts: OCRmyPDF on the whole PDF, issue 49) where the native engine has it. `result.ocr.dpi` and
 * `result.ocr.engines` say, page by page, what was used.
 */
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import type { OcrEngine, OcrPage } from "../../engines/kinds/ocr";
import { resolvePageSet } from "../../engines/kinds/pdf-pages";
import type { PdfPageInfo, TextLayerWord } from "../../engines/kinds/pdf";
import { hasEngine, useEngine, type EngineAccess, type UsedEngine } from "../../engines/use";
import { enginesFor, HAND_OFF_CODES } from "../../engines/routing";
import { engineCall, heldBytes, outputName, readInput, throwIfAborted } from "../kit";
import type { OperationHandler, OutputFile } from "../types";
import { boolParam, checkPagesParam, pagesParam, passwordParam, pdfFile, requirePdfInputs } from "./common";
import { checkLanguages, languageParam, languagesOf } from "./ocr-languages";

/** Most pages OCRed per input on an in-Worker (WebAssembly) engine. */
export const OCR_MAX_PAGES = 200;
/**
 * Largest rendered page in pixels handed to the WebAssembly OCR engine: its budget, 2 MP since issue 49 (≈ Letter at
 * 150 dpi; src/engines/tesseract/types.ts; it was 6 MP, ≈ Letter at 250 dpi).
 */
export const OCR_MAX_PIXELS = 2_000_000;
/**
 * Largest rendered page in pixels handed to a native OCR engine. The page rasterizer's own per-page
 * budget (its row's `budget.maxPagePixels`: PDFium's 2.2 MP since issue 49, 8.8 MB of RGBA) bounds every engine below this.
 */
export const OCR_NATIVE_MAX_PIXELS = 24_000_000;
/** Preferred rendering resolution (tesseract's best accuracy is at 300 ppi). */
export const OCR_DPI = 300;
/**
 * Below this resolution a page is handed to the native OCR engine when the host has one (it reads
 * twice the pixels): body text (10–12 pt) keeps an x-height of ~7 px or more at 100 ppi.
 */
export const OCR_GOOD_DPI = 100;
/**
 * The lowest resolution any page is read at; a page that does not fit an engine's pixels even here is
 * OVER_BUDGET. At 72 ppi a pixel is a point: text of 20 pt and more — what pages of poster or drawing
 * size carry — still has an x-height above tesseract's ~10 px (OCRmyPDF's 30-inch page of 40 pt text
 * reads the same at 72 ppi as at 300), while below it a pixel is coarser than the PDF's own unit and
 * even large text breaks up. Within 2.2 MP it admits every page up to 20 × 20 in (issue 49; it was 48 × 48 in at PDFium's former 12 MP).
 */
export const OCR_MIN_DPI = 72;

/** pdf/ocr's parameters (contract §6), shared by its native whole-document handler (ocr-native.ts). */
export const ocrParams = z.object({
  language: languageParam,
  force_ocr: boolParam.describe("Also OCR pages that already carry text (their text layer is added to, not replaced)"),
  pages: pagesParam,
  password: passwordParam,
  auto_orient: boolParam.describe(
    "Turn pages whose text the OCR engine finds turned by 90, 180 or 270 degrees upright (their /Rotate); default false",
  ),
});
/** pdf/ocr's parameters as parsed. */
export type OcrParams = z.infer<typeof ocrParams>;

/** Pixels of a page of `info`'s size rendered at `dpi` (PDFium rounds each side up, as pdftoppm does). */
const pixelsAt = (info: PdfPageInfo, dpi: number) =>
  Math.max(1, Math.ceil((info.width * dpi) / 72 - 1e-6)) * Math.max(1, Math.ceil((info.height * dpi) / 72 - 1e-6));

/** The highest resolution, at most {@link OCR_DPI}, at which a page of `info`'s size has at most `maxPixels` pixels (0 when none). */
export function fitDpi(info: PdfPageInfo, maxPixels: number): number {
  const squareInches = (info.width / 72) * (info.height / 72);
  let dpi = Math.min(OCR_DPI, Math.floor(Math.sqrt(maxPixels / Math.max(squareInches, 1e-6))));
  while (dpi > 0 && pixelsAt(info, dpi) > maxPixels) dpi--;
  return Math.max(0, dpi);
}

/** The resolution a page of `info`'s size is rendered at: 300 ppi, lowered to fit `maxPixels`. @throws TaskError OVER_BUDGET below OCR_MIN_DPI */
export function ocrDpi(info: PdfPageInfo, page: number, filename: string, maxPixels = OCR_MAX_PIXELS): number {
  const dpi = fitDpi(info, maxPixels);
  if (dpi < OCR_MIN_DPI) throw overBudget(info, page, filename, maxPixels);
  return dpi;
}

function overBudget(info: PdfPageInfo, page: number, filename: string, maxPixels: number): TaskError {
  const w = Math.ceil((info.width * OCR_MIN_DPI) / 72);
  const h = Math.ceil((info.height * OCR_MIN_DPI) / 72);
  return new TaskError(
    "OVER_BUDGET",
    `${filename} page ${page} is ${Math.round(info.width)}×${Math.round(info.height)} pt; even at ${OCR_MIN_DPI} ppi it would be ${w}×${h} pixels, over the ${maxPixels / 1e6} megapixels this OCR engine reads.`,
  );
}

/** How one page is read: by the task's engine or by `other` (a native OCR engine), at `dpi`. */
export interface OcrPagePlan {
  dpi: number;
  other: boolean;
  /** The task's engine's resolution, when `other` is chosen and the task's engine can still read the page (a fallback). */
  ownDpi?: number;
}

/**
 * The engine and resolution of one page (module comment): the task's engine within its pixels (`own`),
 * unless that means less than {@link OCR_GOOD_DPI} and another, larger OCR engine is here (`other`:
 * its pixels), which then reads the page at its higher resolution.
 * @throws TaskError OVER_BUDGET when no engine here reads the page at OCR_MIN_DPI or more
 */
export function planPage(
  info: PdfPageInfo,
  page: number,
  filename: string,
  budget: { own: number; other?: number },
): OcrPagePlan {
  const own = fitDpi(info, budget.own);
  if (own >= OCR_GOOD_DPI || budget.other === undefined || fitDpi(info, budget.other) <= own)
    return { dpi: ocrDpi(info, page, filename, budget.own), other: false };
  const dpi = ocrDpi(info, page, filename, budget.other);
  return { dpi, other: true, ...(own >= OCR_MIN_DPI ? { ownDpi: own } : {}) };
}

/** The first native OCR engine of this host in routing order (it reads larger pages than the WebAssembly one), if any. */
function largerOcr(ctx: EngineAccess): UsedEngine<"ocr"> | undefined {
  for (const row of enginesFor({ kind: "ocr", operation: "pdf/ocr", order: ctx.engineOrder })) {
    if (row.placement === "native" && hasEngine(ctx, row.name))
      return useEngine({ ...ctx, route: row.name }, "ocr", "pdf/ocr");
  }
  return undefined;
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

/**
 * `auto_orient`: the clockwise turn (90/180/270, added to a page's /Rotate) that shows each page upright whose text
 * the OCR engine found turned by `rotations[page]` degrees clockwise on the page as displayed.
 */
export function uprightTurns(rotations: Record<number, number>): Record<number, number> {
  const turns: Record<number, number> = {};
  for (const [page, rotation] of Object.entries(rotations)) {
    const turn = (360 - (rotation % 360)) % 360;
    if (turn) turns[Number(page)] = turn;
  }
  return turns;
}

/** Adds `turns[page]` degrees clockwise to each page's /Rotate (one rotate call per distinct turn); the bytes unchanged when there is none. */
async function orientPages(
  pdf: UsedEngine<"pdf">,
  input: { data: Uint8Array; filename: string },
  turns: Record<number, number>,
): Promise<Uint8Array> {
  let data = input.data;
  for (const turn of [...new Set(Object.values(turns))]) {
    const pages = Object.keys(turns).filter((n) => turns[Number(n)] === turn);
    const rotate = pdf.engine.rotate?.({
      input: { data, filename: input.filename },
      rotation: turn,
      pages: pages.join(","),
    });
    data = await heldBytes((await engineCall(rotate, input.filename, pdf.row.name)).data);
  }
  return data;
}

export const ocrPdf: OperationHandler<OcrParams> = {
  operation: "pdf/ocr",
  kind: "ocr",
  formats: [{ input: "pdf", output: "pdf" }],
  params: ocrParams,
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
    // a larger OCR engine of this host that may take the pages the WebAssembly one would read too coarsely
    const larger = native ? undefined : largerOcr(ctx);
    const rasterMax = raster.row.budget.maxPagePixels ?? Infinity;
    const budget = {
      own: Math.min(native ? OCR_NATIVE_MAX_PIXELS : OCR_MAX_PIXELS, rasterMax),
      ...(larger ? { other: Math.min(OCR_NATIVE_MAX_PIXELS, rasterMax) } : {}),
    };
    const files: OutputFile[] = [];
    const report: Record<string, unknown>[] = [];
    let version = ocr.row.version;
    let otherVersion: string | undefined;
    let ownUsed = false;
    for (const [i, file] of inputs.entries()) {
      throwIfAborted(ctx.signal);
      const input = { data: await readInput(file, ctx, pdf.row), filename: file.filename, password: p.password };
      const info = (await engineCall(pdf.engine.pageInfo?.({ input }), file.filename, pdf.row.name)).pages;
      const selected = resolvePageSet(p.pages, info.length, file.filename);
      const todo = selected.filter((n) => p.force_ocr || !info[n - 1]!.hasText);
      // every page's engine and resolution before any work: a page no engine here can read ends the task at once
      const plans = new Map(todo.map((n) => [n, planPage(info[n - 1]!, n, file.filename, budget)]));
      const ownPages = todo.filter((n) => !plans.get(n)!.other).length;
      if (!native && ownPages > OCR_MAX_PAGES) {
        throw new TaskError(
          "OVER_BUDGET",
          `${file.filename} has ${ownPages} pages to OCR; the ${ocr.row.name} engine takes up to ${OCR_MAX_PAGES} per file.`,
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
      const dpis: Record<number, number> = {};
      const engines: Record<number, string> = {};
      const rotations: Record<number, number> = {};
      const render = async (n: number, dpi: number) => {
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
        return heldBytes(image.png);
      };
      const recognize = (engine: OcrEngine, image: Uint8Array, n: number, dpi: number) =>
        engine.recognize({ image, filename: `${file.filename} page ${n}`, languages, dpi, orient: p.auto_orient });
      for (const n of todo) {
        throwIfAborted(ctx.signal);
        const page = info[n - 1]!;
        const plan = plans.get(n)!;
        let dpi = plan.dpi;
        let used = ocr.row;
        let answer: Awaited<ReturnType<OcrEngine["recognize"]>> | undefined;
        if (plan.other && larger) {
          const image = await render(n, dpi);
          const r = await engineCall(recognize(larger.engine, image, n, dpi), file.filename, larger.row.name).catch(
            (err: unknown) => {
              // the larger engine cannot take it (not deployed, no such tool): this one reads it at its own resolution
              if (err instanceof TaskError && HAND_OFF_CODES.has(err.code) && plan.ownDpi) return undefined;
              throw err;
            },
          );
          if (r) {
            answer = r;
            used = larger.row;
            otherVersion = r.engineVersion;
          } else dpi = plan.ownDpi!;
        }
        if (!answer) {
          answer = await engineCall(recognize(ocr.engine, await render(n, dpi), n, dpi), file.filename, ocr.row.name);
          version = answer.engineVersion;
          ownUsed = true;
        }
        const words = answer as Extract<typeof answer, { ok: true }>;
        layers.push({ page: n, words: toDisplayWords(words, dpi, page.height) });
        ctx.progress?.(((i + layers.length / todo.length) / inputs.length) * 100);
        dpis[n] = dpi;
        engines[n] = used.name;
        if (words.rotation) rotations[n] = words.rotation;
      }
      const out = await engineCall(pdf.engine.textLayer?.({ input, pages: layers }), file.filename, pdf.row.name);
      const oriented = p.auto_orient ? uprightTurns(rotations) : {};
      const data = await orientPages(pdf, { data: out.data, filename: file.filename }, oriented);
      files.push(pdfFile(name, data));
      report.push({
        file: file.filename,
        pages: todo,
        skipped_pages_with_text: skipped,
        dpi: dpis,
        engines,
        words: out.words,
        ...(Object.keys(rotations).length ? { rotated_pages: rotations } : {}),
        ...(p.auto_orient ? { oriented_pages: oriented } : {}),
      });
    }
    return {
      files,
      extra: { ocr: report.length === 1 ? report[0] : report, language: languages },
      // the engine that read the pages; the larger one when it read every page
      engine:
        !ownUsed && larger && otherVersion
          ? { name: larger.row.name, version: otherVersion }
          : { name: ocr.row.name, version },
    };
  },
};
