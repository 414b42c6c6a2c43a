/**
 * The formats the magick-wasm build (ImageMagick 7.1.2 Q8) can really read and write, verified by
 * test/unit/image-formats.test.ts against Debian's `identify`. Pure data: operations and the catalogue
 * import this without pulling in the engine.
 *
 * Verified facts (magick-wasm 0.0.43): HEIC is read-only (no HEVC encoder: NoEncodeDelegate); AVIF
 * reads and writes; ICO is written only up to 256×256 (larger inputs are fitted into 256×256) and
 * has no magic bytes, so it is always decoded with an explicit format; SVG renders with
 * ImageMagick's internal MSVG renderer (the default SVG coder shells out to inkscape, which cannot
 * exist in WASM) and is offered only as an input to raster outputs.
 */
import type { ImageFormat } from "./types";

/** Formats ImageMagick decodes. */
export const READABLE_FORMATS: readonly ImageFormat[] = ["png", "jpg", "webp", "gif", "tiff", "bmp", "ico", "avif", "heic", "svg"];

/** Formats ImageMagick encodes. */
export const WRITABLE_FORMATS: readonly ImageFormat[] = ["png", "jpg", "webp", "gif", "tiff", "bmp", "ico", "avif"];

/** Outputs that keep every frame of a multi-frame input (animation or pages); others take frame 1. */
export const MULTI_FRAME_OUTPUTS: readonly ImageFormat[] = ["gif", "webp", "tiff"];

/** Outputs with lossy quality (1–100). */
export const LOSSY_OUTPUTS: readonly ImageFormat[] = ["jpg", "webp", "avif"];

/** Inputs that need `svg` handling (rasterised, so only raster outputs of convert). */
export const SVG_OUTPUTS: readonly ImageFormat[] = ["png", "jpg"];

const ALIASES: Record<string, ImageFormat> = { jpeg: "jpg", jpe: "jpg", jfif: "jpg", tif: "tiff", heif: "heic", dib: "bmp", cur: "ico" };

/** Canonical format name for an extension or format string (case-insensitive), or undefined. */
export function canonicalFormat(name: string | undefined): ImageFormat | undefined {
  if (!name) return undefined;
  const n = name.toLowerCase().replace(/^\./, "");
  const f = (ALIASES[n] ?? n) as ImageFormat;
  return READABLE_FORMATS.includes(f) || WRITABLE_FORMATS.includes(f) ? f : undefined;
}

/** MIME type of an output format. */
export const MIME: Record<ImageFormat, string> = {
  png: "image/png", jpg: "image/jpeg", webp: "image/webp", gif: "image/gif", tiff: "image/tiff",
  bmp: "image/bmp", ico: "image/vnd.microsoft.icon", avif: "image/avif", heic: "image/heic", svg: "image/svg+xml",
};
