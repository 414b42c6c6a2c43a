/**
 * Helpers shared by the image operations: finding the engine in the context, resolving formats,
 * reading inputs under the byte budget, turning engine results back into TaskErrors, and naming
 * outputs (contract §6 `filename`; printf `%d` for multi-output tasks).
 */
import { TaskError } from "../../engines/errors";
import { DEFAULT_IMAGE_BUDGET, type ImageFormat, type ImageMagickEngine, type ImageRunOutput, type ImageRunResult } from "../../engines/imagemagick/types";
import { MIME, canonicalFormat } from "../../engines/imagemagick/formats";
import { extensionOf } from "../io/filenames";
import type { InputFile, OperationContext, OperationOutput, OutputFile } from "../types";

/** Key of the engine in `ctx.engines` (the runner puts the in-process engine or the RPC stub there). */
export const IMAGEMAGICK_KEY = "imagemagick";

/** The ImageMagick engine of this runtime. @throws TaskError UNSUPPORTED when the runtime has none */
export function imageEngine(ctx: OperationContext): ImageMagickEngine {
  const engine = ctx.engines[IMAGEMAGICK_KEY] as ImageMagickEngine | undefined;
  if (!engine || typeof engine.run !== "function") {
    throw new TaskError("UNSUPPORTED", "The ImageMagick engine is not available in this runtime.", { retryable: true });
  }
  return engine;
}

/** Canonical format of an input from `input_format` or its extension. @throws TaskError INVALID_CONVERSION_TYPE */
export function inputFormatOf(file: InputFile, inputFormat: string | undefined, operation: string): ImageFormat {
  const named = inputFormat ?? extensionOf(file.filename);
  const format = canonicalFormat(named);
  if (!format) {
    throw new TaskError("INVALID_CONVERSION_TYPE", `${operation} cannot read ${named ? `${named} files` : `${file.filename} (no extension; set input_format)`}.`);
  }
  return format;
}

/** Reads an input's bytes, refusing it on its stored size first. @throws TaskError OVER_BUDGET | FILE_NOT_FOUND | CANCELLED */
export async function readImage(file: InputFile, ctx: OperationContext, label = "input"): Promise<Uint8Array> {
  if (file.size > DEFAULT_IMAGE_BUDGET.maxBytes) {
    throw new TaskError("OVER_BUDGET", `The ${label} ${file.filename} is ${file.size} bytes; images are processed up to ${DEFAULT_IMAGE_BUDGET.maxBytes} bytes.`);
  }
  const bytes = await file.bytes();
  if (ctx.signal.aborted) throw new TaskError("CANCELLED", "The task was cancelled.");
  return bytes;
}

/** The outputs of a successful engine call. @throws TaskError carrying the engine's code and message */
export function unwrapImageResult(result: ImageRunResult, filename: string): Extract<ImageRunResult, { ok: true }> {
  if (!result.ok) {
    throw new TaskError(result.error.code, `${filename}: ${result.error.message}`, { retryable: result.error.retryable });
  }
  return result;
}

/** "photo.final.jpg" → "photo.final". */
export function baseName(filename: string): string {
  const ext = extensionOf(filename);
  return ext ? filename.slice(0, filename.length - ext.length - 1) : filename;
}

/**
 * Output name: `filename` when given (its `%d` replaced by `index`; without `%d`, outputs after the
 * first get "-index"), else the input's base name + the output extension, numbered when
 * `numbered` (multi-output tasks such as thumbnail with count > 1).
 */
export function outputName(filename: string | undefined, input: string, ext: string, index: number, numbered: boolean): string {
  if (filename && /%0?\d*d/.test(filename)) {
    return filename.replace(/%(0?)(\d*)d/, (_, zero: string, width: string) => String(index).padStart(Number(width || 0), zero ? "0" : " "));
  }
  if (filename) return index === 1 ? filename : `${baseName(filename)}-${index}.${extensionOf(filename) || ext}`;
  return numbered ? `${baseName(input)}-${index}.${ext}` : `${baseName(input)}.${ext}`;
}

/** OutputFile of one engine output. */
export function imageFile(filename: string, out: ImageRunOutput): OutputFile {
  return { filename, data: out.data, contentType: MIME[out.format] };
}

/** Engine identity to report on the task, from the engine's own answer. */
export function engineOf(result: { engineVersion: string }): OperationOutput["engine"] {
  return { name: "imagemagick", version: result.engineVersion };
}
