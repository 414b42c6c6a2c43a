/**
 * Parameters of `watermark` on PDFs: the CloudConvert watermark set (contract §6 "watermark"; the
 * image watermark uses the same names). Units on PDFs: points (1/72 in) for font_size, margins and
 * image sizes; percentages of the displayed page width for *_percent; degrees for rotation
 * (positive = clockwise, as ImageMagick's -rotate); opacity 0–100.
 *
 * Defaults (CloudConvert documents none): layer above, centre/centre, margins 25 pt, font_size
 * 40 pt, black, Helvetica, opacity 100, rotation 0; an image keeps its pixel size as points.
 *
 * `text` may be in any shipped script (Latin, Greek, Cyrillic, Arabic, Hebrew, Japanese; mixed
 * and right-to-left text shaped, engines/text): WinAnsi text is drawn in the standard font
 * `font_name` maps to (Helvetica, Times, Courier families), other text in embedded Noto subsets,
 * bold when `font_name` says Bold. Images and video take the same schema (operations/watermark-params.ts).
 */
import { type z } from "zod";
import { pagesParam, passwordParam } from "./common";
import { checkPages } from "../../engines/kinds/pdf-pages";
import { checkWatermarkSource, watermarkParams as sharedWatermarkParams } from "../watermark-params";

/** The one watermark schema (operations/watermark-params.ts), in points, plus the PDF's pages and password. */
export const watermarkParams = sharedWatermarkParams.extend({ pages: pagesParam, password: passwordParam });
export type WatermarkParams = z.infer<typeof watermarkParams>;

/** Creation-time checks: one of text or image, and the pages syntax. */
export function checkWatermark(p: WatermarkParams): string[] {
  return [...checkWatermarkSource(p), ...checkPages(p.pages)];
}
