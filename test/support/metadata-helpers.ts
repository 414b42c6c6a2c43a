// Shared pieces of the metadata tests: one ExifTool engine for every test file (the interpreter is
// 25 MB; a call starts a fresh instance from the one compiled module), the corpus walk, and
// Debian's `exiftool -json` as the oracle.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { nodeExifToolEngine } from "../../src/runtime/node/exiftool";
import type { MetadataEngine } from "../../src/engines/kinds/metadata";
import { CORPUS } from "./corpus";

let engine: MetadataEngine | undefined;
/**
 * The shared in-process engine (Node). Its time limit is raised from 30 s to 120 s: these are
 * agreement tests, not timing tests, and with test files running in parallel on a 2-core CI machine
 * the AES-256 PDFs (10–17 s quiet) were seen to pass 30 s. The TIMEOUT path keeps its own test
 * (metadata-engine.test.ts, a per-call budget).
 */
export const exiftool = (): MetadataEngine => (engine ??= nodeExifToolEngine({ budget: { timeoutMs: 120_000 } }));

/** The spec's keys compared with the native exiftool (issue 5; SourceFile is the uploaded name, checked apart). */
export const SPEC_KEYS = [
  "FileName",
  "Directory",
  "FileSize",
  "FileType",
  "FileTypeExtension",
  "MIMEType",
  "PDFVersion",
  "Author",
  "Title",
  "Creator",
  "Producer",
  "CreateDate",
  "ModifyDate",
  "PageCount",
  "ImageWidth",
  "ImageHeight",
  "ImageSize",
  "Duration",
];

/** Every regular file of the corpus (relative paths, sorted), except broken/ and facts/manifest. */
export function corpusFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(CORPUS, p));
    }
  };
  for (const top of readdirSync(CORPUS).sort()) {
    if (top === "broken" || !statSync(join(CORPUS, top)).isDirectory()) continue;
    walk(join(CORPUS, top));
  }
  return out;
}

/** The broken/ files (relative paths). */
export const brokenFiles = (): string[] =>
  readdirSync(join(CORPUS, "broken"))
    .sort()
    .map((n) => `broken/${n}`);

export const corpusBytes = (rel: string) => new Uint8Array(readFileSync(join(CORPUS, rel)));

/**
 * Debian's `exiftool -json NAME`, run in the file's directory so SourceFile/Directory read as a
 * user who ran it beside the file would see them.
 */
export function nativeMetadata(path: string): Record<string, unknown> {
  const { out } = runIn(dirname(path), "exiftool", ["-json", basename(path)]);
  return (JSON.parse(out) as Record<string, unknown>[])[0];
}

/** Runs a tool in `cwd`; stdout even when it exits non-zero (exiftool exits 1 with an Error property). */
function runIn(cwd: string, cmd: string, args: string[]): { out: string } {
  try {
    return {
      out: execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 26 }),
    };
  } catch (e) {
    return { out: String((e as { stdout?: string }).stdout ?? "") };
  }
}

/** A JSON value as the engine reports it (lists joined with ", "), for comparison. */
export function scalar(v: unknown): string | number {
  if (Array.isArray(v)) return v.map(scalar).join(", ");
  return typeof v === "number" || typeof v === "string" ? v : String(v);
}
