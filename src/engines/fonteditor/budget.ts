/**
 * The JavaScript font engine's budget (issue 47): the input's bytes, the bytes of the sfnt it unpacks
 * (a WOFF states each table's inflated size, an EOT its font data size: both are checked before any
 * byte is inflated or copied), and the glyph count (maxp.numGlyphs; the object model of fonteditor-core
 * holds every glyph's contours as JavaScript objects, so glyphs bound the heap of an → ttf or → svg
 * conversion). Over any of them the task ends OVER_BUDGET, which hands it to the native fontTools row
 * (routing.ts HAND_OFF_CODES).
 */

/** Limits of one conversion. */
export interface FontBudget {
  /** Largest input file in bytes. */
  maxBytes: number;
  /** Largest unpacked sfnt in bytes (WOFF's totalSfntSize / the sum of its tables' origLength). */
  maxSfntBytes: number;
  /** Most glyphs (maxp.numGlyphs). */
  maxGlyphs: number;
}

/**
 * The defaults: 768 KiB of input, 768 KiB of sfnt and 10,000 glyphs. The corpus's largest font (DejaVu Sans
 * Mono, 343 KB, 3,377 glyphs) is inside; CJK fonts (15–20 MB, 30,000–65,000 glyphs) go native. Issue 49, measured
 * in Node under a 128 MB V8 heap (peak resident growth of one call in a fresh process,
 * test/engines-heavy/isolate-memory.test.ts): → svg, the heaviest output, costs ~100 bytes per byte of glyph data and
 * ~6.5 KB a glyph (1.5 MB of TrueType, 4,900 glyphs of 120 points: +148 MB; 20,000 glyphs of 12 points: +131 MB;
 * → woff +35 MB), so 768 KiB and 10,000 glyphs keep a call under ~100 MB.
 */
export const DEFAULT_FONT_BUDGET: FontBudget = {
  maxBytes: 384 * 1024,
  maxSfntBytes: 384 * 1024,
  maxGlyphs: 5_000,
};
