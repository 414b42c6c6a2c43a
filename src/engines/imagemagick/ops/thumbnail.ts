/**
 * thumbnail: one small png/jpg/webp per frame, for the first `count` frames (contract §6:
 * fit max = inside the box without upscaling (default), crop = fill then crop, scale = exact).
 * Uses ImageMagick's thumbnail() (resize + strip) and lets libjpeg decode at a reduced scale.
 */
import { TaskError } from "../../errors";
import { checkImageBudget } from "../budget";
import { rawHeader } from "../raw";
import { decode, encodeFrame } from "../codec";
import { planResize } from "../geometry";
import { checkMemory, memoryPlan } from "../memory";
import { applyPlan, checkOutputSize, orient, prepareForFormat } from "../transform";
import type { ImageBudget, ImageFormat, ImageRunOutput, ThumbnailOptions } from "../../kinds/image";

/** Thumbnail output formats (contract §6). */
export const THUMBNAIL_FORMATS: readonly ImageFormat[] = ["png", "jpg", "webp"];

/** Default encoder quality of thumbnails (jpg, webp). */
const THUMB_QUALITY = 85;

/** Input bytes → `count` thumbnails (fewer when the input has fewer frames). @throws TaskError */
export function runThumbnail(
  input: Uint8Array,
  inputFormat: ImageFormat,
  outputFormat: ImageFormat,
  o: ThumbnailOptions,
  budget: ImageBudget,
): ImageRunOutput<Uint8Array>[] {
  if (!THUMBNAIL_FORMATS.includes(outputFormat)) {
    throw new TaskError("UNSUPPORTED", `Thumbnails are made as PNG, JPG or WEBP, not ${outputFormat.toUpperCase()}.`);
  }
  const count = Math.max(1, Math.floor(o.count ?? 1));
  const header = checkImageBudget(input, inputFormat, budget, count > 1, "input", rawHeader);
  const side = 2 * Math.max(o.width ?? 0, o.height ?? 0);
  const what = `input ${header.format.toUpperCase()}`;
  const planned = planResize(header.width, header.height, o);
  checkOutputSize(header.width, header.height, planned, budget);
  checkMemory(memoryPlan(input, header, Math.min(count, header.frames), outputFormat, planned, side), budget, what);
  const frames = decode(input, header, {
    frames: Math.min(count, header.frames),
    what,
    sizeHint: side ? { w: side, h: side } : undefined,
  });
  try {
    if (frames.length > 1 && (header.format === "gif" || header.format === "webp")) frames.coalesce();
    const outputs: ImageRunOutput<Uint8Array>[] = [];
    for (const f of frames.slice(0, count)) {
      orient(f);
      const plan = planResize(f.width, f.height, o);
      checkOutputSize(f.width, f.height, plan, budget);
      applyPlan(f, plan, true);
      if (!plan) f.strip();
      prepareForFormat(f, outputFormat, THUMB_QUALITY);
      const data = encodeFrame(f, outputFormat, `thumbnail ${outputFormat.toUpperCase()}`);
      outputs.push({ data, format: outputFormat, width: f.width, height: f.height, frames: 1 });
    }
    return outputs;
  } finally {
    frames.dispose();
  }
}
