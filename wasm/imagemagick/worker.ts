/**
 * The ImageMagick engine Worker: its own bundle (magick.wasm 14.8 MB) and its own 128 MB isolate,
 * reached from the api Worker by a service binding (engine table row "imagemagick", kind image).
 * The entry is the shared one (../entry.ts). Only the loader is here: the module wrangler
 * precompiled at deploy (workerd cannot compile WASM from bytes at run time) and the watermark
 * fonts, from the fonts Worker over its binding FONTS (wasm/fonts). ImageMagick is initialised
 * lazily on the first call.
 */
import { env } from "cloudflare:workers";
import magickWasm from "@imagemagick/magick-wasm/magick.wasm";
import { createImageMagickEngine } from "../../src/engines/imagemagick/engine";
import { IMAGEMAGICK_ENGINE } from "../../src/engines/imagemagick/version";
import type { FontSource } from "../../src/engines/text/faces";
import { serviceFontSource } from "../../src/engines/text/service";
import { engineWorker } from "../entry";

const bindings = env as { FONTS?: object };
// without the binding, text that needs a face ends UNSUPPORTED (engines/text/shape.ts)
const noFonts: FontSource = async (file) => {
  throw new Error(`no FONTS binding: ${file} cannot be had`);
};

const engine = createImageMagickEngine({
  loadWasm: async () => magickWasm,
  fonts: bindings.FONTS ? serviceFontSource(bindings.FONTS) : noFonts,
});

/** Bind it with `[[services]] binding = "IMAGEMAGICK", service = "edge-convert-imagemagick"`. */
export default engineWorker("image", IMAGEMAGICK_ENGINE.name, engine);
