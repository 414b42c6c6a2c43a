/**
 * optimize for PNG and JPG (contract §6 `optimize`: profile + quality). Orientation is applied
 * first (stripping drops the EXIF tag that carried it) and the ICC profile is kept.
 * - PNG: lossless — metadata stripped, zlib level 9, and the smaller of adaptive filtering and no
 *   filtering (photos favour the former, flat graphics the latter); ImageMagick already picks the
 *   smallest lossless colour type (palette / grey) itself.
 * - JPG: re-encoded progressive at the profile's quality (web 85, print/archive 92, mrc 80,
 *   max 70) or `quality`, never above the input's own estimated quality.
 * If the result is not smaller, the input is returned unchanged (bytes saved = 0).
 */
import { MagickFormat } from "@imagemagick/magick-wasm";
import { TaskError } from "../../errors";
import { checkImageBudget } from "../budget";
import { decode, encodeFrame } from "../codec";
import { checkMemory, memoryPlan } from "../memory";
import { orient, progressive, stripKeepingColour } from "../transform";
import type { ImageBudget, ImageFormat, ImageRunOutput, OptimizeOptions } from "../../kinds/image";

/** JPEG quality per profile (CloudConvert's PDF profile names reused for images). */
export const PROFILE_QUALITY: Record<NonNullable<OptimizeOptions["profile"]>, number> = {
  web: 85,
  print: 92,
  archive: 92,
  mrc: 80,
  max: 70,
};

/** Formats `optimize` handles here (input = output). */
export const OPTIMIZE_FORMATS: readonly ImageFormat[] = ["png", "jpg"];

/** Input bytes → smaller bytes in the same format. @throws TaskError */
export function runOptimize(
  input: Uint8Array,
  inputFormat: ImageFormat,
  o: OptimizeOptions,
  budget: ImageBudget,
): ImageRunOutput<Uint8Array>[] {
  if (!OPTIMIZE_FORMATS.includes(inputFormat))
    throw new TaskError("UNSUPPORTED", `Image optimize handles PNG and JPG, not ${inputFormat.toUpperCase()}.`);
  const header = checkImageBudget(input, inputFormat, budget, false);
  if (header.format !== inputFormat)
    throw new TaskError(
      "OPEN_FAILED",
      `The input is a ${header.format.toUpperCase()} file, not ${inputFormat.toUpperCase()}.`,
    );
  const what = `input ${inputFormat.toUpperCase()}`;
  checkMemory(memoryPlan(input, header, 1, inputFormat, null), budget, what);
  const frames = decode(input, header, { frames: 1, what });
  try {
    const image = frames[0];
    orient(image);
    stripKeepingColour(image);
    let best: Uint8Array;
    if (inputFormat === "png") {
      const candidates = ["5", "0"].map((filter) => {
        image.settings.setDefine(MagickFormat.Png, "compression-level", "9");
        image.settings.setDefine(MagickFormat.Png, "compression-filter", filter);
        return encodeFrame(image, "png", "optimized PNG");
      });
      best = candidates.reduce((a, b) => (b.byteLength < a.byteLength ? b : a));
    } else {
      const wanted = o.quality ?? PROFILE_QUALITY[o.profile ?? "web"];
      image.quality = Math.min(wanted, image.quality > 0 ? image.quality : 100);
      progressive(image);
      best = encodeFrame(image, "jpg", "optimized JPG");
    }
    if (best.byteLength >= input.byteLength) {
      // nothing gained: the original (with its own EXIF orientation) is the optimal file
      return [{ data: input.slice(), format: inputFormat, width: header.width, height: header.height, frames: 1 }];
    }
    return [{ data: best, format: inputFormat, width: image.width, height: image.height, frames: 1 }];
  } finally {
    frames.dispose();
  }
}
