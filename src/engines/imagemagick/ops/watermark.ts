/**
 * watermark on images (contract §6 `watermark`): a text layer or an image layer (the `image`
 * task's file, alpha kept, sized by image_width / image_height / image_width_percent), then
 * opacity, rotation, and placement by position_* and margin_* over every frame, above the image
 * or (layer "below") under it, where only its transparent pixels let the watermark through.
 *
 * Text is shaped by engines/text (the same fonts, bidi order and OpenType shaping as the PDF
 * watermark) and drawn as glyph outlines through ImageMagick's SVG renderer (MSVG), not with
 * annotate (FreeType without bidi or shaping: Arabic would come out unjoined and left-to-right).
 * WinAnsi text keeps the `font_name` face (DejaVu); other text takes the Noto faces, bold ones
 * when font_name names a bold face.
 */
import {
  AlphaAction,
  Channels,
  ColorSpace,
  CompositeOperator,
  EvaluateOperator,
  MagickColors,
  MagickFormat,
  MagickGeometry,
  MagickImage,
  MagickReadSettings,
  Point,
  type IMagickImage,
} from "@imagemagick/magick-wasm";
import { TaskError } from "../../errors";
import { FONT_LOCATIONS, isWinAnsi, wantsBold, type FontFile, type FontSource } from "../../text/faces";
import { shapeText, type ShapedText } from "../../text/shape";
import { shapedToSvg } from "../../text/svg";
import { checkImageBudget, sniffImage } from "../budget";
import { rawHeader } from "../raw";
import { decode, decodeFrame, encode } from "../codec";
import { FONT_FILES, resolveFont } from "../../fonts";
import { MULTI_FRAME_OUTPUTS, WRITABLE_FORMATS } from "../formats";
import { placeOverlay } from "../geometry";
import { checkMemory, memoryPlan } from "../memory";
import { toImageTaskError } from "../magick-errors";
import { orient, prepareForFormat } from "../transform";
import type { ImageHeader } from "../sniff";
import type { ImageBudget, ImageFormat, ImageRunOutput, WatermarkOptions } from "../../kinds/image";

/** Default point size of a text watermark. */
export const DEFAULT_FONT_SIZE = 40;

/**
 * Shapes the watermark text before the synchronous pipeline runs (fonts load asynchronously, on
 * first need). Undefined for an image watermark.
 * @throws TaskError UNSUPPORTED (no fonts on this platform, unknown font_name, characters no shipped font covers)
 */
export async function shapeWatermarkText(
  o: WatermarkOptions,
  fonts: FontSource | undefined,
): Promise<ShapedText | undefined> {
  if (!o.text) return undefined;
  if (!fonts)
    throw new TaskError(
      "UNSUPPORTED",
      "Text watermarks need the shipped fonts, which this engine was started without.",
    );
  if (!isWinAnsi(o.text)) return shapeText(o.text, fonts, { bold: wantsBold(o.font_name) });
  const face = resolveFont(o.font_name);
  if (!face || !(FONT_FILES[face] in FONT_LOCATIONS)) {
    throw new TaskError(
      "UNSUPPORTED",
      `font_name "${o.font_name}" is not available; use one of: ${Object.keys(FONT_FILES).join(", ")}.`,
    );
  }
  return shapeText(o.text, fonts, { named: FONT_FILES[face] as FontFile });
}

/** Point size of the text: font_width_percent of the image width over the block's em width, else font_size (default 40). */
function textSize(t: ShapedText, o: WatermarkOptions, baseWidth: number): number {
  return o.font_width_percent
    ? ((o.font_width_percent / 100) * baseWidth) / t.width
    : (o.font_size ?? DEFAULT_FONT_SIZE);
}

function textLayer(t: ShapedText, o: WatermarkOptions, baseWidth: number): IMagickImage {
  const { svg } = shapedToSvg(t, { size: textSize(t, o, baseWidth), align: o.font_align, color: o.font_color });
  const settings = new MagickReadSettings({ format: MagickFormat.Msvg, backgroundColor: MagickColors.Transparent });
  const layer = MagickImage.create();
  try {
    layer.read(new TextEncoder().encode(svg), settings);
    layer.trim();
    layer.resetPage();
    return layer;
  } catch (err) {
    layer.dispose();
    throw err;
  }
}

function imageLayer(
  extra: Uint8Array,
  format: ImageFormat,
  o: WatermarkOptions,
  baseWidth: number,
  budget: ImageBudget,
): IMagickImage {
  const header = checkImageBudget(extra, format, budget, false, "watermark");
  const layer = decodeFrame(extra, header, { what: `watermark ${header.format.toUpperCase()}` });
  orient(layer);
  // as on PDFs: image_width_percent wins; both sides → exactly that box; one side → the other follows the aspect ratio
  const px = (n: number | undefined) => (n ? Math.max(1, Math.round(n)) : 0);
  const width = o.image_width_percent ? (baseWidth * o.image_width_percent) / 100 : o.image_width;
  const height = o.image_width_percent ? undefined : o.image_height;
  if (width || height) {
    const g = new MagickGeometry(px(width), px(height));
    g.ignoreAspectRatio = !!(width && height);
    layer.resize(g);
  }
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
function overlayPixels(o: WatermarkOptions, base: ImageHeader, extra?: Uint8Array, text?: ShapedText): number {
  if (extra) {
    const h = sniffImage(extra);
    return (h ? h.width * h.height : 0) + base.width * base.height;
  }
  if (!text) return 0;
  const size = textSize(text, o, base.width);
  return Math.min(
    2 * (text.width + 0.5) * size * (text.lineHeight * text.lines.length + 0.5) * size,
    4 * base.width * base.height,
  );
}

/**
 * Input bytes + (text shaped by shapeWatermarkText | watermark image bytes) → watermarked image in `outputFormat`.
 * @throws TaskError (OPEN_FAILED for either image, OVER_BUDGET, UNSUPPORTED format, CONVERSION_FAILED)
 */
export function runWatermark(
  input: Uint8Array,
  inputFormat: ImageFormat,
  outputFormat: ImageFormat,
  o: WatermarkOptions,
  budget: ImageBudget,
  extra?: Uint8Array,
  extraFormat?: ImageFormat,
  text?: ShapedText,
): ImageRunOutput<Uint8Array>[] {
  if (!WRITABLE_FORMATS.includes(outputFormat))
    throw new TaskError("UNSUPPORTED", `ImageMagick in WebAssembly cannot write ${outputFormat.toUpperCase()}.`);
  if (o.text && !text)
    throw new TaskError("INTERNAL_ERROR", "The watermark text was not shaped before the pipeline ran.");
  if (!o.text && !extra) throw new TaskError("CONVERSION_FAILED", "A watermark needs `text` or `image`.");
  const keepFrames = MULTI_FRAME_OUTPUTS.includes(outputFormat);
  const header = checkImageBudget(input, inputFormat, budget, keepFrames, "input", rawHeader);
  const what = `input ${header.format.toUpperCase()}`;
  checkMemory(
    memoryPlan(
      input,
      header,
      keepFrames ? header.frames : 1,
      outputFormat,
      null,
      undefined,
      overlayPixels(o, header, extra, text),
    ),
    budget,
    what,
  );
  const frames = decode(input, header, { frames: keepFrames ? Infinity : 1, what });
  let layer: IMagickImage | undefined;
  try {
    if (frames.length > 1 && (header.format === "gif" || header.format === "webp")) frames.coalesce();
    for (const f of frames) orient(f);
    const base = frames[0];
    try {
      layer = text ? textLayer(text, o, base.width) : imageLayer(extra!, extraFormat ?? "png", o, base.width, budget);
      styleLayer(layer, o);
    } catch (err) {
      throw toImageTaskError(err, "process", o.text ? "watermark text" : "watermark image");
    }
    const { x, y } = placeOverlay(base.width, base.height, layer.width, layer.height, o);
    for (const f of frames) {
      if (f.colorSpace === ColorSpace.Gray) f.colorSpace = ColorSpace.sRGB; // or coloured ink turns grey
      // "below": DstOver keeps the frame on top, so the watermark shows only through its transparency
      f.composite(layer, o.layer === "below" ? CompositeOperator.DstOver : CompositeOperator.Over, new Point(x, y));
      prepareForFormat(f, outputFormat);
    }
    const data = encode(frames, outputFormat, `output ${outputFormat.toUpperCase()}`);
    return [{ data, format: outputFormat, width: base.width, height: base.height, frames: frames.length }];
  } finally {
    layer?.dispose();
    frames.dispose();
  }
}
