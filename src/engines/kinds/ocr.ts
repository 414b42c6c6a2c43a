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
import type { EngineResult } from "../errors";

/** One recognised word; box in pixels of the image as given (origin top-left, x right, y down). */
export interface OcrWord { text: string; x0: number; y0: number; x1: number; y1: number; /** 0–100 */ confidence: number; /** index of its text line within the page, for grouping */ line: number }
/** One OCR call. */
export interface OcrRequest {
  /** Image bytes (PNG, JPEG, TIFF first frame, BMP — what Leptonica reads). */
  image: Uint8Array;
  filename: string;
  /** Tesseract language codes, e.g. ["eng"] or ["eng","fra"] (joined with "+"). */
  languages: string[];
  /** Resolution of the image in pixels per inch (tesseract's user_defined_dpi), when known. */
  dpi?: number;
  /** Detect the page orientation (OSD, osd.traineddata) and recognise it upright (default true). */
  autoRotate?: boolean;
}
/** The words of one image; `rotation` = clockwise degrees (0/90/180/270) the text is turned on the image as given (the words' boxes stay in the given image's coordinates; text reads along the rotated baseline). */
export interface OcrPage { width: number; height: number; rotation: 0 | 90 | 180 | 270; words: OcrWord[]; text: string }
/** An OCR engine: one image per call. `ms` = milliseconds the engine spent; `wasmMemoryBytes` = the WebAssembly memory after the call (WASM engines). */
export interface OcrEngine {
  recognize(req: OcrRequest): Promise<EngineResult<OcrPage & { ms?: number; wasmMemoryBytes?: number }>>;
}
