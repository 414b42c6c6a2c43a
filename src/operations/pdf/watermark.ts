/**
 * watermark on PDFs: text and/or an image (JPEG/PNG from the task named by `image`), on the pages
 * of `pages`, above or below the page content, with opacity, rotation, position and margins
 * (watermark-params.ts), drawn by the routed PDF engine (engines/kinds/pdf.ts `watermark`).
 *
 * pdf-lib draws on the document within its budget. A larger PDF goes to the native qpdf (issue 49), which cannot draw:
 * it reads the pages' displayed frames (`pageFrames`, the input streamed), pdf-lib draws the same watermark on one blank
 * page per distinct frame (`stamp`, a few KB), and qpdf lays those on the pages (`watermark` with `stamp`, the input
 * streamed again: --overlay, or --underlay for layer below), so each page gets what pdf-lib would have drawn on it.
 */
import { TaskError, toFailure } from "../../engines/errors";
import type { PdfEngine, PdfPagesOut, PdfStreamableInput, PdfWatermark } from "../../engines/kinds/pdf";
import { resolvePageSet } from "../../engines/kinds/pdf-pages";
import { useEngine, useEngineWhere } from "../../engines/use";
import { engineCall, readInput } from "../kit";
import type { OperationContext, OperationHandler } from "../types";
import { perDocumentStreamed, PDF_TO_PDF } from "./common";
import { checkWatermark, watermarkParams, type WatermarkParams } from "./watermark-params";

type Image = { data: Uint8Array; filename: string };

/**
 * Most distinct page frames one stamp is drawn for: pdf-lib draws the stamp in the Worker, a page a frame, so a
 * document whose pages come in more sizes than this (a hostile one: every page its own) is OVER_BUDGET.
 */
export const MAX_STAMP_FRAMES = 500;

/**
 * The watermark laid by an engine that cannot draw one (the native qpdf): the frames of `input`, the stamp pdf-lib
 * draws for them, and the call that lays it on `again()` (the input read once more). Its steps' errors come back as
 * a failure as data (ENGINE_UNAVAILABLE when no engine here draws stamps, OVER_BUDGET past MAX_STAMP_FRAMES, the
 * engines' codes: OPEN_FAILED, INVALID_PAGES…), as an engine's would.
 */
async function stamped(
  ctx: OperationContext,
  engine: PdfEngine,
  rowName: string,
  input: PdfStreamableInput,
  again: () => Promise<PdfStreamableInput>,
  mark: PdfWatermark,
  image: Image | undefined,
): Promise<PdfPagesOut> {
  try {
    return await stampSteps(ctx, engine, rowName, input, again, mark, image);
  } catch (err) {
    if (!(err instanceof TaskError)) throw err;
    return { ok: false, error: toFailure(err), engineVersion: "" };
  }
}

/** The steps of {@link stamped}. @throws TaskError */
async function stampSteps(
  ctx: OperationContext,
  engine: PdfEngine,
  rowName: string,
  input: PdfStreamableInput,
  again: () => Promise<PdfStreamableInput>,
  mark: PdfWatermark,
  image: Image | undefined,
): Promise<PdfPagesOut> {
  const drawer = useEngineWhere(ctx, "pdf", "watermark", (e) => !!e.stamp);
  if (!drawer)
    throw new TaskError("ENGINE_UNAVAILABLE", `No engine here draws the watermark ${rowName} lays on large PDFs.`);
  const { pages: frames } = await engineCall(engine.pageFrames?.({ input }), "", rowName);
  const selected = new Set(resolvePageSet(mark.pages, frames.length, input.filename));
  const distinct: { width: number; height: number }[] = [];
  const index = new Map<string, number>();
  const pages = frames.map((f, i) => {
    if (!selected.has(i + 1)) return 0;
    const key = `${f.width.toFixed(2)}x${f.height.toFixed(2)}`;
    if (!index.has(key)) index.set(key, distinct.push({ width: f.width, height: f.height }));
    return index.get(key)!;
  });
  if (distinct.length > MAX_STAMP_FRAMES)
    throw new TaskError(
      "OVER_BUDGET",
      `${input.filename} has pages of ${distinct.length} sizes; a watermark of a PDF this large is drawn for at most ${MAX_STAMP_FRAMES}.`,
    );
  const stamp = distinct.length
    ? await engineCall(drawer.engine.stamp?.({ frames: distinct, mark, image }), "", drawer.row.name)
    : { data: new Uint8Array() };
  const result = await engine.watermark?.({
    input: await again(),
    mark,
    stamp: { data: stamp.data, pages, ...(mark.layer === "below" ? { below: true } : {}) },
  });
  if (!result) throw new TaskError("UNSUPPORTED", `The ${rowName} engine does not offer watermark.`);
  return result;
}

export const watermarkPdf: OperationHandler<WatermarkParams> = {
  operation: "watermark",
  ...PDF_TO_PDF,
  params: watermarkParams,
  taskRefs: ["image"],
  check: checkWatermark,
  async run(inputs, p, ctx) {
    let image: Image | undefined;
    if (p.image) {
      const files = await ctx.taskFiles(p.image);
      if (files.length === 0)
        throw new TaskError("FILE_NOT_FOUND", `image: task ${p.image} has no file to use as the watermark image.`);
      // under the budget of the engine that draws it: pdf-lib, also where it draws the stamp the native qpdf lays
      const drawer = useEngineWhere(ctx, "pdf", "watermark", (e) => !!e.stamp);
      const { row } = drawer ?? useEngine(ctx, "pdf", "watermark");
      image = { filename: files[0].filename, data: await readInput(files[0], ctx, row, "watermark image") };
    }
    const { image: _task, password, ...mark } = p;
    return perDocumentStreamed(
      "watermark",
      inputs,
      p,
      ctx,
      (engine, input, again, row) =>
        engine.stamp || !engine.pageFrames
          ? engine.watermark?.({ input, mark, ...(image ? { image } : {}) })
          : stamped(ctx, engine, row.name, input, again, mark, image),
      password,
      // read twice there: streamed both times, never two copies held
      (row) => row.placement === "native",
    );
  },
};
