/**
 * The OCR engine Worker (issue 17): tesseract in WebAssembly (tesseract.js-core 7.0.0, 3.4 MB
 * module) with the best_int traineddata of eng and fra and osd for orientation (@tesseract.js-data,
 * 7.9 MB gzipped, imported as Data modules and inflated on first use), in its own 128 MB isolate,
 * reached from the api Worker by a service binding (engine table row "tesseract", kind ocr). The
 * entry is the shared one (../entry.ts); only the loader is here. One instance serves calls in
 * turn and is replaced when its memory passes the budget (src/engines/tesseract/types.ts).
 */
import engData from "@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz";
import fraData from "@tesseract.js-data/fra/4.0.0_best_int/fra.traineddata.gz";
import osdData from "@tesseract.js-data/osd/4.0.0_best_int/osd.traineddata.gz";
import tesseractWasm from "tesseract.js-core/tesseract-core-simd.wasm";
import { createTesseractEngine } from "../../src/engines/tesseract/engine";
import { TESSERACT_ENGINE } from "../../src/engines/tesseract/version";
import { engineWorker } from "../entry";

/** The gzipped traineddata shipped in this bundle, by language code. */
const TRAINEDDATA: Record<string, ArrayBuffer> = { eng: engData, fra: fraData, osd: osdData };

const engine = createTesseractEngine({
  loadWasm: async () => tesseractWasm,
  async loadLanguage(lang) {
    const data = TRAINEDDATA[lang];
    if (!data) throw new Error(`no traineddata for ${lang} in this bundle`);
    return data;
  },
});

/** Bind it with `[[services]] binding = "TESSERACT", service = "edge-convert-tesseract"`. */
export default engineWorker("ocr", TESSERACT_ENGINE.name, engine);
