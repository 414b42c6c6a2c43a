/**
 * The faces an SVG's text is drawn in by resvg (issue 33), and the two rewrites of the SVG's text
 * that make resvg pick them as a fontconfig-based renderer (Inkscape, librsvg) would:
 *
 * - Faces: the shipped DejaVu faces (sans, sans bold, serif, mono) for every SVG with text, and the
 *   Noto faces of engines/text/faces.ts for the scripts its letters need (Noto Sans for Latin,
 *   Greek, Cyrillic and Devanagari beyond DejaVu; Arabic, Hebrew, Japanese, simplified Chinese,
 *   Korean; issue 44: Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam,
 *   Sinhala, Thai, Lao, Khmer, Myanmar, Georgian, Armenian, Ethiopic, where DejaVu lacks the
 *   letter), bold ones only when the SVG asks for bold. resvg's font database falls back letter by
 *   letter to any loaded face that has the letter.
 * - Families: resvg matches a family by name only (no fontconfig aliases), so a family list with
 *   no generic and no shipped family (`'Bitstream Vera Serif'`, `Times New Roman`, `Arial`) gets
 *   the generic family fontconfig would substitute appended (serif, monospace or sans-serif).
 * - Letters no shipped face has stay in the text, and resvg draws them as the .notdef box of the
 *   face it shapes them in (issue 44: a missing letter must be visible, as the native renderers'
 *   boxes are: librsvg draws a box with the code point, Chromium and LibreOffice their .notdef).
 *   Inkscape draws nothing for them; the raster comparisons with it use SVGs whose letters are all
 *   covered. `SvgText.missing` names them.
 */
import { SCRIPT_CHAIN, type FontFile, type FontSource } from "../text/faces";
import { loadFace, type LoadedFace } from "../text/fonts";

/** The families the shipped DejaVu faces answer to, and resvg's generic families. */
export const GENERIC_FAMILIES = {
  defaultFontFamily: "DejaVu Sans",
  sansSerifFamily: "DejaVu Sans",
  serifFamily: "DejaVu Serif",
  monospaceFamily: "DejaVu Sans Mono",
  cursiveFamily: "DejaVu Sans",
  fantasyFamily: "DejaVu Sans",
} as const;

const DEJAVU: readonly FontFile[] = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSansMono.ttf"];
/** The Noto faces by the family names their files carry (fc-scan), lower-case: an SVG naming one gets it loaded. */
const NOTO_FAMILIES: Readonly<Record<string, string>> = {
  "noto sans": "NotoSans",
  "noto naskh arabic": "NotoNaskhArabic",
  "noto sans hebrew": "NotoSansHebrew",
  "noto sans japanese": "NotoSansJP",
  "noto sans s chinese": "NotoSansSC",
  "noto sans korean": "NotoSansKR",
  // issue 44: the @expo-google-fonts faces, "Noto Sans <Script>" (their SCRIPT_CHAIN name is NotoSans<Script>)
  ...Object.fromEntries(
    SCRIPT_CHAIN.filter((f) => f.regular.endsWith("_400Regular.ttf")).map((f) => [
      `noto sans ${f.name.slice("NotoSans".length).toLowerCase()}`,
      f.name,
    ]),
  ),
};
const SHIPPED = new Set(["dejavu sans", "dejavu serif", "dejavu sans mono", ...Object.keys(NOTO_FAMILIES)]);

/** The SCRIPT_CHAIN faces the SVG names in a font-family (their own family names). */
function namedFaces(svg: string): Set<string> {
  const named = new Set<string>();
  const lower = svg.toLowerCase();
  for (const [family, face] of Object.entries(NOTO_FAMILIES)) {
    if (new RegExp(`font-family\\s*[:=][^;>]*\\b${family}\\b(?![\\w -])`).test(lower)) named.add(face);
  }
  return named;
}

/** The shipped face standing for each CSS generic family (fontconfig's choice on Debian). */
const CONCRETE: Record<string, string> = {
  serif: "DejaVu Serif",
  "sans-serif": "DejaVu Sans",
  monospace: "DejaVu Sans Mono",
  cursive: "DejaVu Sans",
  fantasy: "DejaVu Sans",
  "system-ui": "DejaVu Sans",
};

/** fontconfig's substitute for an unknown family, by its name (Courier → monospace, Times → serif, else sans-serif). */
export function genericFor(family: string): "serif" | "sans-serif" | "monospace" {
  if (/mono|courier|consol|typewriter|code/i.test(family)) return "monospace";
  if (/sans|gothic|arial|helvetica|verdana/i.test(family)) return "sans-serif";
  if (/serif|times|roman|georgia|garamond|palatino|cambria|book|minion|mincho/i.test(family)) return "serif";
  return "sans-serif";
}

/**
 * A CSS font-family list as resvg is to read it: each generic family replaced by the shipped face
 * that stands for it (resvg-wasm 2.6.2 ignores its generic-family options), and a list with neither
 * a generic nor a shipped face given the face a fontconfig renderer would substitute, by its first
 * family's name. A list naming a shipped face is unchanged.
 */
export function withGeneric(list: string): string {
  const parts = list.split(",");
  const names = parts.map((s) => s.trim().replace(/^(['"])(.*)\1$/, "$2"));
  if (names.some((n) => SHIPPED.has(n.toLowerCase()))) return list;
  if (names.some((n) => Object.hasOwn(CONCRETE, n.toLowerCase())))
    return names
      .map((n, i) => (Object.hasOwn(CONCRETE, n.toLowerCase()) ? CONCRETE[n.toLowerCase()] : parts[i].trim()))
      .join(", ");
  const first = names.find((n) => n.length > 0);
  return first ? `${list.trimEnd()}, ${CONCRETE[genericFor(first)]}` : list;
}

/**
 * The SVG with a generic family appended to every font-family (attribute, style declaration or CSS
 * rule) that lacks one. Only font-family values change.
 */
export function addGenericFamilies(svg: string): string {
  return svg
    .replace(/(font-family\s*=\s*)"([^"<>]*)"/g, (_, a: string, v: string) => `${a}"${withGeneric(v)}"`)
    .replace(/(font-family\s*=\s*)'([^'<>]*)'/g, (_, a: string, v: string) => `${a}'${withGeneric(v)}'`)
    .replace(/(font-family\s*:\s*)([^;"}<>]+)/g, (m, a: string, v: string) => {
      // a value in double quotes inside a single-quoted style attribute is left as it is
      if (/"/.test(v)) return m;
      return `${a}${withGeneric(v)}`;
    });
}

/** Whether the SVG draws text at all (`<text` in its own or another namespace prefix). */
export function hasText(svg: string): boolean {
  return /<([A-Za-z_][\w.-]*:)?text\b/.test(svg);
}

/** Whether the SVG asks for a bold face anywhere. */
function wantsBold(svg: string): boolean {
  return /font-weight\s*[:=]\s*["']?\s*(bold|bolder|[6-9]00)/i.test(svg) || /\bfont\s*:[^;"]*\bbold\b/i.test(svg);
}

/** Distinct code points above ASCII in the SVG's characters (its markup and text alike). */
function codePointsOf(svg: string): Set<number> {
  const cps = new Set<number>();
  for (const ch of svg) {
    const cp = ch.codePointAt(0)!;
    if (cp > 0x7f) cps.add(cp);
  }
  return cps;
}

const inRanges = (cp: number, ranges: readonly (readonly [number, number])[]) =>
  ranges.some(([a, b]) => cp >= a && cp <= b);

/** The faces for an SVG's text, and the SVG as resvg is to read it. */
export interface SvgText {
  svg: string;
  faces: Uint8Array[];
  /** Characters above ASCII (of the text or the markup) no face has, as code points: resvg draws its .notdef box for a letter among them. */
  missing: number[];
}

/**
 * Picks and loads the faces `svg` needs from `source` and rewrites the SVG's font families (uncovered
 * letters are kept: resvg draws them as boxes). An SVG without text gets no faces and is returned unchanged.
 * @throws TaskError INTERNAL_ERROR (retryable) when a face cannot be loaded (engines/text/fonts.ts)
 */
export async function prepareSvgText(svg: string, source: FontSource): Promise<SvgText> {
  if (!hasText(svg)) return { svg, faces: [], missing: [] };
  const bold = wantsBold(svg);
  const faces: LoadedFace[] = await Promise.all(DEJAVU.map((f) => loadFace(source, f)));
  const has = (cp: number) => faces.some((f) => f.font.hasGlyphForCodePoint(cp));
  let open = [...codePointsOf(svg)].filter((cp) => !has(cp));
  const named = namedFaces(svg);
  for (const face of SCRIPT_CHAIN) {
    if (named.has(face.name)) {
      const files = bold ? [face.regular, face.bold] : [face.regular];
      const loaded = await Promise.all(files.map((f) => loadFace(source, f)));
      faces.push(...loaded);
      open = open.filter((cp) => !loaded[0].font.hasGlyphForCodePoint(cp));
      continue;
    }
    if (open.length === 0) continue;
    // Noto Sans also serves the letters no range names (symbols, phonetic extensions) before they are given up
    if (!open.some((cp) => inRanges(cp, face.ranges)) && face.name !== "NotoSans") continue;
    const files = bold ? [face.regular, face.bold] : [face.regular];
    const loaded = await Promise.all(files.map((f) => loadFace(source, f)));
    if (!open.some((cp) => loaded[0].font.hasGlyphForCodePoint(cp))) continue;
    faces.push(...loaded);
    open = open.filter((cp) => !loaded[0].font.hasGlyphForCodePoint(cp));
  }
  return { svg: addGenericFamilies(svg), faces: faces.map((f) => f.bytes), missing: open };
}
