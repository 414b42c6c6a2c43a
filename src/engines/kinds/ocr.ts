/**
 * The ocr kind (kinds/index.ts): text recognised on one image, word by word, with boxes,
 * confidences and line grouping, for the pdf/ocr operation's invisible text layer and for
 * searchable PDFs made from images (issue 17). Engines: tesseract in WebAssembly (engine Worker
 * wasm/tesseract, row "tesseract": eng and fra) and Debian's tesseract in the native engine (row
 * "tesseract-native": every language installed there); which row takes which languages is
 * kinds/ocr-languages.ts.
 *
 * Failures are data (EngineResult) with the TaskError codes of errors.ts: OPEN_FAILED (the bytes are
 * not an image the engine reads), OVER_BUDGET (the image has more pixels than the engine takes; the
 * message names width×height and the limit), UNSUPPORTED (a language this engine lacks: routing
 * hands the request on), TIMEOUT and CANCELLED (native engine runs).
 */
import type { OcrPage, OcrRequest, OcrWord } from "../../../native-protocol/ocr";
import type { EngineResult } from "../errors";

/** The request and answer shapes, shared with the native engine (native-protocol/ocr.ts). */
export type { OcrPage, OcrRequest, OcrWord };
/** An OCR engine: one image per call. `ms` = milliseconds the engine spent; `wasmMemoryBytes` = the WebAssembly memory after the call (WASM engines). */
export interface OcrEngine {
  recognize(req: OcrRequest): Promise<EngineResult<OcrPage & { ms?: number; wasmMemoryBytes?: number }>>;
}
