/**
 * Bounds of pandoc in WebAssembly (row "pandoc-wasm", its own engine Worker, 128 MB isolate in production).
 *
 * Measured (pandoc-wasm 1.1.0, Node 24, the project's 2-core machine): the instance is 39 MB of WebAssembly memory
 * after the GHC runtime starts, 52–55 MB after md → html and md → docx of the corpus files with a 16 MiB allocation
 * area (`-H16m`; the package's own `-H64m` reaches 99–107 MB). The heap is capped with the runtime's `-M`: an input
 * whose parse needs more (200 KB of nested `[` took 64 MB and more) ends with the runtime's "out of memory", the
 * instance is dropped and the task goes to the native pandoc (OVER_BUDGET), so memory stays ≤ ~39 MB + the cap.
 */
export interface PandocBudget {
  /** Largest input, bytes. */
  maxBytes: number;
  /** The GHC heap's cap (`+RTS -M`), bytes. */
  maxHeapBytes: number;
  /**
   * Largest sum of the sizes a zip container's entries declare (docx, odt, epub), bytes: a bomb is refused before
   * pandoc inflates it. One whose sizes lie still meets the heap cap.
   */
  maxInflatedBytes: number;
}

/**
 * 1 MiB in, a 24 MiB heap, a container declaring at most 24 MiB inflated (issue 49,Measured by test/engines-heavy/isolate-memory.test.ts from the isolate's own figures (V8's used heap + external memory: array buffers and WebAssembly memory; README "Large files")):
 * the engine holds ~86 MB idle (its running instance, 29.6 MB of it the module's data segments, and the module's heap:
 * V8's objects for its 707,047-entry function table, README "Large files"), so with a 48 MiB heap 256 KiB of
 * Markdown → docx peaked at 104 MB and 8 MiB → html at 130 MB before the cap stopped it; with 24 MiB, 1 MiB of
 * Markdown stops at the cap (OVER_BUDGET: native pandoc) at 98 MB.
 */
export const DEFAULT_PANDOC_BUDGET: PandocBudget = {
  maxBytes: 1024 * 1024,
  maxHeapBytes: 24 * 1024 * 1024,
  maxInflatedBytes: 24 * 1024 * 1024,
};
