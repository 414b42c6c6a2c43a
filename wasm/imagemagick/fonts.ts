/**
 * The watermark fonts of the image engine Worker (engines/text/faces.ts), as Data modules (rule in
 * ./wrangler.toml) imported lazily: a face's module is instantiated when a text first needs it, so
 * start-up stays within workerd's budget whatever the font set weighs.
 *
 * Why the fonts live here (and not in the api Worker): this Worker already holds magick.wasm and
 * the DejaVu faces and draws image watermarks; the Noto faces add ~11 MB (Noto Sans JP alone is
 * 4.5 MB a weight), which would more than double the api Worker's bundle (7.8 MiB) for a feature
 * only PDF watermarks in non-Latin scripts need there. The api Worker asks this Worker for a face
 * over the service binding (RPC `font`, worker.ts) the first time it needs it, and keeps it for the
 * life of its isolate (engines/text/fonts.ts).
 */
import type { FontFile, FontSource } from "../../src/engines/text/faces";

type DataModule = Promise<{ default: ArrayBuffer }>;

// One literal import() per file: the bundler only collects modules it can see.
const MODULES: Record<FontFile, () => DataModule> = {
  "DejaVuSans.ttf": () => import("../fonts/DejaVuSans.ttf"),
  "DejaVuSans-Bold.ttf": () => import("../fonts/DejaVuSans-Bold.ttf"),
  "DejaVuSerif.ttf": () => import("../fonts/DejaVuSerif.ttf"),
  "DejaVuSansMono.ttf": () => import("../fonts/DejaVuSansMono.ttf"),
  // the @embedpdf/fonts-* packages export no fonts/ subpath, so the files are reached by path
  "NotoSans-Regular.ttf": () => import("../../node_modules/@embedpdf/fonts-latin/fonts/NotoSans-Regular.ttf"),
  "NotoSans-Bold.ttf": () => import("../../node_modules/@embedpdf/fonts-latin/fonts/NotoSans-Bold.ttf"),
  "NotoSansJP-Regular.otf": () => import("../../node_modules/@embedpdf/fonts-jp/fonts/NotoSansJP-Regular.otf"),
  "NotoSansJP-Bold.otf": () => import("../../node_modules/@embedpdf/fonts-jp/fonts/NotoSansJP-Bold.otf"),
  "NotoNaskhArabic-Regular.ttf": () => import("../../node_modules/@embedpdf/fonts-arabic/fonts/NotoNaskhArabic-Regular.ttf"),
  "NotoNaskhArabic-Bold.ttf": () => import("../../node_modules/@embedpdf/fonts-arabic/fonts/NotoNaskhArabic-Bold.ttf"),
  "NotoSansHebrew-Regular.ttf": () => import("../../node_modules/@embedpdf/fonts-hebrew/fonts/NotoSansHebrew-Regular.ttf"),
  "NotoSansHebrew-Bold.ttf": () => import("../../node_modules/@embedpdf/fonts-hebrew/fonts/NotoSansHebrew-Bold.ttf"),
};

/** True for a name of a shipped font file (requests over RPC are checked with it). */
export function isFontFile(name: string): name is FontFile {
  return Object.hasOwn(MODULES, name);
}

/** The Worker's FontSource: the face's Data module, imported on first use. */
export const workerFonts: FontSource = async (file) => new Uint8Array((await MODULES[file]()).default);
