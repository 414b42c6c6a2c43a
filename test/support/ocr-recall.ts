/**
 * Word recall, the OCR tests' measure (issue 17): the share of a ground truth's words (as a
 * multiset: a word twice must be found twice) present in a recognised text, after splitting on
 * white space, stripping outer punctuation and lower-casing both.
 */

/** Words of a text for recall: split on white space, outer punctuation stripped, lower case. */
export const tokens = (text: string) =>
  text
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "").toLowerCase())
    .filter(Boolean);

/** Share (0–1) of the ground truth's words found in `text`. */
export function recall(truth: string, text: string): number {
  const have = new Map<string, number>();
  for (const t of tokens(text)) have.set(t, (have.get(t) ?? 0) + 1);
  const want = tokens(truth);
  let found = 0;
  for (const t of want) {
    const n = have.get(t) ?? 0;
    if (n > 0) {
      found++;
      have.set(t, n - 1);
    }
  }
  return found / want.length;
}
