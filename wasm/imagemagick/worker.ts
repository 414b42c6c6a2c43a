/**
 * The ImageMagick engine Worker: its own bundle (magick.wasm 14.8 MB + the watermark fonts, see
 * ./fonts.ts) and its own 128 MB isolate, reached from the api Worker by a service binding (engine
 * table row "imagemagick", kind image). The entry is the shared one (../entry.ts) plus one RPC
 * method, `font`, through which the api Worker gets the watermark faces for PDF text. Only the
 * loader is here: the module wrangler precompiled at deploy (workerd cannot compile WASM from
 * bytes at run time) and the fonts. ImageMagick is initialised lazily on the first call.
 */
import magickWasm from "@imagemagick/magick-wasm/magick.wasm";
import { createImageMagickEngine } from "../../src/engines/imagemagick/engine";
import { IMAGEMAGICK_ENGINE } from "../../src/engines/imagemagick/version";
import { engineWorker } from "../entry";
import { isFontFile, workerFonts } from "./fonts";

const engine = createImageMagickEngine({
  loadWasm: async () => magickWasm,
  fonts: workerFonts,
});

const EngineWorker = engineWorker("image", IMAGEMAGICK_ENGINE.name, engine);

/** Bind it with `[[services]] binding = "IMAGEMAGICK", service = "edge-convert-imagemagick"`. */
export default class ImageMagickWorker extends EngineWorker {
  /**
   * The bytes of a shipped watermark font file (engines/text/faces.ts `FontFile`, e.g.
   * "NotoSansJP-Regular.otf"), for the api Worker's PDF watermark (runtime/workerd/engines.ts).
   * @throws Error for a name that is not a shipped font file
   */
  async font(file: string): Promise<Uint8Array> {
    if (!isFontFile(file)) throw new Error(`${file} is not a shipped font file.`);
    return workerFonts(file);
  }
}
