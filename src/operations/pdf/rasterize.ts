/**
 * convert pdf → png | jpg | webp with the routed PDF engine's `rasterize` (PDFium in the Worker; over its budget — a page
 * over 2.2 MP, a PDF over 12 MiB — the native pdftoppm, row poppler-raster, issue 49, its input streamed over 64 MiB and
 * its pages possibly answered as streams): one image per
 * page (all pages, or `pages`), at `pixel_density` ppi (default 150, pdftoppm's default;
 * CloudConvert documents none), or fitted to `width`/`height` by `fit` (the rasterizing engine's size rule).
 * Names: `<name>.png` for a one-page PDF, else `<name>-<page>.png` (page numbers, as pdftoppm), or
 * `filename` with `%d` = page number. PNG comes from the PDF engine; jpg/webp are re-encoded from
 * it by the image engine (`quality`) when this runtime has one, else the task fails with
 * ENGINE_UNAVAILABLE naming png as the way out.
 */
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import { parsePageList } from "../../engines/kinds/pdf-pages";
import type { RasterFit, RasterPage } from "../../engines/kinds/pdf";
import { enginesFor, HAND_OFF_CODES } from "../../engines/routing";
import { useEngine, useEngineWhere } from "../../engines/use";
import { engineCall, heldBytes, outputName, readInputOrStream, throwIfAborted } from "../kit";
import type { InputFile, OperationContext, OperationHandler, OperationOutput, OutputFile } from "../types";
import { checkPagesParam, pagesParam, passwordParam, requirePdfInputs } from "./common";

/** pdf → image outputs: png from the PDF engine, the others re-encoded from it by the image engine (issue 32: bmp, gif, tiff, ico, psd). */
export const RASTER_OUTPUTS = ["png", "jpg", "webp", "bmp", "gif", "tiff", "ico", "psd"] as const;
const MIME = {
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
  bmp: "image/bmp",
  gif: "image/gif",
  tiff: "image/tiff",
  ico: "image/vnd.microsoft.icon",
  psd: "image/vnd.adobe.photoshop",
} as const;
/** thumbnail outputs (CloudConvert's: png, jpg, webp), a subset of RASTER_OUTPUTS. */
export const THUMBNAIL_OUTPUTS = ["png", "jpg", "webp"] as const;
/** ICO holds images of at most 256 × 256 pixels: a page is fitted inside that unless width/height say otherwise. */
const ICO_SIDE = 256;
const side = z.coerce.number().int().min(1).max(16384).optional();

export const rasterParams = z.object({
  pages: pagesParam,
  pixel_density: z.coerce.number().int().min(1).max(2400).optional().describe("Pixels per inch (default 150)"),
  width: side.describe("Output width in pixels"),
  height: side.describe("Output height in pixels"),
  fit: z
    .enum(["max", "crop", "scale"])
    .optional()
    .describe(
      "max (default): inside width × height, never above pixel_density; crop: fill and crop; scale: exact size",
    ),
  quality: z.coerce.number().int().min(1).max(100).optional().describe("jpg/webp encoder quality"),
  password: passwordParam,
});
type RasterParams = z.infer<typeof rasterParams>;

/**
 * Re-encodes a rendered PNG as `format` with the image engines that convert png → `format`, in routing order: one that
 * hands the page on (OVER_BUDGET: a page the native pdftoppm drew over the WebAssembly ImageMagick's 24 MP, issue 49)
 * passes it to the next (imagemagick-native). ENGINE_UNAVAILABLE, naming png as the way out, when this runtime has none.
 */
async function reencode(
  ctx: OperationContext,
  page: RasterPage,
  format: Exclude<(typeof RASTER_OUTPUTS)[number], "png">,
  quality: number | undefined,
  filename: string,
): Promise<Uint8Array> {
  const offering = new Set(
    enginesFor({ kind: "image", operation: "convert", input: "png", output: format, order: ctx.engineOrder }).map(
      (r) => r.name,
    ),
  );
  const tried = new Set<string>();
  const input = await heldBytes(page.png);
  for (;;) {
    const image = useEngineWhere(ctx, "image", "convert", (_e, row) => offering.has(row.name) && !tried.has(row.name));
    if (!image) {
      if (tried.size)
        throw new TaskError("OVER_BUDGET", `${filename} page ${page.page}: no image engine here takes it.`);
      throw new TaskError(
        "ENGINE_UNAVAILABLE",
        `PDF to ${format} needs an image engine, which this runtime lacks; use output_format png.`,
      );
    }
    tried.add(image.row.name);
    try {
      const res = await engineCall(
        image.engine.run({
          op: "convert",
          input,
          inputFormat: "png",
          outputFormat: format,
          options: format === "jpg" || format === "webp" ? { quality } : {},
        }),
        `${filename} page ${page.page}`,
        image.row.name,
      );
      return heldBytes(res.outputs[0].data);
    } catch (err) {
      if (!(err instanceof TaskError) || !HAND_OFF_CODES.has(err.code)) throw err;
      const next = useEngineWhere(ctx, "image", "convert", (_e, r) => offering.has(r.name) && !tried.has(r.name));
      if (!next) throw err;
    }
  }
}

/** Options of {@link rasterizeInputs}. */
export interface RasterJob {
  format: (typeof RASTER_OUTPUTS)[number];
  params: RasterParams & { filename?: string; input_format?: string };
  density?: number;
  /** Render only the first N selected pages (thumbnail `count`). */
  limit?: number;
  /** Name by page number even for a single output (false: `<name>.<ext>` when one page results). */
  alwaysNumbered: boolean;
  /** Pages over the page budget at the default density are drawn at the density that fits (RasterRequest `fitPageBudget`). */
  fitPageBudget?: boolean;
}

/** Renders every input and names the outputs; shared by convert and thumbnail. */
export async function rasterizeInputs(
  inputs: InputFile[],
  job: RasterJob,
  ctx: OperationContext,
  operation: string,
): Promise<OperationOutput> {
  requirePdfInputs(inputs, operation, job.params.input_format);
  const { engine, row } = useEngine(ctx, "pdf", operation, { input: "pdf", output: job.format });
  const parsed = job.params.pages === undefined ? undefined : parsePageList(job.params.pages);
  if (parsed && "error" in parsed) throw new TaskError("INVALID_PAGES", checkPagesParam(job.params)[0]);
  const files: OutputFile[] = [];
  const warnings: string[] = [];
  let version = row.version;
  for (const [i, input] of inputs.entries()) {
    throwIfAborted(ctx.signal);
    const res = await engineCall(
      engine.rasterize?.({
        // issue 49: over 64 MiB a stream, for the native pdftoppm (its row's streamOver); PDFium's rows take bytes
        input: await readInputOrStream(input, ctx, row),
        filename: input.filename,
        pages: parsed?.ranges,
        limit: job.limit,
        density: job.density ?? job.params.pixel_density,
        ...(job.format === "ico" && !job.params.width && !job.params.height
          ? { width: ICO_SIDE, height: ICO_SIDE, fit: "max" as RasterFit }
          : { width: job.params.width, height: job.params.height, fit: job.params.fit as RasterFit | undefined }),
        password: job.params.password,
        ...(job.fitPageBudget ? { fitPageBudget: true } : {}),
      }),
      "",
      row.name,
    );
    version = res.engineVersion;
    for (const page of res.pages)
      if (page.fittedDensity)
        warnings.push(
          `${input.filename} page ${page.page} was drawn at ${page.fittedDensity} ppi, not the default 150: at 150 it would be over the ${row.name} engine's page budget. Set pixel_density, width or height to choose.`,
        );
    const single = !job.alwaysNumbered && res.pages.length === 1 && (res.pageCount === 1 || job.limit === 1);
    for (const page of res.pages) {
      throwIfAborted(ctx.signal);
      const data =
        job.format === "png" ? page.png : await reencode(ctx, page, job.format, job.params.quality, input.filename);
      const name = single
        ? outputName({
            filename: job.params.filename,
            input: input.filename,
            ext: job.format,
            index: i + 1,
            numbered: false,
          })
        : outputName({
            filename: job.params.filename,
            input: input.filename,
            ext: job.format,
            index: page.page,
            numbered: true,
          });
      files.push({ filename: name, data, contentType: MIME[job.format] });
    }
  }
  return { files, engine: { name: row.name, version }, ...(warnings.length ? { extra: { warnings } } : {}) };
}

/**
 * A pdf → image handler: convert and thumbnail differ only in their outputs, parameters, refusal message and how a
 * task's parameters become a {@link RasterJob}; the rest (pairs, credits, the pages check, rendering) is this.
 * The task's format is its output_format (png when none is given); one `outputs` does not hold ends
 * INVALID_CONVERSION_TYPE with `refusal(format)` as its message.
 */
export function rasterHandler<P extends RasterJob["params"] & { output_format?: string }>(spec: {
  operation: "convert" | "thumbnail";
  outputs: readonly RasterJob["format"][];
  params: z.ZodType<P>;
  refusal: (format: string) => string;
  job: (format: RasterJob["format"], params: P) => RasterJob;
}): OperationHandler<P> {
  return {
    operation: spec.operation,
    kind: "pdf",
    formats: spec.outputs.map((output) => ({ input: "pdf", output })),
    params: spec.params,
    credits: 1,
    takesInput: true,
    requiresOutputFormat: true,
    check: checkPagesParam,
    run(inputs, p, ctx) {
      const format = (p.output_format ?? "png") as RasterJob["format"];
      if (!spec.outputs.includes(format)) throw new TaskError("INVALID_CONVERSION_TYPE", spec.refusal(format));
      return rasterizeInputs(inputs, spec.job(format, p), ctx, spec.operation);
    },
  };
}

/** convert pdf → png, jpg, webp, bmp, gif, tiff, ico or psd: every selected page, named by number when more than one. */
export const convertPdfToImage = rasterHandler({
  operation: "convert",
  outputs: RASTER_OUTPUTS,
  params: rasterParams,
  refusal: (f) => `convert from pdf to ${f} is not supported here; use ${RASTER_OUTPUTS.join(", ")}.`,
  job: (format, params) => ({ format, params, alwaysNumbered: false }),
});

/**
 * {@link convertPdfToImage} for the PDF LibreOffice has just made of an office document (office → png/jpg/webp,
 * office/index.ts): no engine is left to hand an over-budget page to, so a page (a 16:9 or Keynote slide) the default
 * 150 ppi would draw over PDFium's page budget is drawn at the density that fits, reported in `result.warnings`
 * (issue 49's 2.2 MP page budget; an asked pixel_density, width or height is kept, and refused over the budget).
 */
export const convertOfficePdfToImage = rasterHandler({
  operation: "convert",
  outputs: RASTER_OUTPUTS,
  params: rasterParams,
  refusal: (f) => `convert from pdf to ${f} is not supported here; use ${RASTER_OUTPUTS.join(", ")}.`,
  job: (format, params) => ({ format, params, alwaysNumbered: false, fitPageBudget: true }),
});
