/**
 * The console's option forms as pure functions (no DOM): a catalogue option of GET /v2/operations?include=options
 * becomes a form field, a field's value is shown as text and parsed back with the API's own rules, and catalogue rows
 * are narrowed by operation and formats. Imported by the page (main.ts) and by test/unit/console-forms.test.ts.
 */
import type { OptionJson } from "../api/options";

/**
 * One option of a catalogue row (GET /v2/operations?include=options): the handler's own schema of it, as the API
 * writes it (api/options.ts; a type only, nothing of the API's code reaches the page).
 */
export type CatalogueOption = OptionJson;

/** A property of an operation's task object in /openapi.json (only its description is read). */
export interface OpenApiProperty {
  description?: string;
}

/** One form field: a catalogue option with its rules under the names the form reads. */
export interface Field {
  name: string;
  type: string;
  /** The default, null for none. */
  def: unknown;
  description: string;
  /** Read by the page's option control (marked when empty); fieldOf does not set it (as the inline script did not). */
  required?: boolean;
  values?: unknown[];
  min?: number;
  max?: number;
  exMin?: number;
  exMax?: number;
  maxLength?: number;
  format?: string;
  pattern?: string;
}

/** What a typed value parses to: the JSON value (undefined when left empty) or why the API would refuse it. */
export type Parsed = { value: unknown; error?: undefined } | { error: string; value?: undefined };

/** One row of GET /v2/operations: an operation, its formats and engine. */
export interface CatalogueRow {
  operation: string;
  input_format?: string | null;
  output_format?: string | null;
  engine: string;
  [k: string]: unknown;
}

/** Options the builder shows outside the option form (formats, engine, wiring) or not at all. */
export const OWN_FIELDS: ReadonlySet<string> = new Set([
  "operation",
  "input",
  "input_format",
  "output_format",
  "engine",
  "engine_version",
  "ignore_error",
  "redirect",
]);

/** The option rules a field copies, by the field's name for them. */
const RULES = {
  values: "possible_values",
  min: "minimum",
  max: "maximum",
  exMin: "exclusive_minimum",
  exMax: "exclusive_maximum",
  maxLength: "max_length",
  format: "format",
  pattern: "pattern",
} as const;

/**
 * One form field from a catalogue option (its name, type, default, possible values, description, bounds, length,
 * format and pattern); `prop`, the operation's property in /openapi.json (may be undefined), only lends a description.
 */
export function fieldOf(opt: CatalogueOption, prop?: OpenApiProperty): Field {
  const f: Field = {
    name: opt.name,
    type: opt.type,
    def: opt.default === undefined ? null : opt.default,
    description: opt.description || prop?.description || "",
  };
  for (const [k, from] of Object.entries(RULES) as [keyof typeof RULES, (typeof RULES)[keyof typeof RULES]][]) {
    if (opt[from] !== undefined) (f as unknown as Record<string, unknown>)[k] = opt[from];
  }
  return f;
}

/** The fields of a catalogue row's options (those the builder does not place itself), each with its schema. */
export function fieldsOf(options: CatalogueOption[] | undefined, props?: Record<string, OpenApiProperty>): Field[] {
  return (options ?? []).filter((o) => !OWN_FIELDS.has(o.name)).map((o) => fieldOf(o, props?.[o.name]));
}

/** The text a form control shows for a JSON value of field f ("" for none). */
export function showValue(f: Field, v: unknown): string {
  if (v === undefined || v === null) return "";
  if (f.type === "dictionary" || f.type === "array" || typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/**
 * The JSON value of field f typed as `raw` in its control: {value} (undefined when empty: the option is left out)
 * or {error} saying why the API would refuse it (422), so the form marks it before anything is sent.
 */
export function parseValue(f: Field, input: unknown): Parsed {
  if (input === undefined || input === null || String(input).trim() === "") return { value: undefined };
  const raw = String(input);
  if (f.type === "boolean") {
    if (raw !== "true" && raw !== "false") return { error: "true or false" };
    return { value: raw === "true" };
  }
  if (f.type === "enum") {
    const hit = (f.values ?? []).filter((p) => String(p) === raw);
    return hit.length ? { value: hit[0] } : { error: `one of ${(f.values ?? []).join(", ")}` };
  }
  if (f.type === "integer" || f.type === "float") {
    if (!/^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(raw)) return { error: "a number" };
    const v = Number(raw);
    if (f.type === "integer" && !Number.isInteger(v)) return { error: "a whole number" };
    if (f.min !== undefined && v < f.min) return { error: `at least ${f.min}` };
    if (f.max !== undefined && v > f.max) return { error: `at most ${f.max}` };
    if (f.exMin !== undefined && v <= f.exMin) return { error: `more than ${f.exMin}` };
    if (f.exMax !== undefined && v >= f.exMax) return { error: `less than ${f.exMax}` };
    return { value: v };
  }
  if (f.type === "dictionary" || f.type === "array") {
    const want = `JSON ${f.type === "array" ? "array" : "object"}`;
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch {
      return { error: want };
    }
    if (f.type === "array" ? !Array.isArray(v) : typeof v !== "object" || v === null || Array.isArray(v))
      return { error: want };
    return { value: v };
  }
  if (f.maxLength !== undefined && raw.length > f.maxLength) return { error: `at most ${f.maxLength} characters` };
  if (f.format === "uri" && !/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(raw)) return { error: "a URL" };
  if (f.pattern && !new RegExp(f.pattern).test(raw)) return { error: `matching ${f.pattern}` };
  return { value: raw };
}

/** Catalogue rows of one operation narrowed to an input and/or output format and an engine (null/"" matches any). */
export function rowsFor(
  rows: CatalogueRow[],
  operation: string,
  input?: string | null,
  output?: string | null,
  engine?: string | null,
): CatalogueRow[] {
  return rows.filter(
    (r) =>
      r.operation === operation &&
      (!input || !r.input_format || r.input_format === input) &&
      (!output || !r.output_format || r.output_format === output) &&
      (!engine || r.engine === engine),
  );
}

/** Distinct non-empty values of key k among rows, sorted. */
export function distinct(rows: CatalogueRow[], k: keyof CatalogueRow & string): string[] {
  const seen = new Set<string>();
  for (const r of rows) if (r[k]) seen.add(String(r[k]));
  return [...seen].sort();
}
