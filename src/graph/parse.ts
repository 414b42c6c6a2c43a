/**
 * Parsing and validating a job's task graph before anything runs (issue 2, contract §1.1, §2.5).
 *
 * Pure: no I/O, and no operation table of its own: what it asks of the operations (their handlers, the
 * check of a task's parameters) comes in as a {@link TaskCatalog} (operations/validate.ts `TASK_CATALOG`), so
 * the graph rules stand below the operations. Every problem becomes a message keyed by field, in
 * Laravel's style ("Task convert-1: output_format is required") so the API can answer 422 INVALID_DATA.
 */
import type { OperationHandler } from "../operations/types";

/** A validated task of a job: its name, operation, input names in order, and its parameters. */
export interface TaskSpec {
  name: string;
  operation: string;
  /** Names of the tasks this task takes files from, in the order given (contract §2.1 payload). */
  input: string[];
  ignoreError: boolean;
  /** Timeout in seconds (default 5 h, contract §7). */
  timeout: number;
  /** Parameters as validated (defaults applied), including the common ones. */
  params: Record<string, unknown>;
  /** The echo of what was submitted, for `payload` (input normalised to an array of names). */
  payload: Record<string, unknown>;
  /** Tasks named by parameters rather than `input` (the handlers' `taskRefs`, e.g. watermark `image`). */
  refs: string[];
}

/** Validation errors: field → messages (contract §2.5). */
export type FieldErrors = Record<string, string[]>;

export const DEFAULT_TIMEOUT_S = 5 * 3600;
/** What a credential parameter (OperationHandler.secretParams) reads as in a task's payload. */
export const SECRET_MASK = "********";
/** A task name (operations/web/schemas.ts TASK_NAME is the same rule). */
const NAME_RE = /^[A-Za-z0-9_-]{1,128}$/;
const MAX_TASKS = 100;

/** What parsing asks of the operation table; supplied by the caller (operations/validate.ts `TASK_CATALOG`) so this module stays pure. */
export interface TaskCatalog {
  /** The handlers of `operation`, or undefined when it is unknown. */
  handlersOf(operation: string): OperationHandler[] | undefined;
  /**
   * `raw` (the task object minus name/operation/input/ignore_error) checked against `handlers`: the parameters with
   * defaults applied, or messages without the task prefix. `inputHint` is the probable format of the first input.
   */
  validateParams(
    handlers: OperationHandler[],
    raw: Record<string, unknown>,
    inputHint?: string,
  ): { params: Record<string, unknown> } | { errors: string[] };
}

function add(errors: FieldErrors, field: string, msg: string) {
  (errors[field] ??= []).push(msg);
}

/** Normalises `input` (string | string[] | undefined) to an array; returns null when malformed. */
export function normaliseInput(input: unknown): string[] | null {
  if (input === undefined || input === null) return [];
  if (typeof input === "string") return [input];
  if (Array.isArray(input) && input.every((x) => typeof x === "string")) return input as string[];
  return null;
}

/**
 * Validates the `tasks` object of POST /v2/jobs.
 * Returns the task specs in submission order, or field errors. Rules: names [A-Za-z0-9_-];
 * inputs name existing tasks; no cycles; operations known; parameters valid for the operation.
 */
export function parseJobTasks(tasks: unknown, catalog: TaskCatalog): { specs: TaskSpec[] } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  if (tasks === undefined || tasks === null) return { errors: { tasks: ["The tasks field is required."] } };
  if (typeof tasks !== "object" || Array.isArray(tasks))
    return { errors: { tasks: ["The tasks field must be an object of named tasks."] } };
  const entries = Object.entries(tasks as Record<string, unknown>);
  if (entries.length === 0) return { errors: { tasks: ["The tasks field is required."] } };
  if (entries.length > MAX_TASKS) return { errors: { tasks: [`A job may hold at most ${MAX_TASKS} tasks.`] } };
  const specs: TaskSpec[] = [];
  for (const [name, raw] of entries) {
    const field = `tasks.${name}`;
    if (!NAME_RE.test(name)) {
      add(errors, field, `Task ${name}: the name may only contain letters, digits, '-' and '_'.`);
      continue;
    }
    const hint = inputHint(raw, tasks as Record<string, unknown>);
    const spec = parseTask(name, raw, catalog, (msg) => add(errors, field, `Task ${name}: ${msg}`), hint);
    if (spec) specs.push(spec);
  }
  const names = new Set(entries.map(([n]) => n));
  for (const s of specs) {
    for (const i of s.input)
      if (!names.has(i))
        add(errors, `tasks.${s.name}.input`, `Task ${s.name}: input task "${i}" does not exist in this job.`);
    for (const ref of s.refs)
      if (!names.has(ref))
        add(
          errors,
          `tasks.${s.name}`,
          `Task ${s.name}: task "${ref}" named by a parameter does not exist in this job.`,
        );
  }
  if (Object.keys(errors).length === 0) {
    const cycle = findCycle(specs);
    if (cycle) add(errors, "tasks", `The tasks form a cycle: ${cycle.join(" → ")}.`);
  }
  return Object.keys(errors).length ? { errors } : { specs };
}

/**
 * Validates one task object (shared by jobs and standalone POST /v2/{operation}).
 * `report` receives messages without the task prefix.
 */
export function parseTask(
  name: string,
  raw: unknown,
  catalog: TaskCatalog,
  report: (msg: string) => void,
  inputHint?: string,
): TaskSpec | null {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    report("the task must be an object with an operation.");
    return null;
  }
  const body = raw as Record<string, unknown>;
  const operation = body.operation;
  if (typeof operation !== "string" || operation === "") {
    report("operation is required.");
    return null;
  }
  const handlers = catalog.handlersOf(operation);
  if (!handlers) {
    report(`operation "${operation}" is not supported by this server (see GET /v2/operations).`);
    return null;
  }
  const input = normaliseInput(body.input);
  if (input === null) {
    report("input must be a task name or an array of task names.");
    return null;
  }
  const takesInput = handlers[0].takesInput;
  if (takesInput && input.length === 0 && operation !== "watermark") report("input is required.");
  if (!takesInput && input.length > 0) report(`operation ${operation} takes no input.`);
  const timeout = body.timeout ?? DEFAULT_TIMEOUT_S;
  if (typeof timeout !== "number" || !Number.isInteger(timeout) || timeout < 1 || timeout > 24 * 3600) {
    report("timeout must be an integer number of seconds between 1 and 86400.");
    return null;
  }
  const ignoreError = body.ignore_error === true;
  const { name: _n, operation: _o, input: _i, ignore_error: _ie, ...rest } = body;
  const checked = catalog.validateParams(handlers, rest, inputHint);
  if ("errors" in checked) {
    for (const m of checked.errors) report(m);
    return null;
  }
  const payload: Record<string, unknown> = { operation, ...rest };
  if (takesInput || input.length) payload.input = input;
  if ((operation === "import/base64" || operation === "import/raw") && typeof payload.file === "string")
    payload.file = `(${payload.file.length} characters)`;
  for (const k of handlers.flatMap((h) => h.secretParams ?? []))
    if (payload[k] !== undefined && payload[k] !== null) payload[k] = SECRET_MASK;
  const refKeys = [...new Set(handlers.flatMap((h) => h.taskRefs ?? []))];
  // a parameter that may name a task refers to one only when its value is a task name (a header_template may be HTML)
  const refs = refKeys
    .map((k) => checked.params[k])
    .filter((v): v is string => typeof v === "string" && NAME_RE.test(v));
  return { name, operation, input, ignoreError, timeout, params: checked.params, payload, refs };
}

/** Lower-case extension of a URL's path or a file name, or undefined. */
function extensionIn(name: unknown): string | undefined {
  if (typeof name !== "string") return undefined;
  const path = name.replace(/[?#].*$/, "");
  const m = /\.([a-z0-9]{1,8})$/i.exec(path.slice(path.lastIndexOf("/") + 1));
  return m ? m[1].toLowerCase() : undefined;
}

/**
 * The format the first input of `raw` will probably have, from what its input task declares: its
 * `output_format`, else the extension of its `filename`, else of its `url` (import/url). Only a
 * hint: it picks the handler whose parameters are judged (operations/validate.ts), and a file that
 * turns out otherwise is judged again when it runs.
 */
export function inputHint(raw: unknown, tasks: Record<string, unknown>): string | undefined {
  const first = normaliseInput((raw as { input?: unknown } | null)?.input)?.[0];
  const src = first !== undefined ? tasks[first] : undefined;
  if (typeof src !== "object" || src === null) return undefined;
  const t = src as Record<string, unknown>;
  if (typeof t.output_format === "string" && t.output_format) return t.output_format.toLowerCase();
  return extensionIn(t.filename) ?? extensionIn(t.url);
}

/** Returns one cycle as a list of names, or null (depth-first search over inputs and parameter references). */
export function findCycle(specs: TaskSpec[]): string[] | null {
  const deps = new Map(specs.map((s) => [s.name, [...s.input, ...s.refs]]));
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const visit = (n: string): string[] | null => {
    if (state.get(n) === 2) return null;
    if (state.get(n) === 1) return [...stack.slice(stack.indexOf(n)), n];
    state.set(n, 1);
    stack.push(n);
    for (const d of deps.get(n) ?? []) {
      const c = visit(d);
      if (c) return c;
    }
    stack.pop();
    state.set(n, 2);
    return null;
  };
  for (const s of specs) {
    const c = visit(s.name);
    if (c) return c;
  }
  return null;
}
