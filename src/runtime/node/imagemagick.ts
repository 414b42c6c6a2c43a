/**
 * Node's way of obtaining engine WASM modules and assets (the per-platform seam of DESIGN.md
 * "runtime/"): read the file, compile it. workerd cannot compile bytes at run time and imports
 * the .wasm as a module instead (wasm/imagemagick/worker.ts); the engine code is the same.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createImageMagickEngine, type ImageMagickLoader } from "../../engines/imagemagick/engine";
import type { ImageEngine } from "../../engines/kinds/image";
import { FONT_LOCATIONS, type FontFile, type FontSource } from "../../engines/text/faces";

/** Where paths are resolved from: the repository root (holds node_modules/ and wasm/). */
export interface NodeWasmOptions {
  /** Repository root; defaults to three levels above this file (src/runtime/node → root). */
  root?: string;
}

const defaultRoot = () => fileURLToPath(new URL("../../..", import.meta.url));

/** Compiles magick-wasm's 32-bit build (`@imagemagick/magick-wasm/magick.wasm`, 14.8 MB). */
export async function loadImageMagickWasm(opts: NodeWasmOptions = {}): Promise<WebAssembly.Module> {
  const require = createRequire(join(opts.root ?? defaultRoot(), "package.json"));
  const path = require.resolve("@imagemagick/magick-wasm/magick.wasm");
  return WebAssembly.compile(await readFile(path));
}

const fontSources = new Map<string, FontSource>();

/**
 * The watermark fonts (engines/text/faces.ts) read from disk on demand at their FONT_LOCATIONS
 * (DejaVu in wasm/fonts/, the Noto faces in their npm packages under node_modules/). One source per
 * root, so the parsed-face cache (engines/text/fonts.ts) is shared by every engine of the process.
 */
export function nodeFontSource(opts: NodeWasmOptions = {}): FontSource {
  const root = opts.root ?? defaultRoot();
  let source = fontSources.get(root);
  if (!source) {
    const pathOf = (file: FontFile) => join(root, FONT_LOCATIONS[file]);
    source = async (file) => new Uint8Array(await readFile(pathOf(file)));
    fontSources.set(root, source);
  }
  return source;
}

/** The in-process ImageMagick engine for Node (tests, bench, the local runner). */
export function nodeImageMagickEngine(
  opts: NodeWasmOptions & Pick<ImageMagickLoader, "budget" | "recycleAboveBytes"> = {},
): ImageEngine<Uint8Array> {
  return createImageMagickEngine({
    loadWasm: () => loadImageMagickWasm(opts),
    fonts: nodeFontSource(opts),
    budget: opts.budget,
    recycleAboveBytes: opts.recycleAboveBytes,
  });
}
