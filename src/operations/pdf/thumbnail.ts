/**
 * thumbnail of a PDF (contract §6 thumbnail: png | jpg | webp, width, height, fit, count) with
 * PDFium: the first page, or the first `count` pages of `pages`. Without width/height the page is
 * drawn at 72 ppi (1 pixel per point); fit max (default) never draws larger than that.
 * Names: `<name>.<ext>`, or `<name>-<page>.<ext>` when count > 1.
 */
import { z } from "zod";
import type { OperationHandler } from "../types";
import { checkPagesParam, pagesParam, passwordParam } from "./common";
import { THUMBNAIL_OUTPUTS, rasterFormat, rasterizeInputs, type RasterJob } from "./rasterize";

const side = z.coerce.number().int().min(1).max(16384).optional();

export const pdfThumbnailParams = z.object({
  width: side,
  height: side,
  fit: z.enum(["max", "crop", "scale"]).optional(),
  count: z.coerce.number().int().min(1).max(100).optional(),
  pages: pagesParam,
  quality: z.coerce.number().int().min(1).max(100).optional(),
  password: passwordParam,
});

/** Pixels per inch of a PDF thumbnail (and the upper bound of fit max). */
export const THUMBNAIL_DENSITY = 72;

export const pdfThumbnail: OperationHandler<z.infer<typeof pdfThumbnailParams>> = {
  operation: "thumbnail",
  kind: "pdf",
  formats: THUMBNAIL_OUTPUTS.map((output) => ({ input: "pdf", output })),
  params: pdfThumbnailParams,
  credits: 1,
  takesInput: true,
  requiresOutputFormat: true,
  check: checkPagesParam,
  run(inputs, p, ctx) {
    const format = rasterFormat(
      p.output_format,
      THUMBNAIL_OUTPUTS,
      (f) => `thumbnail of a pdf as ${f} is not supported; use png, jpg or webp.`,
    );
    const count = p.count ?? 1;
    const job: RasterJob = { format, params: p, density: THUMBNAIL_DENSITY, limit: count, alwaysNumbered: count > 1 };
    return rasterizeInputs(inputs, job, ctx, "thumbnail");
  },
};
