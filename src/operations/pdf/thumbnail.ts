/**
 * thumbnail of a PDF (contract §6 thumbnail: png | jpg | webp, width, height, fit, count) with
 * PDFium (or, over its budget, the native pdftoppm: rasterize.ts): the first page, or the first `count` pages of `pages`. Without width/height the page is
 * drawn at 72 ppi (1 pixel per point); fit max (default) never draws larger than that.
 * Names: `<name>.<ext>`, or `<name>-<page>.<ext>` when count > 1.
 */
import { z } from "zod";
import { pagesParam, passwordParam } from "./common";
import { THUMBNAIL_OUTPUTS, rasterHandler } from "./rasterize";

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

export const pdfThumbnail = rasterHandler({
  operation: "thumbnail",
  outputs: THUMBNAIL_OUTPUTS,
  params: pdfThumbnailParams,
  refusal: (f) => `thumbnail of a pdf as ${f} is not supported; use png, jpg or webp.`,
  job: (format, params) => {
    const count = params.count ?? 1;
    return { format, params, density: THUMBNAIL_DENSITY, limit: count, alwaysNumbered: count > 1 };
  },
});
