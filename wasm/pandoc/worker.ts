/**
 * The pandoc engine Worker (issue 47): pandoc 3.10 in WebAssembly (pandoc-wasm 1.1.0, a 55.9 MiB WASI module,
 * GPL-2.0-or-later) in its own bundle and 128 MB isolate, reached from the api Worker by a service binding (engine
 * table row "pandoc-wasm", kind office). The entry is the shared one (../entry.ts); only the loader is here. One
 * instance serves calls in turn and is replaced after a heap overflow (src/engines/pandoc/budget.ts).
 */
import pandocWasm from "../../node_modules/pandoc-wasm/src/pandoc.wasm";
import { createPandocEngine } from "../../src/engines/pandoc/engine";
import { PANDOC_WASM_ENGINE } from "../../src/engines/pandoc/version";
import { engineWorker } from "../entry";

const engine = createPandocEngine({ loadWasm: async () => pandocWasm });

/** Bind it with `[[services]] binding = "PANDOC", service = "edge-convert-pandoc"`. */
export default engineWorker("office", PANDOC_WASM_ENGINE.name, engine);
