/**
 * The ExifTool engine's own budget defaults (read by the engine and by its row in registry.ts);
 * the budget's shape is the metadata kind's ({@link MetadataBudget}).
 */
import type { MetadataBudget } from "../kinds/metadata";

/**
 * Defaults: 12 MiB of input to read, 2 MiB to write, and 30 s (AES-256 encrypted PDFs take 10–17 s in WASM,
 * reference/wasm-engines.md). Issue 49, measured as the peak resident growth of one call in a fresh process (warm
 * engine, test/engines-heavy/isolate-memory.test.ts): a read costs up to ~40 MB (a fresh interpreter) plus ~1.5–2.5×
 * the file (17 MB JPEG +60–80 MB, 17 MB PDF +60 MB), a write ~40 MB plus ~10× (8.8 MB JPEG +125 MB, 17 MB +200 MB,
 * 2.9 MB +81–91 MB), so 12 MiB and 2 MiB keep a call under ~100 MB with the file; larger files end OVER_BUDGET (no
 * native twin reads metadata).
 */
export const DEFAULT_EXIFTOOL_BUDGET: MetadataBudget = {
  maxBytes: 12 * 1024 * 1024,
  maxWriteBytes: 2 * 1024 * 1024,
  timeoutMs: 30_000,
};

/**
 * The budget of the ExifTool engine Worker (wasm/exiftool/worker.ts), a 128 MB isolate (issue 49): reads as the
 * default, and **no writes** (`maxWriteBytes: 0`, so every metadata/write is OVER_BUDGET there and routing hands it to
 * the native exiftool, `exiftool-native`). Measured by test/engines-heavy/isolate-memory.test.ts on Node 24's V8 (the
 * kind workerd has): the writer's interpreter alone holds 51 MB of WebAssembly memory, and a write of a 1.9 MB JPEG
 * peaked at 110 MB live and 165 MB before V8 collected, as much at 0.2 MB: no byte budget keeps it in an isolate. A
 * browser page and the Node host, which have no such limit, write up to the default's 2 MiB.
 */
export const WORKER_EXIFTOOL_BUDGET: MetadataBudget = { ...DEFAULT_EXIFTOOL_BUDGET, maxWriteBytes: 0 };
