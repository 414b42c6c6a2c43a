/** The shared corpus beside the checkout (../shared/corpus) and its measured facts. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const CORPUS = process.env.CORPUS_DIR ?? fileURLToPath(new URL("../../../shared/corpus", import.meta.url));
export const corpusPath = (rel: string) => join(CORPUS, rel);

export interface Fact {
  sha256: string;
  size: number;
  width?: number;
  height?: number;
  pages?: number;
  [k: string]: unknown;
}
let facts: Record<string, Fact> | null = null;
export function fact(rel: string): Fact {
  facts ??= JSON.parse(readFileSync(join(CORPUS, "facts.json"), "utf8"));
  const f = facts![rel] ?? (facts as any).files?.[rel];
  if (!f) throw new Error(`no fact for ${rel}`);
  return f;
}
