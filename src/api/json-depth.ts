/**
 * Bounds on a request body's JSON (issue 45: a task parameter nested 50,000 deep answered 500, as the lenient
 * handling of unknown options walked it recursively). Checked once, iteratively, right after parsing and before
 * anything else looks at the body — validation, the ignored-option warnings, the job's storage, the payload echo —
 * so nothing later meets a value deeper, wider, longer or stranger than these bounds, known parameter or unknown.
 *
 * The bounds are far above anything a CloudConvert client sends (the SDKs' payloads nest 4–6 levels and hold tens of
 * keys); each says why below. A body past one is a 422 INVALID_DATA naming the task and the field, in CloudConvert's
 * error body: `{"message":"The given data was invalid.","code":"INVALID_DATA","errors":{"tasks.t.opt.x":["Task t:
 * opt.x …"]}}`.
 */
import type { Context } from "hono";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";

/** Largest JSON body of a job or a standalone task (bytes); import/base64 files bigger than this belong in import/upload. */
export const MAX_JSON_BYTES = 16 * 1024 * 1024;

/**
 * Deepest nesting of objects and arrays a body may have (the body itself is level 1). CloudConvert's real payloads
 * nest 4–6 levels (job → tasks → task → headers/metadata → value); 64 leaves room for any honest one.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Most keys of one object. The widest honest objects are `tasks` (at most 100 tasks, graph/parse.ts), a
 * metadata/write `metadata` (a file's tags: tens, a few hundred for an exhaustive XMP) and import/url `headers`
 * (a handful): 1,000 is past all of them.
 */
export const MAX_OBJECT_KEYS = 1_000;

/**
 * Most elements of one array. The longest honest arrays are `input` (at most the job's 100 tasks) and merge's
 * per-file passwords (1,000, operations/pdf/merge.ts): 10,000 is past them.
 */
export const MAX_ARRAY_LENGTH = 10_000;

/**
 * Most values (object members and array elements, at every level) in the whole body: 100 tasks of a few dozen
 * options each is ~5,000; this bounds the work of every later walk of the body whatever its shape.
 */
export const MAX_TOTAL_VALUES = 100_000;

/**
 * Longest key, in UTF-16 code units. Task names are at most 128 characters (graph/parse.ts), option names and
 * metadata tag names tens; a key is echoed in warnings and in the 422's field, so it stays short.
 */
export const MAX_KEY_LENGTH = 256;

/**
 * Longest string value, in UTF-16 code units (1 Mi). The longest honest strings are page templates (64 Ki,
 * operations/web/schemas.ts) and URLs (a few Ki with a signature). The file of import/base64 and import/raw (the
 * `file` parameter of those operations) is exempt: it is bounded by the body itself (16 MB, api/jobs.ts).
 */
export const MAX_STRING_LENGTH = 1024 * 1024;

/**
 * Largest magnitude of a number: 2^53 − 1 (Number.MAX_SAFE_INTEGER). Past it a JSON number no longer stands for the
 * integer written, and `1e400` parses as Infinity, which JSON cannot echo back; no CloudConvert option takes a number
 * that large (the largest are byte counts and milliseconds, < 2^43).
 */
export const MAX_NUMBER_MAGNITUDE = Number.MAX_SAFE_INTEGER;

/**
 * Keys refused anywhere in a body: assigned to an object, `__proto__` replaces its prototype, and `constructor` /
 * `prototype` shadow what lookups by name find on every plain object (`handler.refusedParams[key]`). No CloudConvert
 * option or tag is named so.
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** The operations whose `file` parameter is the file itself (exempt from MAX_STRING_LENGTH). */
const FILE_OPERATIONS: ReadonlySet<string> = new Set(["import/base64", "import/raw"]);

/** The first value of a body past a bound: where (path segments from the body) and what is wrong (a sentence). */
export interface BoundBreach {
  /** Keys and array indexes from the body to the offending value (or to the object holding the offending key). */
  path: string[];
  /** Why, e.g. "The value nests more than 64 levels deep." */
  why: string;
}

/**
 * Says whether a long string at `path` is a file the body carries (then only the body's size bounds it). The job
 * body's rule ({@link jobFileString}) is the default; a standalone task passes its own.
 */
export type FileStringRule = (path: readonly string[], body: unknown) => boolean;

/** A job body's file strings: `tasks.<name>.file` of an import/base64 or import/raw task. */
export const jobFileString: FileStringRule = (path, body) => {
  if (path.length !== 3 || path[0] !== "tasks" || path[2] !== "file") return false;
  const tasks = (body as { tasks?: unknown }).tasks;
  const task = tasks && typeof tasks === "object" ? Object.getOwnPropertyDescriptor(tasks, path[1]!)?.value : null;
  return (
    !!task && typeof task === "object" && FILE_OPERATIONS.has((task as { operation?: unknown }).operation as string)
  );
};

/** A standalone task's file strings: its top-level `file` when `operation` is import/base64 or import/raw. */
export const standaloneFileString =
  (operation: string): FileStringRule =>
  (path) =>
    path.length === 1 && path[0] === "file" && FILE_OPERATIONS.has(operation);

/**
 * The first value of `body` past a bound (depth, keys per object, array length, total values, key length, string
 * length, number magnitude, reserved keys), or null. Iterative and stops at the first breach: its cost is bounded by
 * MAX_TOTAL_VALUES whatever the body's shape.
 */
export function firstBreach(body: unknown, isFile: FileStringRule = jobFileString): BoundBreach | null {
  const stack: { v: unknown; depth: number; path: string[] }[] = [{ v: body, depth: 1, path: [] }];
  let values = 0;
  while (stack.length) {
    const { v, depth, path } = stack.pop()!;
    if (typeof v === "string") {
      if (v.length > MAX_STRING_LENGTH && !isFile(path, body))
        return { path, why: `The value is longer than ${MAX_STRING_LENGTH} characters.` };
      continue;
    }
    if (typeof v === "number") {
      if (!Number.isFinite(v) || Math.abs(v) > MAX_NUMBER_MAGNITUDE)
        return { path, why: `The number is out of range (at most ${MAX_NUMBER_MAGNITUDE} in magnitude).` };
      continue;
    }
    if (typeof v !== "object" || v === null) continue;
    if (depth > MAX_JSON_DEPTH) return { path, why: `The value nests more than ${MAX_JSON_DEPTH} levels deep.` };
    if (Array.isArray(v)) {
      if (v.length > MAX_ARRAY_LENGTH) return { path, why: `The list has more than ${MAX_ARRAY_LENGTH} elements.` };
      values += v.length;
      if (values > MAX_TOTAL_VALUES) return { path, why: `The body holds more than ${MAX_TOTAL_VALUES} values.` };
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1, path: [...path, String(i)] });
      continue;
    }
    const keys = Object.keys(v);
    if (keys.length > MAX_OBJECT_KEYS) return { path, why: `The object has more than ${MAX_OBJECT_KEYS} keys.` };
    values += keys.length;
    if (values > MAX_TOTAL_VALUES) return { path, why: `The body holds more than ${MAX_TOTAL_VALUES} values.` };
    for (const k of keys) {
      if (k.length > MAX_KEY_LENGTH)
        return { path, why: `A key is longer than ${MAX_KEY_LENGTH} characters (${k.slice(0, 32)}…).` };
      if (RESERVED_KEYS.has(k)) return { path: [...path, k], why: `The key ${k} is reserved.` };
    }
    for (let i = keys.length - 1; i >= 0; i--)
      stack.push({ v: (v as Record<string, unknown>)[keys[i]!], depth: depth + 1, path: [...path, keys[i]!] });
  }
  return null;
}

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

/** Most path segments a 422's field names (a field 50,000 segments long says no more than its first few). */
const FIELD_SEGMENTS = 8;

/**
 * The 422 of a breach: its field is the dotted path (at most FIELD_SEGMENTS segments, each at most MAX_KEY_LENGTH
 * long); under `tasks.<name>` the message names the task as graph validation does ("Task t: opt.x …").
 */
export function breachError(b: BoundBreach): ApiError {
  const segs = b.path.slice(0, FIELD_SEGMENTS).map((s) => s.slice(0, MAX_KEY_LENGTH));
  const field = segs.join(".") || "body";
  const inTask = segs[0] === "tasks" && segs.length >= 2;
  const rest = segs.slice(inTask ? 2 : 0).join(".");
  const message = inTask ? `Task ${segs[1]}: ${rest ? `${rest}: ` : ""}${b.why}` : `${field}: ${b.why}`;
  return new ApiError(422, "The given data was invalid.", "INVALID_DATA", { [field]: [message] });
}

/**
 * Refuses a body past any bound of this module.
 * @throws ApiError 422 INVALID_DATA naming the first such field (see {@link breachError})
 */
export function assertJsonBounds(body: unknown, isFile: FileStringRule = jobFileString): void {
  const b = firstBreach(body, isFile);
  if (b) throw breachError(b);
}

/** Former name of {@link assertJsonBounds} (depth was its first bound). @throws ApiError 422 as it */
export const assertJsonDepth = assertJsonBounds;

/**
 * A request body's text as the JSON object the API takes: parsed, an object (not an array or a scalar), and within
 * every bound of this module. What POST /v2/jobs and POST /v2/{operation} read (api/jobs.ts, api/tasks.ts); empty
 * text is `{}`.
 * @throws SyntaxError when the text is not JSON (answered 400) | ApiError 422 INVALID_DATA naming `field` when it is
 *   not an object, or the first field past a bound
 */
export function parseJsonBody(
  text: string,
  field: string,
  isFile: FileStringRule = jobFileString,
): Record<string, unknown> {
  const body: unknown = text.trim() ? JSON.parse(text) : {};
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new ApiError(422, "The given data was invalid.", "INVALID_DATA", {
      [field]: ["The body must be a JSON object."],
    });
  assertJsonBounds(body, isFile);
  return body as Record<string, unknown>;
}

/**
 * Reads a request's JSON object body (POST /v2/jobs, POST /v2/{operation}): at most MAX_JSON_BYTES, then
 * {@link parseJsonBody}.
 * @throws ApiError 413 FILE_TOO_LARGE over MAX_JSON_BYTES (by Content-Length before reading, else after) | as
 *   parseJsonBody (SyntaxError → 400, ApiError 422)
 */
export async function readJsonObject(
  c: Context<AppEnv>,
  field: string,
  isFile: FileStringRule = jobFileString,
): Promise<Record<string, unknown>> {
  const tooLarge = () =>
    new ApiError(
      413,
      "The request body is too large (16 MB at most; use import/upload for big files).",
      "FILE_TOO_LARGE",
    );
  if (Number(c.req.header("content-length") ?? 0) > MAX_JSON_BYTES) throw tooLarge();
  const text = await c.req.text();
  if (text.length > MAX_JSON_BYTES) throw tooLarge();
  return parseJsonBody(text, field, isFile);
}
