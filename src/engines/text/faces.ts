/**
 * The shipped font faces for watermark text and where each one comes from. One table serves the
 * PDF engine (pdf-lib, fonts embedded as subsets) and the image engine (glyph outlines rendered by
 * ImageMagick), so a script looks the same on PDFs and images.
 *
 * Two families of faces:
 * - the "named" faces (DejaVu, wasm/fonts/, ~0.7 MB each): CloudConvert `font_name`s on images
 *   for text that is entirely WinAnsi (Latin-1 + cp1252); PDFs use the 14 standard fonts there;
 * - the script faces (Noto, SIL OFL 1.1, from the @embedpdf/fonts-* npm packages): every other
 *   text, chosen per run of characters by the fallback chain `SCRIPT_CHAIN` (itemize.ts).
 *
 * Faces are loaded only when a text needs them (FontSource, per platform), never at start-up.
 */

/** A shipped font file, by its file name (unique across the table). */
export type FontFile =
  | "DejaVuSans.ttf"
  | "DejaVuSans-Bold.ttf"
  | "DejaVuSerif.ttf"
  | "DejaVuSansMono.ttf"
  | "NotoSans-Regular.ttf"
  | "NotoSans-Bold.ttf"
  | "NotoSansJP-Regular.otf"
  | "NotoSansJP-Bold.otf"
  | "NotoSansHans-Regular.otf"
  | "NotoSansHans-Bold.otf"
  | "NotoSansKR-Regular.otf"
  | "NotoSansKR-Bold.otf"
  | "NotoNaskhArabic-Regular.ttf"
  | "NotoNaskhArabic-Bold.ttf"
  | "NotoSansHebrew-Regular.ttf"
  | "NotoSansHebrew-Bold.ttf";

/**
 * Where each file lives: "wasm/fonts" (in this repository) or an npm package whose `fonts/`
 * folder holds it. Per-platform loaders (FontSource) resolve these locations.
 */
export const FONT_LOCATIONS: Readonly<Record<FontFile, "wasm/fonts" | `@embedpdf/fonts-${string}`>> = {
  "DejaVuSans.ttf": "wasm/fonts",
  "DejaVuSans-Bold.ttf": "wasm/fonts",
  "DejaVuSerif.ttf": "wasm/fonts",
  "DejaVuSansMono.ttf": "wasm/fonts",
  "NotoSans-Regular.ttf": "@embedpdf/fonts-latin",
  "NotoSans-Bold.ttf": "@embedpdf/fonts-latin",
  "NotoSansJP-Regular.otf": "@embedpdf/fonts-jp",
  "NotoSansJP-Bold.otf": "@embedpdf/fonts-jp",
  "NotoSansHans-Regular.otf": "@embedpdf/fonts-sc",
  "NotoSansHans-Bold.otf": "@embedpdf/fonts-sc",
  "NotoSansKR-Regular.otf": "@embedpdf/fonts-kr",
  "NotoSansKR-Bold.otf": "@embedpdf/fonts-kr",
  "NotoNaskhArabic-Regular.ttf": "@embedpdf/fonts-arabic",
  "NotoNaskhArabic-Bold.ttf": "@embedpdf/fonts-arabic",
  "NotoSansHebrew-Regular.ttf": "@embedpdf/fonts-hebrew",
  "NotoSansHebrew-Bold.ttf": "@embedpdf/fonts-hebrew",
};

/**
 * How a platform obtains a font file's bytes (Node: the file system; the image engine Worker:
 * lazily imported Data modules; the api Worker: the image engine Worker over its service binding).
 * Rejects (any error) when the file cannot be had; callers turn that into a TaskError.
 */
export type FontSource = (file: FontFile) => Promise<Uint8Array>;

/** Inclusive code point ranges, [first, last]. */
export type Ranges = readonly (readonly [number, number])[];

/** One face of the fallback chain: its files (regular, bold) and the scripts it is chosen for. */
export interface ScriptFace {
  /** Short name, used in messages and as the subset font's tag. */
  name: string;
  regular: FontFile;
  bold: FontFile;
  /**
   * Letters in these ranges are tried in this face (its cmap decides at the end); coarse Unicode
   * blocks, so that a face is loaded only when the text has a letter of its script.
   */
  ranges: Ranges;
}

/**
 * The fallback chain for text that is not all WinAnsi, in order: Noto Sans (Latin, Greek,
 * Cyrillic), Noto Naskh Arabic, Noto Sans Hebrew, Noto Sans JP (kana, kanji, CJK punctuation and
 * full-width forms; it also covers the Han ideographs Chinese shares with Japanese), Noto Sans SC
 * (the simplified Han ideographs Japanese lacks, GB 2312 and beyond) and Noto Sans KR (Hangul
 * syllables and jamo). A line that needs the SC or KR face for a letter draws all its Han
 * ideographs in that face (`HAN_FACES`, shape.ts), so one Chinese or Korean word is never split
 * across two designs.
 */
export const SCRIPT_CHAIN: readonly ScriptFace[] = [
  {
    name: "NotoSans",
    regular: "NotoSans-Regular.ttf",
    bold: "NotoSans-Bold.ttf",
    ranges: [
      [0x0000, 0x052f],
      [0x1c80, 0x1c8f],
      [0x1d00, 0x1fff],
      [0x2000, 0x20cf],
      [0x2100, 0x214f],
      [0x2c60, 0x2c7f],
      [0x2de0, 0x2dff],
      [0xa640, 0xa69f],
      [0xa720, 0xa7ff],
    ],
  },
  {
    name: "NotoNaskhArabic",
    regular: "NotoNaskhArabic-Regular.ttf",
    bold: "NotoNaskhArabic-Bold.ttf",
    ranges: [
      [0x0600, 0x06ff],
      [0x0750, 0x077f],
      [0x08a0, 0x08ff],
      [0xfb50, 0xfdff],
      [0xfe70, 0xfeff],
    ],
  },
  {
    name: "NotoSansHebrew",
    regular: "NotoSansHebrew-Regular.ttf",
    bold: "NotoSansHebrew-Bold.ttf",
    ranges: [
      [0x0590, 0x05ff],
      [0xfb1d, 0xfb4f],
    ],
  },
  {
    name: "NotoSansJP",
    regular: "NotoSansJP-Regular.otf",
    bold: "NotoSansJP-Bold.otf",
    ranges: [
      [0x2e80, 0x2fdf],
      [0x3000, 0x30ff],
      [0x3190, 0x31ff],
      [0x3200, 0x33ff],
      [0x3400, 0x4dbf],
      [0x4e00, 0x9fff],
      [0xf900, 0xfaff],
      [0xfe30, 0xfe4f],
      [0xff00, 0xffef],
      [0x20000, 0x2ffff],
    ],
  },
  {
    // the file names are the package's: Noto Sans CJK SC ships as "Noto Sans Hans" in @embedpdf/fonts-sc
    name: "NotoSansSC",
    regular: "NotoSansHans-Regular.otf",
    bold: "NotoSansHans-Bold.otf",
    ranges: [
      [0x2e80, 0x2fdf],
      [0x3000, 0x303f],
      [0x3100, 0x312f],
      [0x31a0, 0x31bf],
      [0x3400, 0x4dbf],
      [0x4e00, 0x9fff],
      [0xf900, 0xfaff],
      [0xfe30, 0xfe4f],
      [0xff00, 0xffef],
      [0x20000, 0x2ffff],
    ],
  },
  {
    name: "NotoSansKR",
    regular: "NotoSansKR-Regular.otf",
    bold: "NotoSansKR-Bold.otf",
    ranges: [
      [0x1100, 0x11ff],
      [0x3130, 0x318f],
      [0xa960, 0xa97f],
      [0xac00, 0xd7af],
      [0xd7b0, 0xd7ff],
      [0xffa0, 0xffdc],
    ],
  },
];

/** The Han ideograph blocks (Unicode 15 §18.1): the letters Chinese, Japanese and Korean share. */
export const HAN: Ranges = [
  [0x2e80, 0x2fdf],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xf900, 0xfaff],
  [0x20000, 0x2ffff],
];

/**
 * The faces that take over a line's Han ideographs once one of its letters needs them (a
 * simplified-only ideograph for SC, Hangul for KR), in order of precedence.
 */
export const HAN_FACES: readonly string[] = ["NotoSansKR", "NotoSansSC"];

/** True when `cp` lies in one of `ranges`. */
export function inRanges(cp: number, ranges: Ranges): boolean {
  return ranges.some(([a, b]) => cp >= a && cp <= b);
}

/** The cp1252 characters outside Latin-1 that WinAnsiEncoding has (ISO 32000-1 Annex D.2). */
const WIN_ANSI_EXTRA = new Set([
  0x20ac, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x017d, 0x2018,
  0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x017e, 0x0178,
]);

/**
 * True when every character of `text` (line breaks aside) is in WinAnsiEncoding, the encoding of
 * the 14 standard PDF fonts: such text keeps the CloudConvert `font_name` families; any other text
 * takes the script faces of SCRIPT_CHAIN.
 */
export function isWinAnsi(text: string): boolean {
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0x0a || cp === 0x0d) continue;
    if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) || WIN_ANSI_EXTRA.has(cp)) continue;
    return false;
  }
  return true;
}

/** True for a bold request: a `font_name` naming a bold face (or Impact, drawn bold). */
export function wantsBold(fontName: string | undefined): boolean {
  const n = (fontName ?? "").toLowerCase();
  return n.includes("bold") || n.includes("impact") || n.includes("black");
}
