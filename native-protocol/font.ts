/**
 * The request of one font conversion, as the Worker's font kind (src/engines/kinds/font.ts) sends it
 * and the native engine's fontTools (container/engines/fonts.ts) converts it. Imports nothing.
 */

/** Font formats read (the catalogue's font inputs: TrueType, OpenType/CFF, WOFF, WOFF2, Embedded OpenType). */
export const FONT_INPUTS = ["ttf", "otf", "woff", "woff2", "eot"] as const;
/** Font formats written: the inputs and SVG fonts (SVG 1.1 `<font>`). */
export const FONT_OUTPUTS = ["ttf", "otf", "woff", "woff2", "eot", "svg"] as const;

/**
 * Font formats an SVG input is converted to (issue 33): an SVG font converts as a font, any other SVG
 * becomes an icon font of one glyph at U+E000 (container/engines/fonts/svg_font.py, FontForge).
 */
export const SVG_FONT_OUTPUTS = ["ttf", "otf", "woff", "woff2", "eot"] as const;

/** The pairs the font engine converts: {@link FONT_INPUTS} × {@link FONT_OUTPUTS}, and svg × {@link SVG_FONT_OUTPUTS}. */
export const FONT_PAIRS: readonly { input: string; output: string }[] = [
  ...FONT_INPUTS.flatMap((input) => FONT_OUTPUTS.map((output) => ({ input, output }))),
  ...SVG_FONT_OUTPUTS.map((output) => ({ input: "svg", output })),
];

/** One output font format. */
export type FontFormat = (typeof FONT_OUTPUTS)[number];

/** One font conversion: `input` (any of {@link FONT_INPUTS} or an SVG, told apart by its bytes) → `format`. */
export interface FontRequest {
  input: { data: Uint8Array; filename: string };
  format: FontFormat;
}
