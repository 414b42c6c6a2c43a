/**
 * Parameters of `watermark` on PDFs: the CloudConvert watermark set (contract §6 "watermark"; the
 * image watermark uses the same names). Units on PDFs: points (1/72 in) for font_size, margins and
 * image sizes; percentages of the displayed page width for *_percent; degrees for rotation
 * (positive = clockwise, as ImageMagick's -rotate); opacity 0–100.
 *
 * Defaults (CloudConvert documents none): layer above, centre/centre, margins 25 pt, font_size
 * 40 pt, black, Helvetica, opacity 100, rotation 0; an image keeps its pixel size as points.
 */
import { StandardFonts } from "@cantoo/pdf-lib";
import { z } from "zod";
import { pagesParam } from "./common";
import { checkPages } from "./pages";

const num = (min: number, max: number) => z.coerce.number().min(min).max(max).optional();

export const watermarkParams = z.object({
  text: z.string().min(1).max(2000).optional(),
  image: z.string().min(1).max(255).optional(),
  pages: pagesParam,
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

/**
 * One of the 14 standard PDF fonts for a CloudConvert font name (Arial, Times New Roman, Courier
 * New, … with " Bold"/" Italic"): no font files are bundled, so families map to their metric
 * look-alikes — serif to Times, monospace to Courier, everything else to Helvetica.
 */
export function standardFont(name = "Helvetica"): StandardFonts {
  const n = name.toLowerCase();
  const bold = n.includes("bold") || n.includes("impact");
  const italic = n.includes("italic") || n.includes("oblique");
  const serif = /times|georgia|garamond|serif/.test(n) && !n.includes("sans");
  const family = serif ? "Times" : /courier|mono|consol/.test(n) ? "Courier" : "Helvetica";
  const table: Record<string, StandardFonts[]> = {
    Helvetica: [StandardFonts.Helvetica, StandardFonts.HelveticaBold, StandardFonts.HelveticaOblique, StandardFonts.HelveticaBoldOblique],
    Times: [StandardFonts.TimesRoman, StandardFonts.TimesRomanBold, StandardFonts.TimesRomanItalic, StandardFonts.TimesRomanBoldItalic],
    Courier: [StandardFonts.Courier, StandardFonts.CourierBold, StandardFonts.CourierOblique, StandardFonts.CourierBoldOblique],
  };
  return table[family][(bold ? 1 : 0) + (italic ? 2 : 0)];
}

/** "#RGB" / "#RRGGBB" (with or without #) → [r, g, b] in 0..1. */
export function parseColor(hex = "#000000"): [number, number, number] {
  let h = hex.replace(/^#/, "");
  if (h.length === 3) h = [...h].map((c) => c + c).join("");
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255) as [number, number, number];
}
