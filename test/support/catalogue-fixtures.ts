/**
 * The catalogue sweeps' shared pieces (issue 44 item 2): CloudConvert's catalogue beside the corpus
 * (shared/reference/cloudconvert-catalogue.md) read as input → outputs, and the real files others wrote for the
 * catalogue's inputs the corpus lacks (test/fixtures/<category>/, each described in its MANIFEST.md and facts.json).
 * A fixture whose extension is not the format it stands for (`.wmv.asf` for wmv, `.tar.bz` also for tar.bz2) is
 * uploaded under a name ending in that format (facts.json `formats`), so routing sees the format the file stands for.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { extensionOf } from "../../src/operations/io/filenames";
import { CORPUS } from "./corpus";

/** The catalogue beside the corpus (shared/reference), read as the coverage tool reads it. */
export const CATALOGUE = join(CORPUS, "..", "reference", "cloudconvert-catalogue.md");

/** Every output the catalogue lists for each input (all the lines naming the input merged; "+ same" not listed). */
export function catalogueOutputs(): Map<string, Set<string>> {
  if (!existsSync(CATALOGUE))
    throw new Error(`CloudConvert's catalogue not found at ${CATALOGUE} (beside the corpus).`);
  const out = new Map<string, Set<string>>();
  for (const m of readFileSync(CATALOGUE, "utf8").matchAll(/^- inputs \[([^\]]+)\] -> ([^\n(]+)/gm))
    for (const input of m[1]!.split(",").map((s) => s.trim().toLowerCase()))
      for (const output of m[2]!
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean))
        (out.get(input) ?? out.set(input, new Set()).get(input)!).add(output);
  return out;
}

/** test/fixtures (this file is test/support/catalogue-fixtures.ts). */
export const FIXTURES = join(import.meta.dirname, "..", "fixtures");

/** One fixture standing for one catalogue format. */
/** A facts.json entry: the formats the file stands for, and what tools measured of it (`facts`, by category). */
export interface FixtureFacts {
  formats?: string[];
  facts?: Record<string, unknown>;
  [k: string]: unknown;
}

export interface FixtureInput {
  /** "<category>/<file>", the key of facts.json. */
  rel: string;
  /** Absolute path of the bytes. */
  path: string;
  /** The catalogue format (lower case) the file stands for. */
  format: string;
  /** The name it is uploaded under: its own when it ends in `.format`, else its stem + `.format`. */
  name: string;
  /** Its facts.json entry ({} for the files a folder's README describes instead). */
  facts: FixtureFacts;
}

const NOT_FIXTURES = new Set(["MANIFEST.md", "README.md", "facts.json"]);

/** The facts.json of one fixtures folder ({} when it has none). */
export function fixtureFacts(category: string): Record<string, FixtureFacts> {
  const p = join(FIXTURES, category, "facts.json");
  return existsSync(p) ? JSON.parse(readFileSync(p, "utf8")) : {};
}

/**
 * Every file of test/fixtures/<category> once per format it stands for (facts.json `formats`, else its own
 * extension), sorted by name.
 */
export function fixtureInputs(category: string): FixtureInput[] {
  const facts = fixtureFacts(category);
  const dir = join(FIXTURES, category);
  return readdirSync(dir)
    .filter((f) => !NOT_FIXTURES.has(f) && statSync(join(dir, f)).isFile())
    .sort()
    .flatMap((file) => {
      const rel = `${category}/${file}`;
      const f = facts[rel] ?? {};
      const formats: string[] = (f.formats as string[] | undefined) ?? [extensionOf(file)];
      return formats.map((format) => ({
        rel,
        path: join(dir, file),
        format: format.toLowerCase(),
        name: uploadName(file, formats, format),
        facts: f,
      }));
    });
}

/**
 * The name a fixture is uploaded under as `format`: unchanged when its extension (tar-aware, as routing reads it) is
 * `format`; else the longest of
 * its `formats` it ends in (or its last extension) is replaced by `format` ("patool-t.tar.bz" as tar.bz2 →
 * "patool-t.tar.bz2", "patool-t.tar.lz" as lz → "patool-t.lz", "filetype-fixture.wma.asf" as wma → "filetype-fixture.wma").
 */
export function uploadName(file: string, formats: readonly string[], format: string): string {
  const lower = file.toLowerCase();
  if (extensionOf(file) === format.toLowerCase()) return file;
  const own = [...formats].sort((a, b) => b.length - a.length).find((f) => lower.endsWith(`.${f.toLowerCase()}`));
  const cut = own ? own.length + 1 : file.length - file.lastIndexOf(".");
  const stem = file.slice(0, file.length - cut);
  return extensionOf(stem) === format.toLowerCase() ? stem : `${stem}.${format}`;
}
