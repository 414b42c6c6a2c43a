/**
 * Node's way of obtaining 7-Zip (the per-platform seam of DESIGN.md "runtime/"): read 7z-wasm's
 * .wasm and compile it. workerd imports the module instead (wasm/7z/worker.ts); the engine code is the same.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createSevenZipEngine, type SevenZipLoader } from "../../engines/sevenzip/engine";
import type { ArchiveEngine } from "../../engines/kinds/archive";

/** Compiles 7z-wasm's 1.6 MB module. */
export async function loadSevenZipWasm(): Promise<WebAssembly.Module> {
  const require = createRequire(join(fileURLToPath(new URL("../../..", import.meta.url)), "package.json"));
  return WebAssembly.compile(await readFile(join(require.resolve("7z-wasm"), "..", "7zz.wasm")));
}

/** The in-process archive engine for Node (tests, bench). */
export function nodeSevenZipEngine(opts: Pick<SevenZipLoader, "budget"> = {}): ArchiveEngine {
  return createSevenZipEngine({ loadWasm: loadSevenZipWasm, ...opts });
}
