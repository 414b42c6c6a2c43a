/**
 * The ImageMagick engine Worker: its own bundle (magick.wasm 14.8 MB + 2.2 MB of fonts) and its
 * own 128 MB isolate, reached from the api Worker by a service binding (engine table row
 * "imagemagick", kind image). The entry is the shared one (../entry.ts); only the loader is here:
 * the module wrangler precompiled at deploy (workerd cannot compile WASM from bytes at run time)
 * and the shipped fonts. ImageMagick is initialised lazily on the first call.
 */
import magickWasm from "@imagemagick/magick-wasm/magick.wasm";
import dejaVuSans from "../fonts/DejaVuSans.ttf";
import dejaVuSansBold from "../fonts/DejaVuSans-Bold.ttf";
import dejaVuSerif from "../fonts/DejaVuSerif.ttf";
import dejaVuSansMono from "../fonts/DejaVuSansMono.ttf";
import { createImageMagickEngine } from "../../src/engines/imagemagick/engine";
import { IMAGEMAGICK_ENGINE } from "../../src/engines/imagemagick/version";
import { engineWorker } from "../entry";

const engine = createImageMagickEngine({
  loadWasm: async () => magickWasm,
  loadFonts: async () => ({
    "DejaVu Sans": new Uint8Array(dejaVuSans),
    "DejaVu Sans Bold": new Uint8Array(dejaVuSansBold),
    "DejaVu Serif": new Uint8Array(dejaVuSerif),
    "DejaVu Sans Mono": new Uint8Array(dejaVuSansMono),
  }),
});

/** Bind it with `[[services]] binding = "IMAGEMAGICK", service = "edge-convert-imagemagick"`. */
export default engineWorker("image", IMAGEMAGICK_ENGINE.name, engine);
