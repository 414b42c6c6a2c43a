/**
 * The declared size of an image handed to OCR, read from its header without decoding a pixel
 * (issue 17: budgets before decoding), with the header readers of the image engine
 * (imagemagick/sniff.ts, sniff-more.ts: pure functions, they pull no ImageMagick code in).
 * Formats: those Leptonica in tesseract.js-core reads — PNG, JPEG, TIFF (the largest frame, so a
 * later frame cannot smuggle a bomb past the check), BMP, GIF, WebP.
 */
import { sniffBmp, sniffGif, sniffJpeg, sniffPng, sniffWebp } from "../imagemagick/sniff";
import { sniffTiff } from "../imagemagick/sniff-more";

/** Width and height a header declares, pixels, and its format; null when the bytes are none of those formats. */
export function ocrImageHeader(b: Uint8Array): { format: string; width: number; height: number } | null {
  const h = sniffPng(b) ?? sniffJpeg(b) ?? sniffTiff(b, 1024) ?? sniffBmp(b) ?? sniffGif(b, 1) ?? sniffWebp(b, 1);
  return h ? { format: h.format, width: h.width, height: h.height } : null;
}
