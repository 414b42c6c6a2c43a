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
 * 4.5 MB of mixed files). Issue 49, measured as the peak resident growth of one call in a fresh process (warm
 * instance): extracting costs ~17 MB plus 2.3× what is taken out (a 33 MB stored zip: +76 MB), writing a zip ~17 MB
 * plus 3.2× the files (33 MB: +123 MB) and a 7z ~43 MB plus 3.2× (12 MB: +81 MB, 33 MB: +148 MB, 8.3 MB: +77 MB).
 * So 6 MiB in and 6 MiB out (~70 MB with the input at worst), 10,000 entries, a 200:1 ratio above 16 MiB unpacked
 * (never reached under 6 MiB out), and decoder dictionaries up to 32 MiB. Larger archives end OVER_BUDGET; the formats
 * archive-native reads (NATIVE_ARCHIVE_CONVERSIONS) go there.
 */
export const DEFAULT_ARCHIVE_BUDGET: ArchiveBudget = {
  maxBytes: 6 * 1024 * 1024,
  // 4 MiB out (files written into an archive, or taken out of one): a 7z of 6.2 MB of files peaked at 103 MB of the
  // isolate's own figures, of 4 MB at 81 MB (Node 24, test/engines-heavy/isolate-memory.test.ts)
  maxTotalBytes: 4 * 1024 * 1024,
  maxEntries: 10_000,
  maxRatio: 200,
  ratioFloorBytes: 16 * 1024 * 1024,
  maxDictionaryBytes: 32 * 1024 * 1024,
};
