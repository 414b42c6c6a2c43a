/**
 * Node's way of obtaining the ExifTool engine (DESIGN.md "runtime/"): compile zeroperl.wasm from
 * its bytes and read the vendored Perl files. workerd imports both as modules instead
 * (wasm/exiftool/worker.ts); the engine code is the same.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createExifToolEngine, type ExifToolLoader } from "../../engines/exiftool/engine";
import type { MetadataEngine } from "../../engines/kinds/metadata";

/** Where paths are resolved from: the repository root (holds node_modules/ and wasm/). */
export interface NodeExifToolOptions extends Pick<ExifToolLoader, "budget"> {
  /** Repository root; defaults to three levels above this file (src/runtime/node → root). */
  root?: string;
}

const defaultRoot = () => fileURLToPath(new URL("../../..", import.meta.url));

/** Compiles zeroperl's interpreter (`@6over3/zeroperl-ts/zeroperl.wasm`, 25.4 MB; ~0.3 s). */
export async function loadZeroperlWasm(root = defaultRoot()): Promise<WebAssembly.Module> {
  const require = createRequire(join(root, "package.json"));
  return WebAssembly.compile(await readFile(require.resolve("@6over3/zeroperl-ts/zeroperl.wasm")));
}

/** Reads wasm/exiftool/perl-files.json (sandbox path → text). */
export async function loadExifToolPerlFiles(root = defaultRoot()): Promise<Record<string, string>> {
  return JSON.parse(await readFile(join(root, "wasm", "exiftool", "perl-files.json"), "utf8")) as Record<
    string,
    string
  >;
}

/** The in-process ExifTool engine for Node (tests, bench, the local runner). Loads nothing until the first call. */
export function nodeExifToolEngine(opts: NodeExifToolOptions = {}): MetadataEngine {
  const root = opts.root ?? defaultRoot();
  return createExifToolEngine({
    loadWasm: () => loadZeroperlWasm(root),
    loadPerlFiles: () => loadExifToolPerlFiles(root),
    budget: opts.budget,
  });
}
