/**
 * The archive engine Worker (issue 15): 7-Zip 24.09 in WebAssembly (7z-wasm, 1.6 MB module) in its
 * own 128 MB isolate, reached from the api Worker by a service binding (engine table row "7z",
 * kind archive). 7-Zip is LGPL-2.1 with the unRAR licence restriction on its RAR decoder (it may
 * read RAR, never be used to write it), one reason it is a Worker of its own (THIRD_PARTY_NOTICES.md).
 * The entry is the shared one (../entry.ts); only the loader is here. A fresh instance per call.
 */
import sevenZipWasm from "7z-wasm/7zz.wasm";
import { createSevenZipEngine } from "../../src/engines/sevenzip/engine";
import { SEVENZIP_ENGINE } from "../../src/engines/sevenzip/version";
import { engineWorker } from "../entry";

const engine = createSevenZipEngine({ loadWasm: async () => sevenZipWasm });

/** Bind it with `[[services]] binding = "SEVENZIP", service = "edge-convert-7z"`. */
export default engineWorker("archive", SEVENZIP_ENGINE.name, engine);
