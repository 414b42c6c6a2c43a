/**
 * Per-frame steps shared by the image pipelines (ops/*.ts): orientation, planned resize and crop,
 * alpha flattening for formats without alpha, metadata stripping, density and quality.
 */
import {
  AlphaAction,
  ClassType,
  CompressionMethod,
  Density,
  DensityUnit,
  Gravity,
  Interlace,
  MagickColors,
  MagickFormat,
  MagickGeometry,
  Orientation,
  type IMagickImage,
} from "@imagemagick/magick-wasm";
import { TaskError } from "../errors";
import { LOSSY_OUTPUTS } from "./formats";
import { plannedSize, type ResizePlan } from "./geometry";
import { JPEG_OPTIMIZE_MAX_PIXELS } from "./memory";
import type { ImageBudget, ImageFormat } from "../kinds/image";

/**
 * Refuses a requested output larger than the per-frame pixel budget before any resize
 * allocates it (e.g. fit=scale to 20000×20000).
 * @throws TaskError OVER_BUDGET
 */
export function checkOutputSize(srcW: number, srcH: number, plan: ResizePlan | null, budget: ImageBudget): void {
  const { w, h } = plan?.resize ?? plannedSize(srcW, srcH, plan);
  if (w * h > budget.maxPixels) {
    throw new TaskError(
      "OVER_BUDGET",
      `The requested size ${w}×${h} is ${((w * h) / 1e6).toFixed(1)} MP; this engine produces at most ${(budget.maxPixels / 1e6).toFixed(1)} MP. Lower width/height.`,
    );
  }
}

/**
 * Applies the EXIF orientation (and resets it to top-left). Skipped when already upright:
 * ImageMagick's AutoOrientImage clones the whole image even then, doubling the pixel memory.
 */
export function orient(frame: IMagickImage): void {
  if (frame.orientation !== Orientation.Undefined && frame.orientation !== Orientation.TopLeft) frame.autoOrient();
}

/**
 * Applies a resize plan. `fast` uses ImageMagick's thumbnail() (resize + strip, with a cheap
 * sample pass for big reductions) instead of resize().
 */
export function applyPlan(frame: IMagickImage, plan: ResizePlan | null, fast = false): void {
  if (!plan) return;
  const g = new MagickGeometry(plan.resize.w, plan.resize.h);
  g.ignoreAspectRatio = true;
  if (fast) frame.thumbnail(g);
  else frame.resize(g);
  if (plan.crop) {
    frame.crop(plan.crop.w, plan.crop.h, Gravity.Center);
    frame.resetPage();
  }
}

/** Largest side an ICO entry may have (ICONDIR stores sizes in one byte; 0 means 256). */
const ICO_MAX = 256;

/**
 * Format-specific preparation right before encoding. `quality` is 1–100 (lossy formats only); `ppi` the resolution
 * the caller asked for (pixel_density), which sets an odd's page size (96 ppi without one, as the native row).
 */
export function prepareForFormat(frame: IMagickImage, format: ImageFormat, quality?: number, ppi?: number): void {
  if ((format === "jpg" || format === "eps" || format === "ps" || format === "pdf") && frame.hasAlpha) {
    // JPEG (and PostScript's `image`) has no alpha: composite on white rather than expose whatever colour
    // transparent pixels hold
    frame.backgroundColor = MagickColors.White;
    frame.alpha(AlphaAction.Remove);
  }
  if (format === "ico" && (frame.width > ICO_MAX || frame.height > ICO_MAX)) {
    const g = new MagickGeometry(ICO_MAX, ICO_MAX); // keeps the aspect ratio inside 256×256
    frame.resize(g);
  }
  if (format === "jpg" && frame.width * frame.height > JPEG_OPTIMIZE_MAX_PIXELS) {
    // optimized Huffman tables buffer every coefficient (+7 B/px, memory.ts): not for big outputs
    frame.settings.setDefine(MagickFormat.Jpeg, "optimize-coding", "false");
  }
  if (format === "psd" && frame.classType === ClassType.Pseudo) {
    // IM 7.1.2 writes a palette image as an indexed PSD that neither it nor IM 6 reads back
    // ("ImproperImageHeader … ReadPSDLayersInternal"): write palette images as RGB
    frame.classType = ClassType.Direct;
  }
  if (format === "jxl") {
    // libjxl's default effort 7 took 8.9 s and 80 B/px on a 1.9 MP photo in WASM; effort 3 0.7 s and
    // 65 B/px for a file 3 % larger at the same PSNR (formats.ts)
    frame.settings.setDefine(MagickFormat.Jxl, "effort", String(JXL_EFFORT));
  }
  if (format === "png") {
    // no tIME/date chunks: the same input and options give the same bytes wherever the engine runs
    // (Worker, browser, Node), so outputs are reproducible and comparable (issue 19)
    frame.settings.setDefine(MagickFormat.Png, "exclude-chunks", "date,time");
  }
  if (format === "eps" || format === "ps" || format === "pdf") {
    // Level 3 with Flate (Zip) compressed samples: lossless, and ~2.5× smaller than ImageMagick's hex default;
    // one pixel per point whatever the file's resolution, as the native row writes it (postscript.ts; its PDF is
    // Ghostscript's of that PostScript)
    frame.settings.compression = CompressionMethod.Zip;
    frame.density = new Density(72, DensityUnit.PixelsPerInch);
  }
  if (format === "odd") frame.density = new Density(ppi ?? 96, DensityUnit.PixelsPerInch);
  if (quality !== undefined && LOSSY_OUTPUTS.includes(format)) frame.quality = quality;
}

/** libjxl encoder effort (1 fastest … 9 slowest) of JXL outputs. */
export const JXL_EFFORT = 3;

/** Removes metadata (EXIF, XMP, IPTC, comments) but keeps the ICC profile so colours do not change. */
export function stripKeepingColour(frame: IMagickImage): void {
  const icc = frame.getProfile("icc");
  frame.strip();
  if (icc) frame.setProfile(icc);
}

/** The frame's horizontal resolution in pixels per inch, or undefined when the file records none (or an implausible one). */
export function ppiOf(frame: IMagickImage): number | undefined {
  const d = frame.density;
  const ppi =
    d.units === DensityUnit.PixelsPerInch ? d.x : d.units === DensityUnit.PixelsPerCentimeter ? d.x * 2.54 : undefined;
  return ppi && ppi >= 10 && ppi <= 10_000 ? Math.round(ppi * 100) / 100 : undefined;
}

/** Writes `ppi` pixels per inch into the image's resolution fields. */
export function setDensity(frame: IMagickImage, ppi: number): void {
  frame.density = new Density(ppi, DensityUnit.PixelsPerInch);
}

/** Progressive JPEG (usually a few percent smaller); skipped above JPEG_OPTIMIZE_MAX_PIXELS (it buffers every coefficient). */
export function progressive(frame: IMagickImage): void {
  if (frame.width * frame.height <= JPEG_OPTIMIZE_MAX_PIXELS) frame.settings.interlace = Interlace.Jpeg;
}
