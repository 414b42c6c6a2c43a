/**
 * A bound on how deeply a request body's JSON nests (issue 45: a task parameter nested 50,000 deep answered 500, as
 * the lenient handling of unknown options walked it recursively). Checked once, iteratively, right after parsing, so
 * nothing later — validation, the job's storage, the payload echo — meets a value deeper than this.
 */
import { ApiError } from "./errors";

/**
 * Deepest nesting of objects and arrays a body may have (the body itself is level 1). CloudConvert's real payloads
 * nest 4–6 levels (job → tasks → task → headers/metadata → value); 64 leaves room for any honest one.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The path (dotted, as the 422's field) of the first value of `body` nested deeper than `limit`, or null. Iterative:
 * no recursion, whatever the depth.
 */
export function tooDeep(body: unknown, limit = MAX_JSON_DEPTH): string | null {
  const stack: { v: unknown; depth: number; path: string }[] = [{ v: body, depth: 1, path: "" }];
  while (stack.length) {
    const { v, depth, path } = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth > limit) return path || "body";
    for (const [k, child] of Object.entries(v))
      if (typeof child === "object" && child !== null)
        stack.push({ v: child, depth: depth + 1, path: path ? `${path}.${k}` : k });
  }
  return null;
}

/**
 * Refuses a body nested deeper than MAX_JSON_DEPTH.
 * @throws ApiError 422 INVALID_DATA naming the first such field (at most its first 8 path segments)
 */
export function assertJsonDepth(body: unknown): void {
  const path = tooDeep(body);
  if (path === null) return;
  const field = path.split(".").slice(0, 8).join(".");
  throw new ApiError(422, "The given data was invalid.", "INVALID_DATA", {
    [field]: [`The value nests more than ${MAX_JSON_DEPTH} levels deep.`],
  });
}
