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
import { FONT_FILES } from "../../engines/imagemagick/fonts";
import type { ImageMagickEngine } from "../../engines/imagemagick/types";

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

/** Reads the shipped fonts (wasm/fonts/*.ttf) as name → bytes. */
export async function loadImageMagickFonts(opts: NodeWasmOptions = {}): Promise<Record<string, Uint8Array>> {
  const dir = join(opts.root ?? defaultRoot(), "wasm", "fonts");
  const entries = await Promise.all(
    Object.entries(FONT_FILES).map(async ([name, file]) => [name, new Uint8Array(await readFile(join(dir, file)))] as const),
  );
  return Object.fromEntries(entries);
}

/** The in-process ImageMagick engine for Node (tests, bench, the local runner). */
export function nodeImageMagickEngine(opts: NodeWasmOptions & Pick<ImageMagickLoader, "budget" | "recycleAboveBytes"> = {}): ImageMagickEngine {
  return createImageMagickEngine({
    loadWasm: () => loadImageMagickWasm(opts),
    loadFonts: () => loadImageMagickFonts(opts),
    budget: opts.budget,
    recycleAboveBytes: opts.recycleAboveBytes,
  });
}
