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
 * bold when `font_name` says Bold. The image watermark takes the same names (operations/image/schemas.ts).
 */
import { z } from "zod";
import { pagesParam, passwordParam } from "./common";
import { checkPages } from "../../engines/kinds/pdf-pages";

const num = (min: number, max: number) => z.coerce.number().min(min).max(max).optional();

export const watermarkParams = z.object({
  text: z.string().min(1).max(2000).optional(),
  image: z.string().min(1).max(255).optional(),
  pages: pagesParam,
  password: passwordParam,
  layer: z.enum(["above", "below"]).optional(),
  font_size: num(1, 2000),
  font_width_percent: num(1, 100),
  font_color: z.string().regex(/^#?([0-9a-f]{3}|[0-9a-f]{6})$/i, "must be a colour such as #FF0000").optional(),
  font_name: z.string().max(64).optional(),
  font_align: z.enum(["left", "center", "right"]).optional(),
  image_width: num(1, 14400),
  image_height: num(1, 14400),
  image_width_percent: num(1, 100),
  position_vertical: z.enum(["top", "center", "bottom"]).optional(),
  position_horizontal: z.enum(["left", "center", "right"]).optional(),
  margin_vertical: num(0, 14400),
  margin_horizontal: num(0, 14400),
  opacity: num(0, 100),
  rotation: num(-360, 360),
});
export type WatermarkParams = z.infer<typeof watermarkParams>;

/** Creation-time checks: one of text or image, and the pages syntax. */
export function checkWatermark(p: WatermarkParams): string[] {
  const errors = p.text || p.image ? [] : ["text or image is required: the watermark text, or the name of the task holding the watermark image."];
  return [...errors, ...checkPages(p.pages)];
}
