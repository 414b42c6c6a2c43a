/**
 * watermark on images (contract §6 `watermark`): a text layer (shipped fonts, colour, size) or an
 * image layer (the `image` task's file, alpha kept, sized by image_width / image_width_percent),
 * then opacity, rotation, and placement by position_* and margin_* over every frame.
 */
import {
  AlphaAction, Channels, ColorSpace, CompositeOperator, Drawables, EvaluateOperator, Gravity, MagickColor, MagickColors,
  MagickGeometry, MagickImage, Point, type IMagickImage,
} from "@imagemagick/magick-wasm";
import { TaskError } from "../../errors";
import { checkImageBudget, sniffImage } from "../budget";
import { decode, decodeFrame, encode } from "../codec";
import { FONT_FILES, resolveFont } from "../fonts";
import { MULTI_FRAME_OUTPUTS, WRITABLE_FORMATS } from "../formats";
import { placeOverlay } from "../geometry";
import { checkMemory, memoryPlan } from "../memory";
import { toImageTaskError } from "../magick-errors";
import { registeredFonts } from "../magick";
import { orient, prepareForFormat } from "../transform";
import type { ImageHeader } from "../sniff";
import type { ImageBudget, ImageFormat, ImageRunOutput, WatermarkOptions } from "../types";

/** Default point size of a text watermark. */
export const DEFAULT_FONT_SIZE = 40;

function textLayer(o: WatermarkOptions): IMagickImage {
  const font = resolveFont(o.font_name);
  if (!font || !registeredFonts().includes(font)) {
    throw new TaskError("UNSUPPORTED", `font_name "${o.font_name}" is not available; use one of: ${Object.keys(FONT_FILES).join(", ")}.`);
  }
  const size = o.font_size ?? DEFAULT_FONT_SIZE;
  const metrics = new Drawables().font(font).fontPointSize(size).fontTypeMetrics(o.text!, false);
  const pad = Math.ceil(size / 4);
  const w = Math.ceil(metrics?.textWidth ?? size * o.text!.length) + 2 * pad;
  const h = Math.ceil(metrics?.textHeight ?? size * 1.3) + 2 * pad;
  const layer = MagickImage.create(MagickColors.Transparent, w, h);
  try {
    new Drawables().font(font).fontPointSize(size).fillColor(new MagickColor(o.font_color ?? "#000000"))
      .gravity(Gravity.Center).text(0, 0, o.text!).draw(layer);
    layer.trim();
    layer.resetPage();
    return layer;
  } catch (err) {
    layer.dispose();
    throw err;
  }
}

function imageLayer(extra: Uint8Array, format: ImageFormat, o: WatermarkOptions, baseWidth: number, budget: ImageBudget): IMagickImage {
  const header = checkImageBudget(extra, format, budget, false, "watermark");
  const layer = decodeFrame(extra, header, { what: `watermark ${header.format.toUpperCase()}` });
  orient(layer);
  const width = o.image_width ?? (o.image_width_percent ? (baseWidth * o.image_width_percent) / 100 : undefined);
  if (width) layer.resize(new MagickGeometry(Math.max(1, Math.round(width)), 0)); // height follows the aspect ratio
  return layer;
}

function styleLayer(layer: IMagickImage, o: WatermarkOptions): void {
  if (!layer.hasAlpha) layer.alpha(AlphaAction.Set);
  const opacity = o.opacity ?? 100;
  if (opacity < 100) layer.evaluate(Channels.Alpha, EvaluateOperator.Multiply, Math.max(0, opacity) / 100);
  if (o.rotation) {
    layer.backgroundColor = MagickColors.Transparent;
    layer.rotate(o.rotation);
    layer.resetPage();
  }
}

/** Rough pixel count of the layer for the memory estimate: the decoded watermark plus its scaled copy, or the text box (doubled for rotation). */
function overlayPixels(o: WatermarkOptions, base: ImageHeader, extra?: Uint8Array): number {
  if (extra) {
    const h = sniffImage(extra);
    return (h ? h.width * h.height : 0) + base.width * base.height;
  }
  const size = o.font_size ?? DEFAULT_FONT_SIZE;
  return Math.min(2 * size * (o.text?.length ?? 0) * 2 * size, 4 * base.width * base.height);
}

/**
 * Input bytes + (text | watermark image bytes) → watermarked image in `outputFormat`.
 * @throws TaskError (OPEN_FAILED for either image, OVER_BUDGET, UNSUPPORTED font/format, CONVERSION_FAILED)
 */
export function runWatermark(
  input: Uint8Array, inputFormat: ImageFormat, outputFormat: ImageFormat, o: WatermarkOptions,
  budget: ImageBudget, extra?: Uint8Array, extraFormat?: ImageFormat,
): ImageRunOutput[] {
  if (!WRITABLE_FORMATS.includes(outputFormat)) throw new TaskError("UNSUPPORTED", `ImageMagick in WebAssembly cannot write ${outputFormat.toUpperCase()}.`);
  if (!o.text && !extra) throw new TaskError("CONVERSION_FAILED", "A watermark needs `text` or `image`.");
  const keepFrames = MULTI_FRAME_OUTPUTS.includes(outputFormat);
  const header = checkImageBudget(input, inputFormat, budget, keepFrames);
  const what = `input ${header.format.toUpperCase()}`;
  checkMemory(memoryPlan(input, header, keepFrames ? header.frames : 1, outputFormat, null, undefined, overlayPixels(o, header, extra)), budget, what);
  const frames = decode(input, header, { frames: keepFrames ? Infinity : 1, what });
  let layer: IMagickImage | undefined;
  try {
    if (frames.length > 1 && (header.format === "gif" || header.format === "webp")) frames.coalesce();
    for (const f of frames) orient(f);
    const base = frames[0];
    try {
      layer = o.text ? textLayer(o) : imageLayer(extra!, extraFormat ?? "png", o, base.width, budget);
      styleLayer(layer, o);
    } catch (err) {
      throw toImageTaskError(err, "process", o.text ? "watermark text" : "watermark image");
    }
    const { x, y } = placeOverlay(base.width, base.height, layer.width, layer.height, o);
    for (const f of frames) {
      if (f.colorSpace === ColorSpace.Gray) f.colorSpace = ColorSpace.sRGB; // or coloured ink turns grey
      f.composite(layer, CompositeOperator.Over, new Point(x, y));
      prepareForFormat(f, outputFormat);
    }
    const data = encode(frames, outputFormat, `output ${outputFormat.toUpperCase()}`);
    return [{ data, format: outputFormat, width: base.width, height: base.height, frames: frames.length }];
  } finally {
    layer?.dispose();
    frames.dispose();
  }
}
