/**
 * Engine routing: which engines may run a piece of work, in which order (DESIGN.md principle 2:
 * "a decision made in one place from the operation, formats and input budget"). Pure functions
 * over the engine table (registry.ts); the task runner walks the list, passing the task on when an
 * engine answers "unsupported" or "over my budget" (runner/execute.ts).
 *
 * Order: the table's row order, unless the deployment's ENGINE_ORDER names engines for the
 * operation first (like Gotenberg's `--pdfengines-merge-engines=qpdf,pdfcpu`). A task's `engine`
 * parameter pins the engine: an engine's own name, or a CloudConvert engine name it stands in for
 * (its row's aliases).
 */
import { ENGINES, type EngineRow, type FormatPair } from "./registry";
import type { EngineKind } from "./kinds";

/** Per-operation engine preference: operation → engine names, first = preferred. */
export type EngineOrder = Record<string, string[]>;

/** What a piece of work needs. Formats are lower-case extensions; absent = not known yet. */
export interface EngineQuery {
  kind: EngineKind;
  operation: string;
  input?: string;
  output?: string;
  /** The task's `engine` parameter. */
  pin?: string;
  order?: EngineOrder;
}

const fits = (pairs: readonly FormatPair[] | undefined, input?: string, output?: string) =>
  !pairs ||
  pairs.some(
    (f) => (!input || f.input === "*" || f.input === input) && (!output || f.output === "*" || f.output === output),
  );

/** True when `row` answers to the pin `pin` (its name, or one of its CloudConvert aliases). */
export function answersTo(row: EngineRow, pin: string): boolean {
  const p = pin.toLowerCase();
  return row.name === p || row.aliases.includes(p);
}

/**
 * True when `row` offers `input → output` only as a fallback (its `fallbackFormats`, not its `formats`): it then ranks
 * after every engine offering the pair otherwise (issue 47, pandoc's epub after calibre's).
 */
export function fallbackOnly(row: EngineRow, input?: string, output?: string): boolean {
  return (
    !!row.offers.fallbackFormats &&
    fits(row.offers.fallbackFormats, input, output) &&
    !(row.offers.formats && fits(row.offers.formats, input, output))
  );
}

/**
 * The engines that may do `q`, in routing order. A pin keeps the engine of that name first and then
 * every engine whose aliases hold it (several may stand in for one CloudConvert engine, e.g.
 * "poppler" for page operations and for rasterizing; "qpdf" is the native qpdf where it is
 * deployed and pdf-lib elsewhere).
 */
export function enginesFor(q: EngineQuery): EngineRow[] {
  const table: readonly EngineRow[] = ENGINES;
  // a row's pinnedFormats count only for a task pinning that row (registry.ts)
  const pinnedHere = (e: EngineRow) =>
    !!q.pin && !!e.offers.pinnedFormats && answersTo(e, q.pin) && fits(e.offers.pinnedFormats, q.input, q.output);
  let rows = table.filter(
    (e) =>
      e.kind === q.kind &&
      (!e.offers.operations || e.offers.operations.includes(q.operation)) &&
      ((fits(e.offers.formats, q.input, q.output) && fits(e.offers.formatsOf?.[q.operation], q.input, q.output)) ||
        fallbackOnly(e, q.input, q.output) ||
        pinnedHere(e)),
  );
  if (q.pin) {
    // The engine of that name first, then the engines standing in for it (pin "qpdf": native qpdf, else pdf-lib).
    const pin = q.pin.toLowerCase();
    rows = [...rows.filter((e) => e.name === pin), ...rows.filter((e) => e.name !== pin && answersTo(e, pin))];
  }
  const preferred = q.order?.[q.operation] ?? [];
  const rank = (e: EngineRow) => (preferred.includes(e.name) ? preferred.indexOf(e.name) : preferred.length);
  const last = (e: EngineRow) => (fallbackOnly(e, q.input, q.output) ? 1 : 0);
  return rows
    .map((e, i) => ({ e, i }))
    .sort((a, b) => last(a.e) - last(b.e) || rank(a.e) - rank(b.e) || a.i - b.i)
    .map(({ e }) => e);
}

/**
 * Parses ENGINE_ORDER: "merge=qpdf,pdflib;convert=ghostscript,pdfium" (operation=engines, `;`
 * between operations). Unknown engine names are kept (they match nothing). Empty or absent = {}.
 */
export function parseEngineOrder(spec: string | undefined): EngineOrder {
  const order: EngineOrder = {};
  for (const part of (spec ?? "").split(";")) {
    const [op, list] = part.split("=");
    if (op?.trim() && list)
      order[op.trim()] = list
        .split(",")
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean);
  }
  return order;
}

/**
 * Error codes by which a candidate passes a task on to the next: it cannot do this (UNSUPPORTED,
 * or INVALID_CONVERSION_TYPE: its handler does not read this input's format), not at this size
 * (OVER_BUDGET), or it is not here (ENGINE_UNAVAILABLE). The last candidate's error is the task's.
 */
export const HAND_OFF_CODES: ReadonlySet<string> = new Set([
  "UNSUPPORTED",
  "INVALID_CONVERSION_TYPE",
  "OVER_BUDGET",
  "ENGINE_UNAVAILABLE",
]);
