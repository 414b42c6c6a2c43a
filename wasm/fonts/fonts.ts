/**
 * The watermark fonts of the fonts Worker (engines/text/faces.ts), as Data modules (rule in
 * ./wrangler.toml) imported lazily: a face's module is instantiated when a text first needs it, so
 * start-up stays within workerd's budget whatever the font set weighs.
 */
import type { FontFile, FontSource } from "../../src/engines/text/faces";

type DataModule = Promise<{ default: ArrayBuffer }>;

// One literal import() per file: the bundler only collects modules it can see.
const MODULES: Record<FontFile, () => DataModule> = {
  "DejaVuSans.ttf": () => import("./DejaVuSans.ttf"),
  "DejaVuSans-Bold.ttf": () => import("./DejaVuSans-Bold.ttf"),
  "DejaVuSerif.ttf": () => import("./DejaVuSerif.ttf"),
  "DejaVuSansMono.ttf": () => import("./DejaVuSansMono.ttf"),
  // the @embedpdf/fonts-* packages export no fonts/ subpath, so the files are reached by path
  "NotoSans-Regular.ttf": () => import("../../node_modules/@embedpdf/fonts-latin/fonts/NotoSans-Regular.ttf"),
  "NotoSans-Bold.ttf": () => import("../../node_modules/@embedpdf/fonts-latin/fonts/NotoSans-Bold.ttf"),
  "NotoSansJP-Regular.otf": () => import("../../node_modules/@embedpdf/fonts-jp/fonts/NotoSansJP-Regular.otf"),
  "NotoSansJP-Bold.otf": () => import("../../node_modules/@embedpdf/fonts-jp/fonts/NotoSansJP-Bold.otf"),
  "NotoSansHans-Regular.otf": () => import("../../node_modules/@embedpdf/fonts-sc/fonts/NotoSansHans-Regular.otf"),
  "NotoSansHans-Bold.otf": () => import("../../node_modules/@embedpdf/fonts-sc/fonts/NotoSansHans-Bold.otf"),
  "NotoSansKR-Regular.otf": () => import("../../node_modules/@embedpdf/fonts-kr/fonts/NotoSansKR-Regular.otf"),
  "NotoSansKR-Bold.otf": () => import("../../node_modules/@embedpdf/fonts-kr/fonts/NotoSansKR-Bold.otf"),
  "NotoNaskhArabic-Regular.ttf": () =>
    import("../../node_modules/@embedpdf/fonts-arabic/fonts/NotoNaskhArabic-Regular.ttf"),
  "NotoNaskhArabic-Bold.ttf": () => import("../../node_modules/@embedpdf/fonts-arabic/fonts/NotoNaskhArabic-Bold.ttf"),
  "NotoSansHebrew-Regular.ttf": () =>
    import("../../node_modules/@embedpdf/fonts-hebrew/fonts/NotoSansHebrew-Regular.ttf"),
  "NotoSansHebrew-Bold.ttf": () => import("../../node_modules/@embedpdf/fonts-hebrew/fonts/NotoSansHebrew-Bold.ttf"),
  // issue 44: the @expo-google-fonts/noto-sans-<script> packages keep each weight in its own folder
  "NotoSansBengali_400Regular.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-bengali/400Regular/NotoSansBengali_400Regular.ttf"),
  "NotoSansBengali_700Bold.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-bengali/700Bold/NotoSansBengali_700Bold.ttf"),
  "NotoSansGurmukhi_400Regular.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-gurmukhi/400Regular/NotoSansGurmukhi_400Regular.ttf"),
  "NotoSansGurmukhi_700Bold.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-gurmukhi/700Bold/NotoSansGurmukhi_700Bold.ttf"),
  "NotoSansGujarati_400Regular.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-gujarati/400Regular/NotoSansGujarati_400Regular.ttf"),
  "NotoSansGujarati_700Bold.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-gujarati/700Bold/NotoSansGujarati_700Bold.ttf"),
  "NotoSansOriya_400Regular.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-oriya/400Regular/NotoSansOriya_400Regular.ttf"),
  "NotoSansOriya_700Bold.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-oriya/700Bold/NotoSansOriya_700Bold.ttf"),
  "NotoSansTamil_400Regular.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-tamil/400Regular/NotoSansTamil_400Regular.ttf"),
  "NotoSansTamil_700Bold.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-tamil/700Bold/NotoSansTamil_700Bold.ttf"),
  "NotoSansTelugu_400Regular.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-telugu/400Regular/NotoSansTelugu_400Regular.ttf"),
  "NotoSansTelugu_700Bold.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-telugu/700Bold/NotoSansTelugu_700Bold.ttf"),
  "NotoSansKannada_400Regular.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-kannada/400Regular/NotoSansKannada_400Regular.ttf"),
  "NotoSansKannada_700Bold.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-kannada/700Bold/NotoSansKannada_700Bold.ttf"),
  "NotoSansMalayalam_400Regular.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-malayalam/400Regular/NotoSansMalayalam_400Regular.ttf"),
  "NotoSansMalayalam_700Bold.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-malayalam/700Bold/NotoSansMalayalam_700Bold.ttf"),
  "NotoSansSinhala_400Regular.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-sinhala/400Regular/NotoSansSinhala_400Regular.ttf"),
  "NotoSansSinhala_700Bold.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-sinhala/700Bold/NotoSansSinhala_700Bold.ttf"),
  "NotoSansThai_400Regular.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-thai/400Regular/NotoSansThai_400Regular.ttf"),
  "NotoSansThai_700Bold.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-thai/700Bold/NotoSansThai_700Bold.ttf"),
  "NotoSansLao_400Regular.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-lao/400Regular/NotoSansLao_400Regular.ttf"),
  "NotoSansLao_700Bold.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-lao/700Bold/NotoSansLao_700Bold.ttf"),
  "NotoSansKhmer_400Regular.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-khmer/400Regular/NotoSansKhmer_400Regular.ttf"),
  "NotoSansKhmer_700Bold.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-khmer/700Bold/NotoSansKhmer_700Bold.ttf"),
  "NotoSansMyanmar_400Regular.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-myanmar/400Regular/NotoSansMyanmar_400Regular.ttf"),
  "NotoSansMyanmar_700Bold.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-myanmar/700Bold/NotoSansMyanmar_700Bold.ttf"),
  "NotoSansGeorgian_400Regular.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-georgian/400Regular/NotoSansGeorgian_400Regular.ttf"),
  "NotoSansGeorgian_700Bold.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-georgian/700Bold/NotoSansGeorgian_700Bold.ttf"),
  "NotoSansArmenian_400Regular.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-armenian/400Regular/NotoSansArmenian_400Regular.ttf"),
  "NotoSansArmenian_700Bold.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-armenian/700Bold/NotoSansArmenian_700Bold.ttf"),
  "NotoSansEthiopic_400Regular.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-ethiopic/400Regular/NotoSansEthiopic_400Regular.ttf"),
  "NotoSansEthiopic_700Bold.ttf": () =>
    import("../../node_modules/@expo-google-fonts/noto-sans-ethiopic/700Bold/NotoSansEthiopic_700Bold.ttf"),
};

/** True for a name of a shipped font file (requests over RPC are checked with it). */
export function isFontFile(name: string): name is FontFile {
  return Object.hasOwn(MODULES, name);
}

/** The Worker's FontSource: the face's Data module, imported on first use. */
export const workerFonts: FontSource = async (file) => new Uint8Array((await MODULES[file]()).default);

/** Every shipped font file's name. */
export const FONT_FILES = Object.keys(MODULES) as FontFile[];
