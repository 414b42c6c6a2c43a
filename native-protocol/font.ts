/**
 * The request of one font conversion, as the Worker's font kind (src/engines/kinds/font.ts) sends it
 * and the native engine's fontTools (container/engines/fonts.ts) converts it. Imports nothing.
 */

/** Font formats read (the catalogue's font inputs: TrueType, OpenType/CFF, WOFF, WOFF2, Embedded OpenType). */
export const FONT_INPUTS = ["ttf", "otf", "woff", "woff2", "eot"] as const;
/** Font formats written: the inputs and SVG fonts (SVG 1.1 `<font>`). */
export const FONT_OUTPUTS = ["ttf", "otf", "woff", "woff2", "eot", "svg"] as const;

/** One output font format. */
export type FontFormat = (typeof FONT_OUTPUTS)[number];

/** One font conversion: `input` (any of {@link FONT_INPUTS}, told apart by its bytes) → `format`. */
export interface FontRequest {
  input: { data: Uint8Array; filename: string };
  format: FontFormat;
}
