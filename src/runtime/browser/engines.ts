/**
 * The engines of a browser page (issue 19): every engine of the table that runs in JavaScript or
 * WebAssembly — pdf-lib, PDFium, ImageMagick, ExifTool, 7-Zip — with the same engine code as Node
 * and workerd. Only the loading differs: each .wasm is fetched and compiled while it downloads
 * (`WebAssembly.compileStreaming`) from the assets folder on an engine's first call, so a page pays
 * for an engine only when a task needs it. Engines that need the server (the native container,
 * Browser Rendering, ffmpeg and tesseract until their browser loaders exist) are absent: their
 * tasks end with ENGINE_UNAVAILABLE, and the app can send that job to the API instead.
 */
import { createExifToolEngine } from "../../engines/exiftool/engine";
import { createImageMagickEngine } from "../../engines/imagemagick/engine";
import { createPdfLibEngine } from "../../engines/pdflib/engine";
import type { EngineInstances } from "../../engines/registry";
import { createSevenZipEngine } from "../../engines/sevenzip/engine";
import type { FontFile, FontSource } from "../../engines/text/faces";
import { browserPdfiumEngine } from "./pdfium";

/** Where the page serves the engines' assets (dist/browser/ as built by `npm run build:browser`). */
export interface BrowserAssets {
  /** The folder URL, ending in `/`: holds pdfium.wasm, magick.wasm, zeroperl.wasm, exiftool-perl.json, 7zz.wasm, fonts/. */
  base: string | URL;
}

/** Names of the asset files, as the build writes them (scripts/build-browser.mjs). */
export const BROWSER_ASSETS = {
  pdfium: "pdfium.wasm",
  imagemagick: "magick.wasm",
  zeroperl: "zeroperl.wasm",
  exiftoolPerl: "exiftool-perl.json",
  sevenzip: "7zz.wasm",
  fonts: "fonts/",
} as const;

const compile = (url: URL) => WebAssembly.compileStreaming(fetch(url));
const once = <T>(f: () => Promise<T>) => {
  let p: Promise<T> | undefined;
  return () => (p ??= f().catch((err: unknown) => ((p = undefined), Promise.reject(err))));
};

/** Watermark fonts fetched from the assets' fonts/ folder on first use. */
export function browserFontSource(base: string | URL): FontSource {
  const cache = new Map<FontFile, Promise<Uint8Array>>();
  return (file) => {
    let p = cache.get(file);
    if (!p) {
      p = fetch(new URL(BROWSER_ASSETS.fonts + file, base)).then(async (r) => {
        if (!r.ok) throw new Error(`font ${file}: HTTP ${r.status}`);
        return new Uint8Array(await r.arrayBuffer());
      });
      cache.set(file, p);
    }
    return p;
  };
}

/** In-page engines; nothing is fetched until an engine's first call. */
export function browserEngines(assets: BrowserAssets): EngineInstances {
  const at = (name: string) => new URL(name, assets.base);
  const fonts = browserFontSource(assets.base);
  return {
    cloudflare: {},
    pdflib: createPdfLibEngine({ fonts }),
    pdfium: browserPdfiumEngine(at(BROWSER_ASSETS.pdfium)),
    imagemagick: createImageMagickEngine({ loadWasm: once(() => compile(at(BROWSER_ASSETS.imagemagick))), fonts }),
    exiftool: createExifToolEngine({
      loadWasm: once(() => compile(at(BROWSER_ASSETS.zeroperl))),
      loadPerlFiles: once(async () => (await fetch(at(BROWSER_ASSETS.exiftoolPerl))).json() as Promise<Record<string, string>>),
    }),
    "7z": createSevenZipEngine({ loadWasm: once(() => compile(at(BROWSER_ASSETS.sevenzip))) }),
  };
}
