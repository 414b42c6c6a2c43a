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
 * The defaults: 8 MiB of input, 16 MiB of sfnt and 20,000 glyphs. The corpus's largest font (DejaVu Sans
 * Mono, 343 KB, 3,377 glyphs) is far inside; CJK fonts (15–20 MB, 30,000–65,000 glyphs) go native.
 */
export const DEFAULT_FONT_BUDGET: FontBudget = {
  maxBytes: 8 * 1024 * 1024,
  maxSfntBytes: 16 * 1024 * 1024,
  maxGlyphs: 20_000,
};
