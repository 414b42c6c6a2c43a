/**
 * Node's way of obtaining pandoc in WebAssembly (the per-platform seam of DESIGN.md "runtime/"): read pandoc-wasm's
 * pandoc.wasm (56 MiB) and compile it. workerd imports it as a precompiled module instead (wasm/pandoc/worker.ts).
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createPandocEngine, type PandocLoader } from "../../engines/pandoc/engine";
import type { OfficeEngine } from "../../engines/kinds/office";
import { once } from "../../engines/lazy";

const require = createRequire(join(fileURLToPath(new URL("../../..", import.meta.url)), "package.json"));

/** Compiles pandoc-wasm's pandoc.wasm, once per process. */
export const loadPandocWasm = once(async (): Promise<WebAssembly.Module> => {
  // the package exports only its entry (src/index.node.js, not evaluated here); pandoc.wasm sits beside it
  return WebAssembly.compile(await readFile(join(dirname(require.resolve("pandoc-wasm")), "pandoc.wasm")));
});

/** The in-process pandoc engine for Node (tests, bench). */
export function nodePandocEngine(opts: Pick<PandocLoader, "budget"> = {}): OfficeEngine {
  return createPandocEngine({ loadWasm: loadPandocWasm, ...opts });
}
