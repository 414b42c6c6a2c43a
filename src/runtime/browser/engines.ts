/**
 * The engines of a browser page (issue 19): every engine of the table that runs in JavaScript or
 * WebAssembly — pdf-lib, PDFium, ImageMagick, ExifTool, 7-Zip, ffmpeg, tesseract, pandoc, fonteditor-core, SheetJS — with the same
 * engine code as Node and workerd. Only the loading differs: each .wasm is fetched and compiled
 * while it downloads (`WebAssembly.compileStreaming`) from the assets folder on an engine's first
 * call, so a page pays for an engine only when a task needs it. SVG is drawn by resvg (resvg.wasm). ffmpeg's 30.7 MiB module is
 * stored in two parts and pandoc's 55.9 MiB in three (static hosts, Workers assets among them, cap one file at 25 MiB) and
 * compiled from their concatenation as one stream. Engines that need the server (the native
 * container, Browser Rendering) are absent: their tasks end with ENGINE_UNAVAILABLE, and the app
 * can send that job to the API instead.
 */
import type { EngineInstances } from "../../engines/registry";
import { FONT_FILES } from "../../../native-protocol/media/formats";
import type { FontFile, FontSource } from "../../engines/text/faces";
import type { ImageEngine } from "../../engines/kinds/image";
import { lazyEngine, lazyScriptEngines, once } from "../../engines/lazy";
import { BROWSER_IMAGE_BUDGET, BROWSER_SCRIPT_BUDGETS } from "./budgets";

/** Where the page serves the engines' assets (dist/browser/ as built by `npm run build:browser`). */
export interface BrowserAssets {
  /** The folder URL, ending in `/`: holds pdfium.wasm, magick.wasm, zeroperl.wasm, exiftool-perl.json, 7zz.wasm, fonts/. */
  base: string | URL;
}

/** Names of the asset files, as the build writes them (scripts/build-browser.mjs). */
export const BROWSER_ASSETS = {
  pdfium: "pdfium.wasm",
  imagemagick: "magick.wasm",
  resvg: "resvg.wasm",
  zeroperl: "zeroperl.wasm",
  exiftoolPerl: "exiftool-perl.json",
  sevenzip: "7zz.wasm",
  /** ffmpeg-core.wasm in FFMPEG_PARTS parts: `ffmpeg-core.wasm.0`, `ffmpeg-core.wasm.1`, … */
  ffmpeg: "ffmpeg-core.wasm",
  tesseract: "tesseract-core-simd.wasm",
  /** pandoc.wasm (55.9 MiB) in PANDOC_PARTS parts: `pandoc.wasm.0`, `pandoc.wasm.1`, … */
  pandoc: "pandoc.wasm",
  /** `{lang}.traineddata.gz` (best_int) for the WASM row's languages. */
  languages: "tessdata/",
  fonts: "fonts/",
} as const;

/** How many parts ffmpeg-core.wasm is stored in (scripts/build-browser.mjs writes them). */
export const FFMPEG_PARTS = 2;
/** How many parts pandoc.wasm is stored in (scripts/build-browser.mjs writes them). */
export const PANDOC_PARTS = 3;

/** The URLs of an asset stored in `parts` parts (`<name>.0`, `<name>.1`, …). */
const partsOf = (at: (name: string) => URL, name: string, parts: number) =>
  Array.from({ length: parts }, (_, i) => at(`${name}.${i}`));

const compile = (url: URL) => WebAssembly.compileStreaming(fetch(url));

async function bytesOf(url: URL): Promise<Uint8Array> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url.pathname}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

/** Compiles a module stored in parts, streaming their concatenation (one part downloads while the previous compiles). */
function compileParts(urls: URL[]): Promise<WebAssembly.Module> {
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        for (const url of urls) {
          const r = await fetch(url);
          if (!r.ok || !r.body) throw new Error(`${url.pathname}: HTTP ${r.status}`);
          const reader = r.body.getReader();
          for (let c = await reader.read(); !c.done; c = await reader.read()) controller.enqueue(c.value);
        }
        controller.close();
      } catch (err) {
        controller.error(err);
      }
    },
  });
  return WebAssembly.compileStreaming(new Response(body, { headers: { "content-type": "application/wasm" } }));
}

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

/**
 * The methods of each engine (the engine kinds' interfaces, src/engines/kinds/), so that an engine's
 * JavaScript can load on its first call like its WebAssembly; test/unit/browser-engines.test.ts
 * checks them against the engines themselves.
 */
export const ENGINE_METHODS = {
  pdflib: ["merge", "split", "extract", "rotate", "encrypt", "decrypt", "watermark", "pageInfo", "textLayer", "stamp"],
  pdfium: ["rasterize"],
  imagemagick: ["info", "run"],
  resvg: ["info", "run"],
  exiftool: ["info", "read", "write"],
  ffmpeg: ["run", "command", "info"],
  "7z": ["create", "extract", "info"],
  tesseract: ["recognize"],
  "pandoc-wasm": ["convert"],
} as const;

/** In-page engines; nothing — neither an engine's JavaScript nor its WebAssembly — is fetched until its first call. */
export function browserEngines(assets: BrowserAssets): EngineInstances {
  const at = (name: string) => new URL(name, assets.base);
  const fonts = browserFontSource(assets.base);
  const imagemagick = lazyEngine<ImageEngine<Uint8Array>>(ENGINE_METHODS.imagemagick, async () =>
    (await import("../../engines/imagemagick/engine")).createImageMagickEngine({
      loadWasm: once(() => compile(at(BROWSER_ASSETS.imagemagick))),
      fonts,
      budget: BROWSER_IMAGE_BUDGET,
    }),
  );
  return {
    cloudflare: {},
    pdflib: lazyEngine(ENGINE_METHODS.pdflib, async () =>
      (await import("../../engines/pdflib/engine")).createPdfLibEngine({ fonts }),
    ),
    pdfium: lazyEngine(ENGINE_METHODS.pdfium, async () =>
      (await import("./pdfium")).browserPdfiumEngine(at(BROWSER_ASSETS.pdfium)),
    ),
    imagemagick,
    // SVG (issue 33): resvg draws, the same ImageMagick re-encodes outputs other than PNG
    resvg: lazyEngine(ENGINE_METHODS.resvg, async () =>
      (await import("../../engines/resvg/engine")).createResvgEngine({
        loadWasm: once(() => compile(at(BROWSER_ASSETS.resvg))),
        fonts,
        encoder: imagemagick,
      }),
    ),
    exiftool: lazyEngine(ENGINE_METHODS.exiftool, async () =>
      (await import("../../engines/exiftool/engine")).createExifToolEngine({
        loadWasm: once(() => compile(at(BROWSER_ASSETS.zeroperl))),
        loadPerlFiles: once(
          async () => (await fetch(at(BROWSER_ASSETS.exiftoolPerl))).json() as Promise<Record<string, string>>,
        ),
      }),
    ),
    "7z": lazyEngine(ENGINE_METHODS["7z"], async () =>
      (await import("../../engines/sevenzip/engine")).createSevenZipEngine({
        loadWasm: once(() => compile(at(BROWSER_ASSETS.sevenzip))),
      }),
    ),
    ffmpeg: lazyEngine(ENGINE_METHODS.ffmpeg, async () =>
      (await import("../../engines/ffmpeg/engine")).createFfmpegEngine({
        loadWasm: once(() => compileParts(partsOf(at, BROWSER_ASSETS.ffmpeg, FFMPEG_PARTS))),
        loadFonts: once(async () =>
          Object.fromEntries(
            await Promise.all(
              [...new Set(Object.values(FONT_FILES))].map(
                async (f) => [f, await bytesOf(at(BROWSER_ASSETS.fonts + f))] as const,
              ),
            ),
          ),
        ),
      }),
    ),
    tesseract: lazyEngine(ENGINE_METHODS.tesseract, async () =>
      (await import("../../engines/tesseract/engine")).createTesseractEngine({
        loadWasm: once(() => compile(at(BROWSER_ASSETS.tesseract))),
        loadLanguage: (lang) => bytesOf(at(`${BROWSER_ASSETS.languages}${lang}.traineddata.gz`)),
      }),
    ),
    // markup and documents (issue 47): pandoc.wasm, the largest asset, fetched on the first such task
    "pandoc-wasm": lazyEngine(ENGINE_METHODS["pandoc-wasm"], async () =>
      (await import("../../engines/pandoc/engine")).createPandocEngine({
        loadWasm: once(() => compileParts(partsOf(at, BROWSER_ASSETS.pandoc, PANDOC_PARTS))),
      }),
    ),
    // fonts and spreadsheets (issue 47): JavaScript only, each ~1 MB chunk fetched on its first task
    ...lazyScriptEngines(BROWSER_SCRIPT_BUDGETS),
  };
}
