/**
 * Decoding and encoding through magick-wasm with the service's rules:
 * - the format is always explicit (ICO has no magic bytes; SVG goes to the internal MSVG renderer);
 * - a single-frame decode reports warnings, and a truncation warning ("Premature end of JPEG
 *   file") is an OPEN_FAILED rather than a half-grey picture;
 * - every failure becomes a TaskError (magick-errors.ts);
 * - callers own the returned collection and must dispose() it.
 */
import {
  Density,
  DensityUnit,
  MagickFormat,
  MagickImage,
  MagickImageCollection,
  MagickReadSettings,
  type IMagickImage,
  type IMagickImageCollection,
  type WarningEvent,
} from "@imagemagick/magick-wasm";
import { TaskError } from "../errors";
import { TRUNCATION_WARNING, cleanMagickMessage, toImageTaskError } from "./magick-errors";
import type { ImageHeader } from "./sniff";
import type { ImageFormat } from "../kinds/image";
import { RAW_FORMATS, type RawFormat } from "../../../native-protocol/image";
import { RAW_MAGICK_FORMAT, isRaw, rawDecodeFailure } from "./raw";
import { oddPackage } from "./odd";
import { ppiOf } from "./transform";

/** magick-wasm format per canonical name (the formats the WASM build reads or writes; the others are native-only). */
export const MAGICK_FORMAT: Partial<Record<ImageFormat, MagickFormat>> = {
  png: MagickFormat.Png,
  jpg: MagickFormat.Jpeg,
  webp: MagickFormat.WebP,
  gif: MagickFormat.Gif,
  tiff: MagickFormat.Tiff,
  bmp: MagickFormat.Bmp,
  ico: MagickFormat.Ico,
  avif: MagickFormat.Avif,
  heic: MagickFormat.Heic,
  svg: MagickFormat.Msvg,
  jxl: MagickFormat.Jxl,
  psd: MagickFormat.Psd,
  ppm: MagickFormat.Pnm, // ImageMagick's PNM reader takes every Netpbm magic (P1–P6)
  ...(Object.fromEntries(RAW_FORMATS.map((f) => [f, RAW_MAGICK_FORMAT])) as Record<RawFormat, MagickFormat>),
  pdf: MagickFormat.Pdf, // ImageMagick's own PDF writer (no Ghostscript: that only reads PDF), a page per frame
  odd: MagickFormat.Png, // the picture, then packaged as an OpenDocument Drawing (odd.ts)
  eps: MagickFormat.Eps3, // Level 3: Flate-compressed samples (transform.ts); Level 1 is hex, 2.5× larger
  ps: MagickFormat.Ps3,
};

/** Inputs of which only the first image is decoded: a PSD's others are its layers, a Netpbm file's are rare. */
const FIRST_IMAGE_ONLY: readonly ImageFormat[] = ["psd", "ppm"];

/** How to decode. Sizes in pixels; `density` in pixels per inch (SVG rasterisation). */
export interface DecodeOptions {
  /** Decode this many frames from the first (Infinity: all); 1 reports truncation warnings. */
  frames: number;
  /** Lets libjpeg decode at a reduced scale that still covers this box (thumbnails). */
  sizeHint?: { w: number; h: number };
  density?: number;
  /** Subject for messages, e.g. "input JPG". */
  what: string;
  /** With `frames: 1`, the frame decoded (0-based; default the first, or an ICO's largest entry). */
  frameIndex?: number;
}

function readSettings(header: ImageHeader, o: Omit<DecodeOptions, "frames">): MagickReadSettings {
  const s = new MagickReadSettings({ format: MAGICK_FORMAT[header.format] });
  if (o.density) s.density = new Density(o.density, DensityUnit.PixelsPerInch);
  // only a reduction: a hint above the stored size makes libjpeg scale UP (to 2×) while decoding
  const hint = o.sizeHint;
  if (header.format === "jpg" && hint && hint.w <= header.width && hint.h <= header.height) {
    s.setDefine(MagickFormat.Jpeg, "size", `${hint.w}x${hint.h}`);
  }
  return s;
}

/**
 * Decodes `bytes` (already budget-checked into `header`) into a collection of frames.
 * @throws TaskError OPEN_FAILED (corrupt/truncated), OVER_BUDGET (resource limits)
 */
export function decode(bytes: Uint8Array, header: ImageHeader, o: DecodeOptions): IMagickImageCollection {
  if (o.frames === 1 || FIRST_IMAGE_ONLY.includes(header.format) || isRaw(header.format)) {
    const frames = MagickImageCollection.create();
    frames.push(decodeFrame(bytes, header, o) as MagickImage);
    return frames;
  }
  const settings = readSettings(header, o);
  const frames = MagickImageCollection.create();
  try {
    if (Number.isFinite(o.frames)) {
      settings.frameIndex = 0;
      settings.frameCount = o.frames;
    }
    frames.read(bytes, settings);
    if (frames.length === 0) throw new TaskError("OPEN_FAILED", `The ${o.what} contains no image.`);
    return frames;
  } catch (err) {
    frames.dispose();
    throw toImageTaskError(err, "read", o.what);
  }
}

/**
 * Decodes one frame: the first, or for ICO the largest entry. Warnings are watched, and a
 * truncation warning fails the decode. The caller owns (disposes) the image.
 * @throws TaskError OPEN_FAILED / OVER_BUDGET
 */
export function decodeFrame(bytes: Uint8Array, header: ImageHeader, o: Omit<DecodeOptions, "frames">): IMagickImage {
  const settings = readSettings(header, o);
  const image = MagickImage.create();
  const warnings: string[] = [];
  image.onWarning = (e: WarningEvent) => void warnings.push(e.error.message);
  try {
    if (o.frameIndex !== undefined) settings.frameIndex = o.frameIndex;
    else if (FIRST_IMAGE_ONLY.includes(header.format)) {
      settings.frameIndex = 0; // ImageMagick then reads no layer of a PSD (number_scenes 1)
      settings.frameCount = 1;
    } else if (header.format === "ico") settings.frameIndex = largestEntry(bytes, settings);
    image.read(bytes, settings);
    const truncated = warnings.find((w) => TRUNCATION_WARNING.test(w));
    if (truncated)
      throw new TaskError("OPEN_FAILED", `The ${o.what} is truncated or corrupt: ${cleanMagickMessage(truncated)}.`);
    image.onWarning = undefined;
    return image;
  } catch (err) {
    image.dispose();
    if (isRaw(header.format) && !(err instanceof TaskError)) throw rawDecodeFailure(err, header.format);
    throw toImageTaskError(err, "read", o.what);
  }
}

/** Index of the largest entry of an ICO (pinged: sizes only, no pixels). */
function largestEntry(bytes: Uint8Array, settings: MagickReadSettings): number {
  const all = MagickImageCollection.create();
  try {
    all.ping(bytes, settings);
    let best = 0;
    all.forEach((f, i) => {
      if (f.width * f.height > all[best].width * all[best].height) best = i;
    });
    return best;
  } finally {
    all.dispose();
  }
}

/**
 * Encodes frames to `format`: one frame → that image; several → an animation/multi-page file.
 * Returns a copy of the bytes (magick's buffer lives in WASM memory).
 * @throws TaskError CONVERSION_FAILED / OVER_BUDGET
 */
export function encode(frames: IMagickImageCollection, format: ImageFormat, what: string): Uint8Array {
  // an odd holds one picture: the first frame
  if (frames.length === 1 || format === "odd") return encodeFrame(frames[0], format, what);
  try {
    return withPageSize(
      frames.write(MAGICK_FORMAT[format]!, (d) => d.slice()),
      format,
    );
  } catch (err) {
    throw toImageTaskError(err, "write", what);
  }
}

/** Encodes one frame to `format` (a copy of the bytes). @throws TaskError CONVERSION_FAILED / OVER_BUDGET */
export function encodeFrame(frame: IMagickImage, format: ImageFormat, what: string): Uint8Array {
  try {
    const data = frame.write(MAGICK_FORMAT[format]!, (d) => d.slice());
    if (format === "odd") return oddPackage(data, frame.width, frame.height, ppiOf(frame));
    return withPageSize(data, format);
  } catch (err) {
    throw toImageTaskError(err, "write", what);
  }
}

/**
 * A PS output with its page set to the picture's size. ImageMagick's PS3 coder states the picture's box in
 * DSC comments only (`%%PageBoundingBox`), so a PostScript interpreter would draw it on its default paper (A4
 * or Letter); the native row's PS sets `/PageSize` (container/engines/postscript.ts), and so does this one: a
 * setup section (`<< /PageSize [w h] >> setpagedevice`, PLRM 3rd ed. §6.1.1) before the first page. Other
 * formats, and a PS without the comment, come back unchanged.
 */
export function withPageSize(data: Uint8Array, format: ImageFormat): Uint8Array {
  if (format !== "ps") return data;
  let head = ""; // the DSC header is ASCII; the samples come after it
  for (let i = 0; i < Math.min(data.byteLength, 32 * 1024); i++) head += String.fromCharCode(data[i]);
  const box = /^%%PageBoundingBox: *-?\d+ +-?\d+ +(\d+) +(\d+)\s*$/m.exec(head);
  const page = /^%%Page: 1 1\r?$/m.exec(head);
  if (!box || !page) return data;
  const setup = new TextEncoder().encode(
    `%%BeginSetup\n<< /PageSize [${box[1]} ${box[2]}] >> setpagedevice\n%%EndSetup\n`,
  );
  const out = new Uint8Array(data.byteLength + setup.byteLength);
  out.set(data.subarray(0, page.index));
  out.set(setup, page.index);
  out.set(data.subarray(page.index), page.index + setup.byteLength);
  return out;
}
