/**
 * Budget checks run BEFORE ImageMagick decodes anything (issue 3): bytes, declared pixels per
 * frame, declared frames, and pixels decoded at once. Over budget → TaskError OVER_BUDGET with the
 * numbers and the limit; a file whose signature does not match a format that has one →
 * OPEN_FAILED. Decompression bombs (huge declared size, tiny file) are refused here in
 * microseconds, never by an out-of-memory crash.
 */
import { TaskError } from "../errors";
import { sniffBmp, sniffGif, sniffJpeg, sniffPng, sniffWebp, type ImageHeader } from "./sniff";
import { sniffHeif, sniffIco, sniffPnm, sniffPsd, sniffSvg, sniffTiff } from "./sniff-more";
import type { ImageBudget, ImageFormat } from "../kinds/image";
import { RAW_FORMATS, type RawFormat } from "../../../native-protocol/image";

/**
 * Defaults for a 128 MB isolate: 24 MP is the most a JPEG can declare (its thumbnails decode at
 * 1/8 scale, ~17 MB); full-size work is bounded by the memory estimate (memory.ts), 100 MB: issue 49's bound, which the estimate never
 * undershoots (test/engines-heavy/isolate-memory.test.ts measures the peak at the estimate's edge).
 * The engine table's row reads `maxBytes` (registry.ts).
 */
export const DEFAULT_IMAGE_BUDGET: ImageBudget = {
  maxBytes: 32 * 1024 * 1024,
  maxPixels: 24_000_000,
  maxFrames: 500,
  maxTotalPixels: 24_000_000,
  maxMemoryBytes: 100_000_000,
};

/** Reads the header of whichever format the bytes carry (magic first), or null when none matches. */
export function sniffImage(bytes: Uint8Array, frameCap = DEFAULT_IMAGE_BUDGET.maxFrames): ImageHeader | null {
  return (
    sniffPng(bytes) ??
    sniffJpeg(bytes) ??
    sniffGif(bytes, frameCap) ??
    sniffWebp(bytes, frameCap) ??
    sniffTiff(bytes, frameCap) ??
    sniffHeif(bytes) ??
    sniffBmp(bytes) ??
    sniffPsd(bytes) ??
    sniffPnm(bytes) ??
    null
  );
}

/** Formats with no magic bytes, recognised only because the caller says so. */
const DECLARED_ONLY: Partial<Record<ImageFormat, (b: Uint8Array) => ImageHeader | null>> = {
  ico: sniffIco,
  svg: sniffSvg,
};

/** The effective budget: defaults overridden field by field. */
export function resolveBudget(over?: Partial<ImageBudget>): ImageBudget {
  return {
    ...DEFAULT_IMAGE_BUDGET,
    ...Object.fromEntries(Object.entries(over ?? {}).filter(([, v]) => typeof v === "number")),
  };
}

const mp = (px: number) => `${(px / 1e6).toFixed(1)} MP`;

/**
 * Checks one input against the budget and returns its header (format from the content's magic
 * bytes when it has any — a `.png` that is really a JPEG is decoded as JPEG).
 *
 * @param declared  format from input_format or the file extension
 * @param allFrames true when every frame will be decoded at once (animated output), so
 *                  width × height × frames must fit `maxTotalPixels`
 * @param readRaw   the size of a camera raw as LibRaw parses it (raw.ts `rawHeader`): a declared raw is measured by
 *                  it, never by its magic bytes (a TIFF-based raw's first image is its thumbnail); without it a raw
 *                  is UNSUPPORTED here
 * @throws TaskError OVER_BUDGET (bytes, pixels, frames), OPEN_FAILED (no valid header) or UNSUPPORTED (a raw this
 *                   engine cannot read: the native LibRaw's)
 */
export function checkImageBudget(
  bytes: Uint8Array,
  declared: ImageFormat,
  budget: ImageBudget,
  allFrames: boolean,
  label = "input",
  readRaw?: (bytes: Uint8Array, format: RawFormat) => ImageHeader,
): ImageHeader {
  if (bytes.byteLength > budget.maxBytes) {
    throw new TaskError(
      "OVER_BUDGET",
      `The ${label} image is ${bytes.byteLength} bytes; this engine accepts at most ${budget.maxBytes} bytes.`,
    );
  }
  if (bytes.byteLength === 0) throw new TaskError("OPEN_FAILED", `The ${label} file is empty.`);
  const raw = (RAW_FORMATS as readonly string[]).includes(declared);
  if (raw && !readRaw)
    throw new TaskError("UNSUPPORTED", `This operation of the image engine does not read camera raws (${declared}).`);
  const header = raw
    ? readRaw!(bytes, declared as RawFormat)
    : (sniffImage(bytes, budget.maxFrames) ?? DECLARED_ONLY[declared]?.(bytes) ?? null);
  if (!header) {
    throw new TaskError(
      "OPEN_FAILED",
      `The ${label} file is not a valid ${declared.toUpperCase()} image (unrecognised or corrupt header).`,
    );
  }
  const { width, height, frames } = header;
  if (width <= 0 || height <= 0) {
    throw new TaskError(
      "OPEN_FAILED",
      `The ${label} ${header.format.toUpperCase()} image declares no valid size (${width}×${height}); the file is corrupt or truncated.`,
    );
  }
  if (width * height > budget.maxPixels) {
    throw new TaskError(
      "OVER_BUDGET",
      `The ${label} image declares ${width}×${height} pixels (${mp(width * height)}); this engine accepts at most ${mp(budget.maxPixels)} per frame.`,
    );
  }
  if (frames > budget.maxFrames) {
    throw new TaskError(
      "OVER_BUDGET",
      `The ${label} image declares ${header.capped ? "more than " + budget.maxFrames : frames} frames; this engine accepts at most ${budget.maxFrames}.`,
    );
  }
  if (allFrames && width * height * frames > budget.maxTotalPixels) {
    throw new TaskError(
      "OVER_BUDGET",
      `The ${label} image has ${frames} frames of ${width}×${height} (${mp(width * height * frames)} in all); keeping them all needs at most ${mp(budget.maxTotalPixels)}. Convert to a single-frame format instead.`,
    );
  }
  return header;
}
