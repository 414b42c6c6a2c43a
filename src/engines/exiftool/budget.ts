/**
 * The ExifTool engine's own budget defaults (read by the engine and by its row in registry.ts);
 * the budget's shape is the metadata kind's ({@link MetadataBudget}).
 */
import type { MetadataBudget } from "../kinds/metadata";

/**
 * Defaults: 64 MB of input (a call's WASM memory is ~40 MB plus the file) and 30 s (AES-256
 * encrypted PDFs take 10–17 s in WASM, reference/wasm-engines.md).
 */
export const DEFAULT_EXIFTOOL_BUDGET: MetadataBudget = { maxBytes: 64 * 1024 * 1024, timeoutMs: 30_000 };
