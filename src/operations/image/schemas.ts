/**
 * Zod schemas of the image operations' own parameters (contract §6; flat in the task object).
 * The catalogue (GET /v2/operations) is generated from these, so every accepted value is listed
 * here; CloudConvert parameters this engine does not implement (the PDF-only `pages`) are absent
 * and therefore refused by name at creation.
 */
import { z } from "zod";
import { FONT_NAMES } from "../../engines/fonts";

/** Booleans as SDKs send them: true/false, or "true"/"false"/"1"/"0". */
export const boolParam = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
  .transform((v) => v === true || v === "true" || v === "1")
  .optional();

/** Largest width/height a caller may ask for, in pixels (the pixel budget still applies). */
export const MAX_SIDE = 16384;

const side = z.number().int().min(1).max(MAX_SIDE);
const fit = z.enum(["max", "crop", "scale"]);

/** convert (image → image): resize, fit, strip, quality, auto_orient, pixel_density. */
export const convertParams = z.object({
  width: side.optional().describe("Output width in pixels"),
  height: side.optional().describe("Output height in pixels"),
  fit: fit.optional().describe("max: fit inside without enlarging (default); crop: fill and crop; scale: exact size"),
  strip: boolParam.describe("Remove metadata (EXIF, XMP, comments); the ICC profile is kept"),
  quality: z.number().int().min(1).max(100).optional().describe("Encoder quality for jpg, webp, avif"),
  auto_orient: boolParam.describe("Apply the EXIF orientation (default true)"),
  pixel_density: z.number().int().min(1).max(2400).optional().describe("Pixels per inch written to the output; SVG is rendered at this density"),
});

/** thumbnail: png|jpg|webp, width, height, fit (max default, no upscaling), count. */
export const thumbnailParams = z.object({
  width: side.optional(),
  height: side.optional(),
  fit: fit.optional().describe("max (default): inside the box without enlarging; crop: fill and crop; scale: exact size"),
  count: z.number().int().min(1).max(100).optional().describe("Thumbnails of the first frames of a multi-frame input (default 1)"),
});

/**
 * watermark on images: `text` or `image` (an import task's name), placement and style. The same
 * names, meanings and defaults as the PDF watermark (operations/pdf/watermark-params.ts), in
 * pixels instead of points.
 */
export const watermarkParams = z.object({
  text: z.string().min(1).max(500).optional().describe("Text in Latin, Greek, Cyrillic, Arabic, Hebrew or Japanese script (mixed scripts and right-to-left text shaped); \\n breaks lines"),
  font_size: z.number().int().min(1).max(1000).optional().describe("Point size = pixels (default 40); ignored with font_width_percent"),
  font_width_percent: z.number().min(1).max(100).optional().describe("Width of the text block as % of the input width; the font size follows"),
  font_color: z.string().regex(/^#(?:[0-9a-f]{6}|[0-9a-f]{8})$/i, "must be #RRGGBB or #RRGGBBAA").optional(),
  font_name: z.enum(FONT_NAMES).optional().describe("Latin-1 text: the shipped DejaVu faces, CloudConvert names mapped to the closest one; other scripts use Noto Sans, Noto Naskh Arabic, Noto Sans Hebrew and Noto Sans JP, bold when the name says Bold"),
  font_align: z.enum(["left", "center", "right"]).optional().describe("Alignment of the lines of a multi-line text (default center)"),
  image: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, "must name a task of this job").optional(),
  image_width: side.optional().describe("Watermark image width in pixels (height follows unless image_height is given)"),
  image_height: side.optional().describe("Watermark image height in pixels (width follows unless image_width is given)"),
  image_width_percent: z.number().min(1).max(100).optional().describe("Watermark image width as % of the input width, aspect kept (wins over image_width/image_height)"),
  layer: z.enum(["above", "below"]).optional().describe("above (default) or below the image: below shows only through transparent pixels"),
  position_vertical: z.enum(["top", "center", "bottom"]).optional(),
  position_horizontal: z.enum(["left", "center", "right"]).optional(),
  margin_vertical: z.number().int().min(0).max(MAX_SIDE).optional(),
  margin_horizontal: z.number().int().min(0).max(MAX_SIDE).optional(),
  opacity: z.number().min(0).max(100).optional().describe("0–100, default 100"),
  rotation: z.number().min(-360).max(360).optional().describe("Degrees clockwise"),
});

/** Exactly one of `text` and `image` (checked at creation → 422). */
export function checkWatermark(p: z.infer<typeof watermarkParams>): string[] {
  if (!p.text && !p.image) return ["watermark needs `text` or `image` (the name of a task holding the watermark image)."];
  if (p.text && p.image) return ["watermark takes `text` or `image`, not both."];
  return [];
}

/** optimize for png/jpg: profile (web default) and quality. */
export const optimizeParams = z.object({
  profile: z.enum(["web", "print", "archive", "mrc", "max"]).optional().describe("JPG quality preset: web 85, print/archive 92, mrc 80, max 70; PNG is always lossless"),
  quality: z.number().int().min(1).max(100).optional(),
});
