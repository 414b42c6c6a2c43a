/**
 * Node's loader of the WebAssembly SVG renderer (engines/resvg): the module's bytes from
 * `@resvg/resvg-wasm/index_bg.wasm`, the shipped faces from disk (nodeFontSource) and the
 * in-process ImageMagick as the encoder of outputs other than PNG.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ImageEngine } from "../../engines/kinds/image";
import { createResvgEngine, type ResvgLoader } from "../../engines/resvg/engine";
import { nodeFontSource, nodeImageMagickEngine, type NodeWasmOptions } from "./imagemagick";

const defaultRoot = () => fileURLToPath(new URL("../../..", import.meta.url));

/** The bytes of resvg's module (2.4 MB). */
export async function loadResvgWasm(opts: NodeWasmOptions = {}): Promise<Uint8Array> {
  const require = createRequire(join(opts.root ?? defaultRoot(), "package.json"));
  return new Uint8Array(await readFile(join(require.resolve("@resvg/resvg-wasm"), "..", "index_bg.wasm")));
}

/** The in-process SVG renderer for Node; `encoder` defaults to a new in-process ImageMagick. */
export function nodeResvgEngine(
  opts: NodeWasmOptions & Pick<ResvgLoader, "budget"> & { encoder?: ImageEngine<Uint8Array> } = {},
): ImageEngine<Uint8Array> {
  return createResvgEngine({
    loadWasm: () => loadResvgWasm(opts),
    fonts: nodeFontSource(opts),
    encoder: opts.encoder ?? nodeImageMagickEngine(opts),
    budget: opts.budget,
  });
}
