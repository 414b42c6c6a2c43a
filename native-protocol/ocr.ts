/**
 * The request and answer of one OCR call (issue 17), as the Worker's ocr kind
 * (src/engines/kinds/ocr.ts) sends them and the native tesseract (container/engines/tesseract.ts)
 * answers them. Imports nothing.
 */

/** One recognised word; box in pixels of the image as given (origin top-left, x right, y down). */
export interface OcrWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** 0–100 */ confidence: number;
  /** index of its text line within the page, for grouping */ line: number;
}
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
  /**
   * Detect the orientation even when the image read as given looks good (pdf/ocr `auto_orient`, issue 31): an engine
   * that detects it only for weak readings (the WebAssembly one) then always asks. Default false.
   */
  orient?: boolean;
}
/** The words of one image; `rotation` = clockwise degrees (0/90/180/270) the text is turned on the image as given (the words' boxes stay in the given image's coordinates; text reads along the rotated baseline). */
export interface OcrPage {
  width: number;
  height: number;
  rotation: 0 | 90 | 180 | 270;
  words: OcrWord[];
  text: string;
}

/**
 * The clockwise turn of the text on the image, read from the words: within each line, the step from
 * one word's centre to the next points along the reading direction (right: 0°, down: 90°, left:
 * 180°, up: 270°). 0 when no line has two words.
 */
export function rotationOfWords(words: OcrWord[]): 0 | 90 | 180 | 270 {
  const votes = [0, 0, 0, 0];
  for (let i = 1; i < words.length; i++) {
    const a = words[i - 1];
    const b = words[i];
    if (a.line !== b.line) continue;
    const dx = (b.x0 + b.x1) / 2 - (a.x0 + a.x1) / 2;
    const dy = (b.y0 + b.y1) / 2 - (a.y0 + a.y1) / 2;
    if (Math.abs(dx) >= Math.abs(dy)) votes[dx >= 0 ? 0 : 2]++;
    else votes[dy >= 0 ? 1 : 3]++;
  }
  const best = votes.indexOf(Math.max(...votes));
  return votes[best] === 0 ? 0 : ([0, 90, 180, 270] as const)[best];
}
