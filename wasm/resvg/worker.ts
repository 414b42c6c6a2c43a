/**
 * The SVG renderer's engine Worker (issue 33): resvg (`@resvg/resvg-wasm`, 2.4 MB) in its own bundle
 * and 128 MB isolate, reached from the api Worker by the service binding RESVG (engine table row
 * "resvg", kind image). Its faces come from the fonts Worker (FONTS), and outputs other than PNG are
 * re-encoded by the ImageMagick engine Worker (IMAGEMAGICK). The entry is the shared one (../entry.ts).
 */
import { env } from "cloudflare:workers";
import resvgWasm from "@resvg/resvg-wasm/index_bg.wasm";
import type { ImageEngine } from "../../src/engines/kinds/image";
import type { EngineRpc } from "../../src/engines/remote";
import { remoteEngine } from "../../src/engines/remote";
import { createResvgEngine } from "../../src/engines/resvg/engine";
import { RESVG_ENGINE } from "../../src/engines/resvg/version";
import { serviceFontSource } from "../../src/engines/text/service";
import { engineWorker } from "../entry";

const bindings = env as { FONTS?: object; IMAGEMAGICK?: EngineRpc };

// without FONTS an SVG with text answers UNSUPPORTED and goes on to ImageMagick; without IMAGEMAGICK only PNG is written
const engine = createResvgEngine({
  loadWasm: async () => resvgWasm,
  fonts: bindings.FONTS ? serviceFontSource(bindings.FONTS) : undefined,
  // the WebAssembly ImageMagick's engine Worker: its outputs are bytes (it never answers a stream)
  encoder: bindings.IMAGEMAGICK ? (remoteEngine("image", bindings.IMAGEMAGICK) as ImageEngine<Uint8Array>) : undefined,
});

/** Bind it with `[[services]] binding = "RESVG", service = "edge-convert-resvg"`. */
export default engineWorker("image", RESVG_ENGINE.name, engine);
