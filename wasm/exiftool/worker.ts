/**
 * The ExifTool engine Worker: its own bundle (zeroperl.wasm 25.4 MB + the Perl files 1.4 MB) and
 * its own 128 MB isolate (a call takes ~40 MB of WASM memory), reached from the api Worker by a
 * service binding (engine table row "exiftool", kind metadata). The entry is the shared one
 * (../entry.ts); only the loader is here: the interpreter module wrangler precompiled at deploy
 * and the vendored Perl files. The interpreter starts per call.
 */
import zeroperlWasm from "@6over3/zeroperl-ts/zeroperl.wasm";
import perlFiles from "./perl-files.json";
import { createExifToolEngine } from "../../src/engines/exiftool/engine";
import { WORKER_EXIFTOOL_BUDGET } from "../../src/engines/exiftool/budget";
import { EXIFTOOL_ENGINE } from "../../src/engines/exiftool/version";
import { engineWorker } from "../entry";

const engine = createExifToolEngine({
  loadWasm: async () => zeroperlWasm,
  loadPerlFiles: async () => perlFiles as Record<string, string>,
  // issue 49: reads only; every write goes to the native exiftool (budget.ts says why)
  budget: WORKER_EXIFTOOL_BUDGET,
});

/** Bind it with `[[services]] binding = "EXIFTOOL", service = "edge-convert-exiftool"`. */
export default engineWorker("metadata", EXIFTOOL_ENGINE.name, engine);
