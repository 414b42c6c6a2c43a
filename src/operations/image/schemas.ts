/**
 * Zod schemas of the image operations' own parameters (contract §6; flat in the task object).
 * The catalogue (GET /v2/operations) is generated from these, so every accepted value is listed
 * here; CloudConvert parameters this engine does not implement (the PDF-only `pages`) are absent
 * and therefore refused by name at creation.
 */
import { z } from "zod";

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
  pixel_density: z
    .number()
    .int()
    .min(1)
    .max(2400)
    .optional()
    .describe("Pixels per inch written to the output; SVG is rendered at this density"),
});

/** thumbnail: png|jpg|webp, width, height, fit (max default, no upscaling), count. */
export const thumbnailParams = z.object({
  width: side.optional(),
  height: side.optional(),
  fit: fit
    .optional()
    .describe("max (default): inside the box without enlarging; crop: fill and crop; scale: exact size"),
  count: z
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .describe("Thumbnails of the first frames of a multi-frame input (default 1)"),
});

/** watermark on images: the one watermark schema (operations/watermark-params.ts), in pixels. */
export { watermarkParams, checkWatermarkSource as checkWatermark } from "../watermark-params";

/** optimize for png/jpg: profile (web default) and quality. */
export const optimizeParams = z.object({
  profile: z
    .enum(["web", "print", "archive", "mrc", "max"])
    .optional()
    .describe("JPG quality preset: web 85, print/archive 92, mrc 80, max 70; PNG is always lossless"),
  quality: z.number().int().min(1).max(100).optional(),
});
