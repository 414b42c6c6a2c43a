/**
 * TaskError: the one failure shape of operations and engines (DESIGN.md principles 3 and 4).
 *
 * Engines normalise their failures into a TaskError at the adapter boundary; the runner turns it
 * into data ({code, message, retryable}) before it crosses RPC or queue boundaries, because class
 * identity does not survive a stub call.
 */

/** Closed vocabulary of task error codes (contract §2.4, plus this service's own). */
export type TaskErrorCode =
  | "INPUT_TASK_FAILED"
  | "INVALID_CONVERSION_TYPE"
  | "OPEN_FAILED"
  | "CONVERSION_FAILED"
  | "TIMEOUT"
  | "CANCELLED"
  | "DOWNLOAD_FAILED"
  | "IMPORT_FORBIDDEN"
  | "FILE_TOO_LARGE"
  | "FILE_NOT_FOUND"
  | "INVALID_CREDENTIALS"
  | "PERMISSION_DENIED"
  | "UPLOAD_FAILED"
  | "INVALID_PASSWORD"
  | "INVALID_PAGES"
  | "UNSAFE_ARCHIVE"
  | "OVER_BUDGET"
  | "UNSUPPORTED"
  | "ENGINE_UNAVAILABLE"
  | "RUNNER_LOST"
  | "INTERNAL_ERROR";

/** A failure as data: what crosses RPC and queue boundaries. */
export interface TaskFailure {
  code: TaskErrorCode;
  message: string;
  /** True when running the same task again may succeed (network blips); false for bad input and poison pills. */
  retryable: boolean;
}

/**
 * The answer of one engine call, as data: its payload `T` with `ok: true`, or a failure as data
 * (`ok: false`, {@link TaskFailure}); both name the engine version that answered. Every kind's methods
 * (kinds/) answer this, never a thrown class, because most engines sit behind an RPC boundary
 * (service binding, container HTTP) where class identity is lost (DESIGN.md principle 4).
 */
export type EngineResult<T> =
  ({ ok: true; engineVersion: string } & T) | { ok: false; error: TaskFailure; engineVersion: string };

/** Thrown by operations and engine adapters. `message` names the field or file and the fix. */
export class TaskError extends Error {
  readonly code: TaskErrorCode;
  readonly retryable: boolean;
  constructor(code: TaskErrorCode, message: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "TaskError";
    this.code = code;
    this.retryable = options.retryable ?? false;
  }
}

/**
 * Normalises anything thrown into a TaskFailure. Unknown errors become INTERNAL_ERROR with the
 * original message kept (never swallowed), not retryable (an engine crash is a poison pill).
 */
export function toFailure(err: unknown): TaskFailure {
  if (err instanceof TaskError) return { code: err.code, message: err.message, retryable: err.retryable };
  if (err instanceof Error && err.name === "AbortError")
    return { code: "CANCELLED", message: "The task was cancelled.", retryable: false };
  const message = err instanceof Error ? err.message : String(err);
  return { code: "INTERNAL_ERROR", message: `Internal error: ${message}`, retryable: false };
}
