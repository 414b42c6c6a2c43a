/**
 * The shipped font faces for watermark text and where each one comes from. One table serves the
 * PDF engine (pdf-lib, fonts embedded as subsets) and the image engine (glyph outlines rendered by
 * ImageMagick), so a script looks the same on PDFs and images.
 *
 * Two families of faces:
 * - the "named" faces (DejaVu, wasm/fonts/, ~0.7 MB each): CloudConvert `font_name`s on images
 *   for text that is entirely WinAnsi (Latin-1 + cp1252); PDFs use the 14 standard fonts there;
 * - the script faces (Noto, SIL OFL 1.1, from the @embedpdf/fonts-* npm packages for Latin, Greek,
 *   Cyrillic, Devanagari, Arabic, Hebrew and CJK, and from the @expo-google-fonts/noto-sans-<script>
 *   packages for the scripts of South and South-East Asia, the Caucasus and Ethiopia, issue 44):
 *   every other text, chosen per run of characters by the fallback chain `SCRIPT_CHAIN` (shape.ts).
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
  | "NotoSansHebrew-Bold.ttf"
  | ExpoFontFile;

/** The scripts whose faces come from the @expo-google-fonts/noto-sans-<script> packages (issue 44). */
export type ExpoScript =
  | "Bengali"
  | "Gurmukhi"
  | "Gujarati"
  | "Oriya"
  | "Tamil"
  | "Telugu"
  | "Kannada"
  | "Malayalam"
  | "Sinhala"
  | "Thai"
  | "Lao"
  | "Khmer"
  | "Myanmar"
  | "Georgian"
  | "Armenian"
  | "Ethiopic";

/** A face of an @expo-google-fonts package: `NotoSans<Script>_400Regular.ttf` or `_700Bold.ttf`, as the package names it. */
export type ExpoFontFile = `NotoSans${ExpoScript}_${"400Regular" | "700Bold"}.ttf`;

/**
 * Where each file lives, as a path from the repository root: wasm/fonts/ (in this repository) or a
 * file of an npm package in node_modules/ (the @embedpdf/fonts-* packages keep theirs in fonts/, the
 * @expo-google-fonts ones in a folder per weight). Per-platform loaders (FontSource) resolve these
 * paths; scripts/build-browser.mjs and test/support/svg-oracle.ts read them too (one literal
 * `"file": "path"` entry a line).
 */
export const FONT_LOCATIONS: Readonly<Record<FontFile, string>> = {
  "DejaVuSans.ttf": "wasm/fonts/DejaVuSans.ttf",
  "DejaVuSans-Bold.ttf": "wasm/fonts/DejaVuSans-Bold.ttf",
  "DejaVuSerif.ttf": "wasm/fonts/DejaVuSerif.ttf",
  "DejaVuSansMono.ttf": "wasm/fonts/DejaVuSansMono.ttf",
  "NotoSans-Regular.ttf": "node_modules/@embedpdf/fonts-latin/fonts/NotoSans-Regular.ttf",
  "NotoSans-Bold.ttf": "node_modules/@embedpdf/fonts-latin/fonts/NotoSans-Bold.ttf",
  "NotoSansJP-Regular.otf": "node_modules/@embedpdf/fonts-jp/fonts/NotoSansJP-Regular.otf",
  "NotoSansJP-Bold.otf": "node_modules/@embedpdf/fonts-jp/fonts/NotoSansJP-Bold.otf",
  "NotoSansHans-Regular.otf": "node_modules/@embedpdf/fonts-sc/fonts/NotoSansHans-Regular.otf",
  "NotoSansHans-Bold.otf": "node_modules/@embedpdf/fonts-sc/fonts/NotoSansHans-Bold.otf",
  "NotoSansKR-Regular.otf": "node_modules/@embedpdf/fonts-kr/fonts/NotoSansKR-Regular.otf",
  "NotoSansKR-Bold.otf": "node_modules/@embedpdf/fonts-kr/fonts/NotoSansKR-Bold.otf",
  "NotoNaskhArabic-Regular.ttf": "node_modules/@embedpdf/fonts-arabic/fonts/NotoNaskhArabic-Regular.ttf",
  "NotoNaskhArabic-Bold.ttf": "node_modules/@embedpdf/fonts-arabic/fonts/NotoNaskhArabic-Bold.ttf",
  "NotoSansHebrew-Regular.ttf": "node_modules/@embedpdf/fonts-hebrew/fonts/NotoSansHebrew-Regular.ttf",
  "NotoSansHebrew-Bold.ttf": "node_modules/@embedpdf/fonts-hebrew/fonts/NotoSansHebrew-Bold.ttf",
  "NotoSansBengali_400Regular.ttf":
    "node_modules/@expo-google-fonts/noto-sans-bengali/400Regular/NotoSansBengali_400Regular.ttf",
  "NotoSansBengali_700Bold.ttf":
    "node_modules/@expo-google-fonts/noto-sans-bengali/700Bold/NotoSansBengali_700Bold.ttf",
  "NotoSansGurmukhi_400Regular.ttf":
    "node_modules/@expo-google-fonts/noto-sans-gurmukhi/400Regular/NotoSansGurmukhi_400Regular.ttf",
  "NotoSansGurmukhi_700Bold.ttf":
    "node_modules/@expo-google-fonts/noto-sans-gurmukhi/700Bold/NotoSansGurmukhi_700Bold.ttf",
  "NotoSansGujarati_400Regular.ttf":
    "node_modules/@expo-google-fonts/noto-sans-gujarati/400Regular/NotoSansGujarati_400Regular.ttf",
  "NotoSansGujarati_700Bold.ttf":
    "node_modules/@expo-google-fonts/noto-sans-gujarati/700Bold/NotoSansGujarati_700Bold.ttf",
  "NotoSansOriya_400Regular.ttf":
    "node_modules/@expo-google-fonts/noto-sans-oriya/400Regular/NotoSansOriya_400Regular.ttf",
  "NotoSansOriya_700Bold.ttf": "node_modules/@expo-google-fonts/noto-sans-oriya/700Bold/NotoSansOriya_700Bold.ttf",
  "NotoSansTamil_400Regular.ttf":
    "node_modules/@expo-google-fonts/noto-sans-tamil/400Regular/NotoSansTamil_400Regular.ttf",
  "NotoSansTamil_700Bold.ttf": "node_modules/@expo-google-fonts/noto-sans-tamil/700Bold/NotoSansTamil_700Bold.ttf",
  "NotoSansTelugu_400Regular.ttf":
    "node_modules/@expo-google-fonts/noto-sans-telugu/400Regular/NotoSansTelugu_400Regular.ttf",
  "NotoSansTelugu_700Bold.ttf": "node_modules/@expo-google-fonts/noto-sans-telugu/700Bold/NotoSansTelugu_700Bold.ttf",
  "NotoSansKannada_400Regular.ttf":
    "node_modules/@expo-google-fonts/noto-sans-kannada/400Regular/NotoSansKannada_400Regular.ttf",
  "NotoSansKannada_700Bold.ttf":
    "node_modules/@expo-google-fonts/noto-sans-kannada/700Bold/NotoSansKannada_700Bold.ttf",
  "NotoSansMalayalam_400Regular.ttf":
    "node_modules/@expo-google-fonts/noto-sans-malayalam/400Regular/NotoSansMalayalam_400Regular.ttf",
  "NotoSansMalayalam_700Bold.ttf":
    "node_modules/@expo-google-fonts/noto-sans-malayalam/700Bold/NotoSansMalayalam_700Bold.ttf",
  "NotoSansSinhala_400Regular.ttf":
    "node_modules/@expo-google-fonts/noto-sans-sinhala/400Regular/NotoSansSinhala_400Regular.ttf",
  "NotoSansSinhala_700Bold.ttf":
    "node_modules/@expo-google-fonts/noto-sans-sinhala/700Bold/NotoSansSinhala_700Bold.ttf",
  "NotoSansThai_400Regular.ttf":
    "node_modules/@expo-google-fonts/noto-sans-thai/400Regular/NotoSansThai_400Regular.ttf",
  "NotoSansThai_700Bold.ttf": "node_modules/@expo-google-fonts/noto-sans-thai/700Bold/NotoSansThai_700Bold.ttf",
  "NotoSansLao_400Regular.ttf": "node_modules/@expo-google-fonts/noto-sans-lao/400Regular/NotoSansLao_400Regular.ttf",
  "NotoSansLao_700Bold.ttf": "node_modules/@expo-google-fonts/noto-sans-lao/700Bold/NotoSansLao_700Bold.ttf",
  "NotoSansKhmer_400Regular.ttf":
    "node_modules/@expo-google-fonts/noto-sans-khmer/400Regular/NotoSansKhmer_400Regular.ttf",
  "NotoSansKhmer_700Bold.ttf": "node_modules/@expo-google-fonts/noto-sans-khmer/700Bold/NotoSansKhmer_700Bold.ttf",
  "NotoSansMyanmar_400Regular.ttf":
    "node_modules/@expo-google-fonts/noto-sans-myanmar/400Regular/NotoSansMyanmar_400Regular.ttf",
  "NotoSansMyanmar_700Bold.ttf":
    "node_modules/@expo-google-fonts/noto-sans-myanmar/700Bold/NotoSansMyanmar_700Bold.ttf",
  "NotoSansGeorgian_400Regular.ttf":
    "node_modules/@expo-google-fonts/noto-sans-georgian/400Regular/NotoSansGeorgian_400Regular.ttf",
  "NotoSansGeorgian_700Bold.ttf":
    "node_modules/@expo-google-fonts/noto-sans-georgian/700Bold/NotoSansGeorgian_700Bold.ttf",
  "NotoSansArmenian_400Regular.ttf":
    "node_modules/@expo-google-fonts/noto-sans-armenian/400Regular/NotoSansArmenian_400Regular.ttf",
  "NotoSansArmenian_700Bold.ttf":
    "node_modules/@expo-google-fonts/noto-sans-armenian/700Bold/NotoSansArmenian_700Bold.ttf",
  "NotoSansEthiopic_400Regular.ttf":
    "node_modules/@expo-google-fonts/noto-sans-ethiopic/400Regular/NotoSansEthiopic_400Regular.ttf",
  "NotoSansEthiopic_700Bold.ttf":
    "node_modules/@expo-google-fonts/noto-sans-ethiopic/700Bold/NotoSansEthiopic_700Bold.ttf",
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

/** The face of an @expo-google-fonts package for `script`, tried for the letters of `ranges`. */
const expoFace = (script: ExpoScript, ranges: Ranges): ScriptFace => ({
  name: `NotoSans${script}`,
  regular: `NotoSans${script}_400Regular.ttf`,
  bold: `NotoSans${script}_700Bold.ttf`,
  ranges,
});

/**
 * The fallback chain for text that is not all WinAnsi, in order: Noto Sans (Latin, Greek,
 * Cyrillic, Devanagari), Noto Naskh Arabic, Noto Sans Hebrew, Noto Sans JP (kana, kanji, CJK punctuation and
 * full-width forms; it also covers the Han ideographs Chinese shares with Japanese), Noto Sans SC
 * (the simplified Han ideographs Japanese lacks, GB 2312 and beyond) and Noto Sans KR (Hangul
 * syllables and jamo), then one Noto Sans face per script of South and South-East Asia, the Caucasus
 * and Ethiopia (issue 44: Bengali (also Assamese), Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada,
 * Malayalam, Sinhala, Thai, Lao, Khmer, Myanmar, Georgian, Armenian, Ethiopic), each for its
 * Unicode blocks. A line that needs the SC or KR face for a letter draws all its Han
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
      [0x0900, 0x097f],
      [0x1c80, 0x1c8f],
      [0x1d00, 0x1fff],
      [0x2000, 0x20cf],
      [0x2100, 0x214f],
      [0x2c60, 0x2c7f],
      [0x2de0, 0x2dff],
      [0xa640, 0xa69f],
      [0xa720, 0xa7ff],
      [0xa8e0, 0xa8ff],
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
  expoFace("Bengali", [[0x0980, 0x09ff]]),
  expoFace("Gurmukhi", [[0x0a00, 0x0a7f]]),
  expoFace("Gujarati", [[0x0a80, 0x0aff]]),
  expoFace("Oriya", [[0x0b00, 0x0b7f]]),
  expoFace("Tamil", [
    [0x0b80, 0x0bff],
    [0x11fc0, 0x11fff],
  ]),
  expoFace("Telugu", [[0x0c00, 0x0c7f]]),
  expoFace("Kannada", [[0x0c80, 0x0cff]]),
  expoFace("Malayalam", [[0x0d00, 0x0d7f]]),
  expoFace("Sinhala", [
    [0x0d80, 0x0dff],
    [0x111e0, 0x111ff],
  ]),
  expoFace("Thai", [[0x0e00, 0x0e7f]]),
  expoFace("Lao", [[0x0e80, 0x0eff]]),
  expoFace("Khmer", [
    [0x1780, 0x17ff],
    [0x19e0, 0x19ff],
  ]),
  expoFace("Myanmar", [
    [0x1000, 0x109f],
    [0xa9e0, 0xa9ff],
    [0xaa60, 0xaa7f],
  ]),
  expoFace("Georgian", [
    [0x10a0, 0x10ff],
    [0x1c90, 0x1cbf],
    [0x2d00, 0x2d2f],
  ]),
  expoFace("Armenian", [
    [0x0530, 0x058f],
    [0xfb13, 0xfb17],
  ]),
  expoFace("Ethiopic", [
    [0x1200, 0x139f],
    [0x2d80, 0x2ddf],
    [0xab00, 0xab2f],
    [0x1e7e0, 0x1e7ff],
  ]),
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
