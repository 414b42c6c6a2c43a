/**
 * convert pdf → png | jpg | webp with PDFium: one image per page (all pages, or `pages`), at
 * `pixel_density` ppi (default 150, pdftoppm's default; CloudConvert documents none), or fitted to
 * `width`/`height` by `fit` (engines/pdfium/size.ts). Names: `<name>.png` for a one-page PDF, else
 * `<name>-<page>.png` (page numbers, as pdftoppm), or `filename` with `%d` = page number.
 * PNG is encoded here; jpg/webp are re-encoded from it by the ImageMagick engine (`quality`) when
 * this runtime has one, else the task fails with UNSUPPORTED naming png as the way out.
 */
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import type { ImageMagickEngine } from "../../engines/imagemagick/types";
import { checkBytes } from "../../engines/pdflib/budget";
import { DEFAULT_RASTER_BUDGET, PDFIUM_ENGINE, type PdfiumEngine, type RasterFit, type RasterPage } from "../../engines/pdfium";
import type { InputFile, OperationContext, OperationHandler, OperationOutput, OutputFile } from "../types";
import { checkPagesParam, numberedName, pagesParam, requirePdfInputs, singleName, throwIfAborted } from "./common";
import { parsePageList } from "./pages";

export const RASTER_OUTPUTS = ["png", "jpg", "webp"] as const;
const MIME = { png: "image/png", jpg: "image/jpeg", webp: "image/webp" } as const;
const side = z.coerce.number().int().min(1).max(16384).optional();

export const rasterParams = z.object({
  pages: pagesParam,
  pixel_density: z.coerce.number().int().min(1).max(2400).optional().describe("Pixels per inch (default 150)"),
  width: side.describe("Output width in pixels"),
  height: side.describe("Output height in pixels"),
  fit: z.enum(["max", "crop", "scale"]).optional().describe("max (default): inside width × height, never above pixel_density; crop: fill and crop; scale: exact size"),
  quality: z.coerce.number().int().min(1).max(100).optional().describe("jpg/webp encoder quality"),
});
type RasterParams = z.infer<typeof rasterParams>;

/** The PDFium engine of this runtime. @throws TaskError UNSUPPORTED when there is none */
export function pdfiumEngine(ctx: OperationContext): PdfiumEngine {
  const engine = ctx.engines.pdfium as PdfiumEngine | undefined;
  if (!engine || typeof engine.rasterize !== "function") throw new TaskError("UNSUPPORTED", "The PDFium engine is not available in this runtime.", { retryable: true });
  return engine;
}

/** Re-encodes a rendered PNG as jpg/webp with the ImageMagick engine. */
async function reencode(ctx: OperationContext, page: RasterPage, format: "jpg" | "webp", quality: number | undefined, filename: string): Promise<Uint8Array> {
  const im = ctx.engines.imagemagick as ImageMagickEngine | undefined;
  if (!im || typeof im.run !== "function") {
    throw new TaskError("UNSUPPORTED", `PDF to ${format} needs the ImageMagick engine, which this runtime lacks; use output_format png.`);
  }
  const res = await im.run({ op: "convert", input: page.png, inputFormat: "png", outputFormat: format, options: { quality } });
  if (!res.ok) throw new TaskError(res.error.code, `${filename} page ${page.page}: ${res.error.message}`, { retryable: res.error.retryable });
  return res.outputs[0].data;
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
}

/** Renders every input and names the outputs; shared by convert and thumbnail. */
export async function rasterizeInputs(inputs: InputFile[], job: RasterJob, ctx: OperationContext, operation: string): Promise<OperationOutput> {
  requirePdfInputs(inputs, operation, job.params.input_format);
  const engine = pdfiumEngine(ctx);
  const parsed = job.params.pages === undefined ? undefined : parsePageList(job.params.pages);
  if (parsed && "error" in parsed) throw new TaskError("INVALID_PAGES", checkPagesParam(job.params)[0]);
  const files: OutputFile[] = [];
  for (const [i, input] of inputs.entries()) {
    throwIfAborted(ctx.signal);
    checkBytes(input.size, input.filename, DEFAULT_RASTER_BUDGET);
    const res = await engine.rasterize({
      input: await input.bytes(),
      filename: input.filename,
      pages: parsed?.ranges,
      limit: job.limit,
      density: job.density ?? job.params.pixel_density,
      width: job.params.width,
      height: job.params.height,
      fit: job.params.fit as RasterFit | undefined,
    });
    if (!res.ok) throw new TaskError(res.error.code, res.error.message, { retryable: res.error.retryable });
    const single = !job.alwaysNumbered && res.pages.length === 1 && (res.pageCount === 1 || job.limit === 1);
    for (const page of res.pages) {
      throwIfAborted(ctx.signal);
      const data = job.format === "png" ? page.png : await reencode(ctx, page, job.format, job.params.quality, input.filename);
      const name = single ? singleName(job.params.filename, input.filename, job.format, i + 1) : numberedName(job.params.filename, input.filename, page.page, job.format);
      files.push({ filename: name, data, contentType: MIME[job.format] });
    }
  }
  return { files, engine: { name: PDFIUM_ENGINE.name, version: PDFIUM_ENGINE.version } };
}

export const convertPdfToImage: OperationHandler<RasterParams> = {
  operation: "convert",
  engine: PDFIUM_ENGINE.name,
  engineVersion: PDFIUM_ENGINE.version,
  formats: RASTER_OUTPUTS.map((output) => ({ input: "pdf", output })),
  params: rasterParams,
  credits: 1,
  takesInput: true,
  requiresOutputFormat: true,
  check: checkPagesParam,
  run(inputs, p, ctx) {
    const format = (p.output_format ?? "png") as RasterJob["format"];
    if (!RASTER_OUTPUTS.includes(format)) throw new TaskError("INVALID_CONVERSION_TYPE", `convert from pdf to ${format} is not supported here; use png, jpg or webp.`);
    return rasterizeInputs(inputs, { format, params: p, alwaysNumbered: false }, ctx, "convert");
  },
};
