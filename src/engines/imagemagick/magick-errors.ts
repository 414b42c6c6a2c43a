/**
 * Normalises whatever magick-wasm throws into a TaskError (DESIGN.md principle 3): decoding
 * failures → OPEN_FAILED, resource-limit refusals → OVER_BUDGET, a face missing for text (an SVG's
 * `<text>` when no font could be had, svg-fonts.ts) → UNSUPPORTED, which is not the file's fault and
 * hands the task to the next engine; everything else during processing or encoding → CONVERSION_FAILED. A WebAssembly trap also discards the instance (magick.ts), so the
 * next call starts from a clean heap. None are retryable: the same input fails the same way.
 */
import { MagickError } from "@imagemagick/magick-wasm";
import { TaskError } from "../errors";
import { discardInstance } from "./magick";

/** Where in the pipeline a failure happened, to pick the code and word the message. */
export type MagickStage = "read" | "process" | "write";

const RESOURCE =
  /CacheResourcesExhausted|WidthOrHeightExceedsLimit|ListLengthExceedsLimit|ResourceLimit|MemoryAllocationFailed|TooManyFrames/i;

/** annotate.c's failures to find or open a face: a missing font, never a broken file. */
const FONT = /UnableToReadFont|FreeTypeLibraryIsNotAvailable|UnableToReadFontFile/i;

/** "UnexpectedEndOfFile `' @ error/png.c/MagickPNGError/1308" → "UnexpectedEndOfFile (png.c)". */
export function cleanMagickMessage(message: string): string {
  const [head, where] = message.split(" @ ");
  const text = head
    .replace(/\s*`'\s*/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  const file = where ? /\/([a-z0-9_-]+\.c)\//i.exec(where)?.[1] : undefined;
  return file ? `${text} (${file})` : text;
}

/**
 * Converts a thrown value into a TaskError. TaskErrors pass through unchanged.
 * @param what  the subject for the message, e.g. "input PNG" or "watermark image"
 */
export function toImageTaskError(err: unknown, stage: MagickStage, what: string): TaskError {
  if (err instanceof TaskError) return err;
  if (err instanceof WebAssembly.RuntimeError || (err instanceof RangeError && /memory/i.test(err.message))) {
    discardInstance();
    return new TaskError(
      "OVER_BUDGET",
      `ImageMagick ran out of memory or crashed on the ${what} (${err.message}); the engine was reset. Try a smaller image.`,
      { cause: err },
    );
  }
  if (err instanceof MagickError) {
    const reason = cleanMagickMessage(err.message);
    if (RESOURCE.test(err.message)) {
      return new TaskError(
        "OVER_BUDGET",
        `The ${what} exceeds this engine's memory budget (${reason}). Use a smaller image or smaller width/height.`,
        { cause: err },
      );
    }
    if (FONT.test(err.message)) {
      return new TaskError(
        "UNSUPPORTED",
        `The ${what} has text this engine cannot draw: no font is available to ImageMagick in WebAssembly (${reason}). The file itself is fine; an engine with fonts (engine: imagemagick-native) may render it.`,
        { cause: err },
      );
    }
    if (stage === "read") {
      return new TaskError(
        "OPEN_FAILED",
        `The ${what} could not be decoded: ${reason}. The file is corrupt, truncated or not in the stated format.`,
        { cause: err },
      );
    }
    return new TaskError(
      "CONVERSION_FAILED",
      `ImageMagick failed while ${stage === "write" ? "encoding" : "processing"} the ${what}: ${reason}.`,
      { cause: err },
    );
  }
  const message = err instanceof Error ? err.message : String(err);
  return new TaskError("CONVERSION_FAILED", `ImageMagick failed on the ${what}: ${message}.`, { cause: err });
}

/** Warnings that mean the pixels are incomplete; decoding such a file is an OPEN_FAILED, not a grey image. */
export const TRUNCATION_WARNING = /Premature end|UnexpectedEndOfFile|truncated|Insufficient image data|CorruptImage/i;
