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
}
/** The words of one image; `rotation` = clockwise degrees (0/90/180/270) the text is turned on the image as given (the words' boxes stay in the given image's coordinates; text reads along the rotated baseline). */
export interface OcrPage {
  width: number;
  height: number;
  rotation: 0 | 90 | 180 | 270;
  words: OcrWord[];
  text: string;
}
