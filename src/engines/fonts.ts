/**
 * The named faces for text watermarks (DejaVu fonts from wasm/fonts/: Bitstream Vera / Arev
 * licence with DejaVu's public-domain changes, see wasm/fonts/LICENSE). CloudConvert's font names
 * (contract §6 `font_name`) are accepted as aliases of the closest shipped face; Italic variants
 * fall back to the upright face (no italic shipped). The image watermark draws WinAnsi text in
 * these faces and every other script in the Noto faces of engines/text/faces.ts, as glyph
 * outlines (imagemagick/ops/watermark.ts): nothing is registered with ImageMagick's annotate any more.
 * Shared by the engines and the operations' `font_name` parameters (image and media watermarks),
 * so it belongs to no single engine.
 */

/** Shipped faces: registered name → file name under wasm/fonts/. */
export const FONT_FILES = {
  "DejaVu Sans": "DejaVuSans.ttf",
  "DejaVu Sans Bold": "DejaVuSans-Bold.ttf",
  "DejaVu Serif": "DejaVuSerif.ttf",
  "DejaVu Sans Mono": "DejaVuSansMono.ttf",
} as const;

export type ShippedFont = keyof typeof FONT_FILES;

/** The face used when `font_name` is absent. */
export const DEFAULT_FONT: ShippedFont = "DejaVu Sans";

const SANS = ["Arial", "Helvetica", "Verdana", "Trebuchet MS", "Impact"];
const SERIF = ["Times New Roman", "Times", "Georgia"];
const MONO = ["Courier New", "Courier", "Andale Mono"];

function aliases(): Record<string, ShippedFont> {
  const map: Record<string, ShippedFont> = {};
  for (const name of Object.keys(FONT_FILES) as ShippedFont[]) map[name] = name;
  for (const base of SANS)
    Object.assign(map, {
      [base]: "DejaVu Sans",
      [`${base} Bold`]: "DejaVu Sans Bold",
      [`${base} Italic`]: "DejaVu Sans",
      [`${base} Bold Italic`]: "DejaVu Sans Bold",
    });
  for (const base of SERIF)
    Object.assign(map, {
      [base]: "DejaVu Serif",
      [`${base} Bold`]: "DejaVu Serif",
      [`${base} Italic`]: "DejaVu Serif",
      [`${base} Bold Italic`]: "DejaVu Serif",
    });
  for (const base of MONO)
    Object.assign(map, {
      [base]: "DejaVu Sans Mono",
      [`${base} Bold`]: "DejaVu Sans Mono",
      [`${base} Italic`]: "DejaVu Sans Mono",
      [`${base} Bold Italic`]: "DejaVu Sans Mono",
    });
  return map;
}

/** Every accepted `font_name` (shipped faces and CloudConvert aliases) → the shipped face. */
export const FONT_ALIASES: Readonly<Record<string, ShippedFont>> = aliases();

/** The accepted `font_name` values, for the parameter schema and the catalogue. */
export const FONT_NAMES = Object.keys(FONT_ALIASES) as [string, ...string[]];

/** Resolves a `font_name` (case-insensitive) to a shipped face; undefined when unknown. */
export function resolveFont(name: string | undefined): ShippedFont | undefined {
  if (!name) return DEFAULT_FONT;
  const key = Object.keys(FONT_ALIASES).find((k) => k.toLowerCase() === name.trim().toLowerCase());
  return key ? FONT_ALIASES[key] : undefined;
}

/**
 * A caller's `font_name` as the engines take it (CloudConvert accepts font names of fonts it has;
 * compatibility rule: accept, report what was not honoured): a name a shipped face stands for is
 * kept; any other becomes the default face (its bold when the name says Bold) with a warning for
 * the task's result.warnings. Absent stays absent.
 */
export function fontNameFor(name: string | undefined): { name?: string; warning?: string } {
  if (!name || resolveFont(name)) return { name };
  const used: ShippedFont = /bold/i.test(name) ? "DejaVu Sans Bold" : DEFAULT_FONT;
  return { name: used, warning: `font_name "${name}" is not available here; ${used} was used.` };
}
