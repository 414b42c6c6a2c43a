/**
 * The ffmpeg engine Worker (issue 13): its own bundle (@ffmpeg/core's 32 MB module + the DejaVu
 * fonts for text watermarks) and its own 128 MB isolate, reached from the api Worker by a service
 * binding (engine table row "ffmpeg", kind media). @ffmpeg/core is GPL-2.0-or-later (x264), which
 * is one reason it is a Worker of its own (THIRD_PARTY_NOTICES.md). The entry is the shared one
 * (../entry.ts); only the loader is here. A fresh core is made from the module per call.
 */
import ffmpegWasm from "@ffmpeg/core/wasm";
import dejaVuSans from "../fonts/DejaVuSans.ttf";
import dejaVuSansBold from "../fonts/DejaVuSans-Bold.ttf";
import dejaVuSerif from "../fonts/DejaVuSerif.ttf";
import dejaVuSansMono from "../fonts/DejaVuSansMono.ttf";
import { createFfmpegEngine } from "../../src/engines/ffmpeg/engine";
import { FFMPEG_ENGINE } from "../../src/engines/ffmpeg/version";
import { engineWorker } from "../entry";

const engine = createFfmpegEngine({
  loadWasm: async () => ffmpegWasm,
  loadFonts: async () => ({
    "DejaVuSans.ttf": new Uint8Array(dejaVuSans),
    "DejaVuSans-Bold.ttf": new Uint8Array(dejaVuSansBold),
    "DejaVuSerif.ttf": new Uint8Array(dejaVuSerif),
    "DejaVuSansMono.ttf": new Uint8Array(dejaVuSansMono),
  }),
});

/** Bind it with `[[services]] binding = "FFMPEG", service = "edge-convert-ffmpeg"`. */
export default engineWorker("media", FFMPEG_ENGINE.name, engine);
