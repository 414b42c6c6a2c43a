/**
 * The watermark operation's parameters: ONE schema for images, PDFs (and office documents through
 * PDF) and video, as CloudConvert documents one set for `watermark` (shared/reference/
 * cloudconvert-v2.md, the options table's `watermark` row): the same names, bounds and spellings
 * whatever the input.
 * Units follow the input: pixels on images and video, points (1/72 in) on PDFs; percentages of the
 * input's (displayed page's) width for *_percent; degrees clockwise for rotation; opacity 0–100.
 *
 * Lenient where CloudConvert is (its Job Builder and SDK users send strings for numbers, colours
 * with or without `#`, font names of fonts it has): numbers are coerced; a colour is #RGB, #RRGGBB
 * or #RRGGBBAA with or without `#` and reaches the engines as "#RRGGBB" or "#RRGGBBAA"; any
 * font_name is taken, each engine mapping it to its closest shipped face (engines/fonts.ts, the PDF
 * standard fonts). What a target cannot honour (rotation on video) is accepted and reported in the
 * task's result.warnings by its handler.
 */
import { z } from "zod";

const num = (min: number, max: number) => z.coerce.number().min(min).max(max).optional();

/** #RGB, #RRGGBB or #RRGGBBAA, the `#` optional. */
const COLOR = /^#?(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/**
 * A colour as the engines read it: "#RRGGBB" or "#RRGGBBAA" (upper case), from any spelling
 * {@link COLOR} accepts ("f00" → "#FF0000").
 */
export function normalizeColor(c: string): string {
  const h = c.replace(/^#/, "").toUpperCase();
  return `#${h.length === 3 ? [...h].map((x) => x + x).join("") : h}`;
}

/** The watermark's parameters (every target). */
export const watermarkParams = z.object({
  text: z
    .string()
    .min(1)
    .max(2000)
    .optional()
    .describe(
      "Text in Latin, Greek, Cyrillic, Arabic, Hebrew or Japanese script (mixed scripts and right-to-left text shaped); \\n breaks lines",
    ),
  image: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe("The name of the task of this job whose file is the watermark image"),
  layer: z
    .enum(["above", "below"])
    .optional()
    .describe("above (default) or below the content: below shows only through transparent pixels or page areas"),
  font_size: num(1, 2000).describe(
    "Size of the text, pixels on images and video, points on PDFs (default 40); ignored with font_width_percent",
  ),
  font_width_percent: num(1, 100).describe("Width of the text block as % of the input width; the font size follows"),
  font_color: z
    .string()
    .regex(COLOR, "must be a colour such as #FF0000 (#RGB, #RRGGBB or #RRGGBBAA, # optional)")
    .transform(normalizeColor)
    .optional(),
  font_name: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe(
      "A font name; mapped to the closest shipped face (DejaVu, Noto for other scripts; the standard fonts on PDFs), bold when the name says Bold",
    ),
  font_align: z
    .enum(["left", "center", "right"])
    .optional()
    .describe("Alignment of the lines of a multi-line text (default center)"),
  image_width: num(1, 16384).describe("Watermark image width (height follows unless image_height is given)"),
  image_height: num(1, 16384).describe("Watermark image height (width follows unless image_width is given)"),
  image_width_percent: num(1, 100).describe(
    "Watermark image width as % of the input width, aspect kept (wins over image_width/image_height)",
  ),
  position_vertical: z.enum(["top", "center", "bottom"]).optional(),
  position_horizontal: z.enum(["left", "center", "right"]).optional(),
  margin_vertical: num(0, 16384),
  margin_horizontal: num(0, 16384),
  opacity: num(0, 100).describe("0–100, default 100"),
  rotation: num(-360, 360).describe("Degrees clockwise"),
});
export type WatermarkParams = z.infer<typeof watermarkParams>;

/** Exactly one of `text` and `image` (checked at creation → 422 naming the task). */
export function checkWatermarkSource(p: Pick<WatermarkParams, "text" | "image">): string[] {
  if (!p.text && !p.image)
    return ["text or image is required: the watermark text, or the name of the task holding the watermark image."];
  if (p.text && p.image) return ["watermark takes `text` or `image`, not both."];
  return [];
}
