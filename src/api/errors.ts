/**
 * The one error → HTTP mapping of the API (DESIGN.md principle 3; contract §2.5): every refusal is
 * an ApiError with CloudConvert's body `{message, code, errors?}`; anything else is logged and
 * answered 500 INTERNAL_ERROR without leaking internals.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly code?: string,
    readonly errors?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** 422 INVALID_DATA with per-field messages (contract §2.5). */
export const invalid = (errors: FieldErrors) =>
  new ApiError(422, "The given data was invalid.", "INVALID_DATA", errors);
/** 404 for unknown ids and for ids owned by another user (no existence leak). */
export const notFound = (what = "Not found") => new ApiError(404, what, "NOT_FOUND");
/** 401 exactly as CloudConvert answers it (contract §2.5). */
export const unauthenticated = () => new ApiError(401, "Unauthenticated.");

/** Hono onError handler. */
export function onError(err: Error, c: Context): Response {
  if (err instanceof ApiError) {
    const body: Record<string, unknown> = { message: err.message };
    if (err.code) body.code = err.code;
    if (err.errors) body.errors = err.errors;
    return c.json(body, err.status, err.headers);
  }
  if (err instanceof SyntaxError)
    return c.json({ message: "The request body is not valid JSON.", code: "INVALID_DATA" }, 400);
  console.error("unhandled API error:", err);
  return c.json({ message: "Server Error", code: "INTERNAL_ERROR" }, 500);
}
