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
};

/** True for a name of a shipped font file (requests over RPC are checked with it). */
export function isFontFile(name: string): name is FontFile {
  return Object.hasOwn(MODULES, name);
}

/** The Worker's FontSource: the face's Data module, imported on first use. */
export const workerFonts: FontSource = async (file) => new Uint8Array((await MODULES[file]()).default);

/** Every shipped font file's name. */
export const FONT_FILES = Object.keys(MODULES) as FontFile[];
