/**
 * What page operations report they could not keep of their inputs' document structure (issue 16):
 * kind → count, e.g. `{links: 2, xfa: 1}` (the kinds: pdflib/structure.ts), summed over the
 * outputs of a task and shown in its result as `dropped`.
 */

/** Kind → count of structure an output could not keep. */
export type DroppedStructure = Record<string, number>;

/** Adds the counts of `more` into `into` (absent = nothing). */
export function addDropped(into: DroppedStructure, more: DroppedStructure | undefined): void {
  for (const [k, n] of Object.entries(more ?? {})) into[k] = (into[k] ?? 0) + n;
}
