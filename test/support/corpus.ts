/**
 * The shared corpus and its measured facts. It is looked for in `CORPUS_DIR` when that is set, else
 * at ../shared/corpus relative to the repository (beside the checkout). No machine's absolute path is
 * written here or in any test: tests reach corpus files through CORPUS / corpusPath.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** ../shared/corpus relative to the repository root (this file is test/support/corpus.ts). */
const BESIDE_REPOSITORY = fileURLToPath(new URL("../../../shared/corpus", import.meta.url));

/**
 * The corpus directory, checked on first use (loading this module): a missing corpus fails here
 * with a message naming both places, not later as an ENOENT on some file inside it.
 */
function findCorpus(): string {
  const env = process.env.CORPUS_DIR;
  const dir = env || BESIDE_REPOSITORY;
  if (existsSync(dir) && statSync(dir).isDirectory()) return dir;
  throw new Error(
    "Test corpus not found. Looked in:\n" +
      `  CORPUS_DIR: ${env ? `${env} (does not exist or is not a directory)` : "not set"}\n` +
      `  ../shared/corpus relative to the repository: ${BESIDE_REPOSITORY} (${env ? "not used while CORPUS_DIR is set" : existsSync(BESIDE_REPOSITORY) ? "not a directory" : "does not exist"})\n` +
      "Set CORPUS_DIR to the corpus directory, or put the corpus at ../shared/corpus beside the checkout.",
  );
}

export const CORPUS = findCorpus();
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
  const f = facts![rel] ?? (facts as { files?: Record<string, Fact> }).files?.[rel];
  if (!f) throw new Error(`no fact for ${rel}`);
  return f;
}

/**
 * Ghostscript's arguments (Debian's gs, the PostScript oracle) drawing the PostScript or EPS file `input` at 72 dpi
 * (a pixel a point), an EPS cropped to its bounding box, as a PNG written to `output` ("-" for stdout).
 */
export function gsPngArgs(input: string, output: string): string[] {
  return [
    "-q",
    "-dSAFER",
    "-dBATCH",
    "-dNOPAUSE",
    "-dEPSCrop",
    "-r72",
    "-sDEVICE=png16m",
    `-sOutputFile=${output}`,
    input,
  ];
}
