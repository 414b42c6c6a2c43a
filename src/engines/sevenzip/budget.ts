/**
 * The 7-Zip engine's own budget defaults (read by the engine and by its row in registry.ts); the
 * budget's shape is the archive kind's (kinds/archive.ts `ArchiveBudget`).
 */
import type { ArchiveBudget } from "../kinds/archive";

/**
 * The engine Worker's budget (its isolate has 128 MB for everything). The archive and every file
 * taken out live in MEMFS as JavaScript arrays (handed over without copies), beside 7-Zip's own
 * WebAssembly memory: measured 17 MB (its initial heap) for every read and for zip/tar/gzip/bzip2
 * writes, 49 MB for a 7z write with the engine's 4 MiB LZMA2 dictionary (`npm run bench -- archive`,
 * 4.5 MB of mixed files). So
 * 32 MiB in and 64 MiB out, 10,000 entries, a 200:1 ratio above 16 MiB unpacked, and decoder
 * dictionaries up to 32 MiB.
 */
export const DEFAULT_ARCHIVE_BUDGET: ArchiveBudget = {
  maxBytes: 32 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
  maxEntries: 10_000,
  maxRatio: 200,
  ratioFloorBytes: 16 * 1024 * 1024,
  maxDictionaryBytes: 32 * 1024 * 1024,
};
