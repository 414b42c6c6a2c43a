/**
 * The `pages` notation of the PDF operations (contract §6 "pages notation"): a comma-separated list
 * of 1-based page numbers and ranges, e.g. "1", "1-3", "1,2,5-7". This service also accepts open
 * ranges "5-" (page 5 to the last page) and spaces around items. Not accepted: "-3", "0", "3-1".
 *
 * Two checks, at two moments: {@link checkPages} at task creation (syntax → 422 messages), and
 * {@link resolvePages} at run time, when the page count is known (out of range → TaskError
 * INVALID_PAGES naming the page).
 */
import { TaskError } from "../errors";

/** One item of a page list: `from`..`to` inclusive, 1-based; `to` null = open range to the last page. */
export interface PageRange {
  from: number;
  to: number | null;
}

const ITEM = /^(\d+)(?:\s*(-)\s*(\d+)?)?$/;

/** Parses a page list; returns the ranges or the first syntax problem as a message. */
export function parsePageList(spec: string): { ranges: PageRange[] } | { error: string } {
  const items = spec.split(",").map((s) => s.trim());
  const ranges: PageRange[] = [];
  for (const item of items) {
    const m = ITEM.exec(item);
    if (!m) return { error: item === "" ? "an empty item" : `"${item}" is not a page or a range` };
    const from = Number(m[1]);
    const to = m[2] ? (m[3] === undefined ? null : Number(m[3])) : from;
    if (from < 1 || (to !== null && to < 1)) return { error: `"${item}": pages start at 1` };
    if (to !== null && to < from) return { error: `"${item}": a range goes from the lower page to the higher one` };
    ranges.push({ from, to });
  }
  return { ranges };
}

/**
 * Creation-time check of a `pages` parameter (field name `field`); [] when fine or absent.
 * Messages name the field and the accepted forms, for the 422 answer.
 */
export function checkPages(spec: string | undefined, field = "pages"): string[] {
  if (spec === undefined) return [];
  const parsed = parsePageList(spec);
  if ("error" in parsed) {
    return [
      `${field}: ${parsed.error}; use comma-separated pages and ranges such as "1,3,5-7", or "5-" for page 5 to the end.`,
    ];
  }
  return [];
}

/**
 * Resolves a page list against a document of `pageCount` pages into 1-based page numbers, in the
 * order given (duplicates kept; callers that need a set dedupe). Absent `spec` = every page.
 * @throws TaskError INVALID_PAGES when a page does not exist (the message names it and the count).
 */
export function resolvePages(spec: string | undefined, pageCount: number, filename: string, field = "pages"): number[] {
  if (spec === undefined) return Array.from({ length: pageCount }, (_, i) => i + 1);
  const parsed = parsePageList(spec);
  if ("error" in parsed) throw new TaskError("INVALID_PAGES", checkPages(spec, field)[0]);
  const out: number[] = [];
  for (const { from, to } of parsed.ranges) {
    const last = to ?? pageCount;
    const bad = from > pageCount ? from : last > pageCount ? last : 0;
    if (bad) {
      throw new TaskError(
        "INVALID_PAGES",
        `${field}: page ${bad} does not exist; ${filename} has ${pageCount} page${pageCount === 1 ? "" : "s"}.`,
      );
    }
    for (let p = from; p <= last; p++) out.push(p);
  }
  return out;
}

/** Like {@link resolvePages} but as a sorted set. */
export function resolvePageSet(
  spec: string | undefined,
  pageCount: number,
  filename: string,
  field = "pages",
): number[] {
  return [...new Set(resolvePages(spec, pageCount, filename, field))].sort((a, b) => a - b);
}
