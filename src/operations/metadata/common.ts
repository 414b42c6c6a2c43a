/**
 * Helpers of the metadata operations: the engine from the context, the input's format, reading the
 * bytes under the budget, and engine results back into TaskErrors.
 */
import { TaskError } from "../../engines/errors";
import { DEFAULT_EXIFTOOL_BUDGET, type ExifToolEngine } from "../../engines/exiftool/types";
import { extensionOf } from "../io/filenames";
import type { InputFile, OperationContext } from "../types";

/** Key of the engine in `ctx.engines` (the runner puts the in-process engine or the RPC stub there). */
export const EXIFTOOL_KEY = "exiftool";

/** The ExifTool engine of this runtime. @throws TaskError UNSUPPORTED when the runtime has none */
export function exifToolEngine(ctx: OperationContext): ExifToolEngine {
  const engine = ctx.engines[EXIFTOOL_KEY] as ExifToolEngine | undefined;
  if (!engine || typeof engine.read !== "function") {
    throw new TaskError("UNSUPPORTED", "The ExifTool engine is not available in this runtime.", { retryable: true });
  }
  return engine;
}

/** Format the engine reads the input as: `input_format`, else the extension, else none (ExifTool sniffs). */
export const formatOf = (file: InputFile, inputFormat: string | undefined): string | undefined =>
  inputFormat?.toLowerCase() || extensionOf(file.filename) || undefined;

/** Reads an input's bytes, refusing it on its stored size first. @throws TaskError OVER_BUDGET | FILE_NOT_FOUND | CANCELLED */
export async function readInput(file: InputFile, ctx: OperationContext): Promise<Uint8Array> {
  if (file.size > DEFAULT_EXIFTOOL_BUDGET.maxBytes) {
    throw new TaskError("OVER_BUDGET", `${file.filename} is ${file.size} bytes; metadata is read and written for files up to ${DEFAULT_EXIFTOOL_BUDGET.maxBytes} bytes.`);
  }
  const bytes = await file.bytes();
  if (ctx.signal.aborted) throw new TaskError("CANCELLED", "The task was cancelled.");
  return bytes;
}

/**
 * Awaits an engine call: a failure as data becomes a TaskError with its code; a rejected call (the
 * engine Worker was killed, e.g. over its CPU limit, or the binding failed) becomes a TaskError too.
 */
export async function engineCall<T extends { ok: true } | { ok: false; error: { code: TaskError["code"]; message: string; retryable: boolean } }>(
  call: Promise<T>,
  filename: string,
): Promise<Extract<T, { ok: true }>> {
  let result: T;
  try {
    result = await call;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const code = /CPU|time limit|exceeded/i.test(message) ? "TIMEOUT" : "INTERNAL_ERROR";
    throw new TaskError(code, `${filename}: the ExifTool engine failed: ${message}`, { retryable: code === "INTERNAL_ERROR" });
  }
  if (!result.ok) throw new TaskError(result.error.code, `${filename}: ${result.error.message}`, { retryable: result.error.retryable });
  return result as Extract<T, { ok: true }>;
}
