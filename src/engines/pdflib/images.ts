/**
 * JPEG and PNG files as PDF pages, for merge (and image watermarks). The format is sniffed from the
 * bytes (extensions lie); a PNG is fully decoded by pdf-lib, so its pixel count is checked from the
 * IHDR chunk first (budget), while a JPEG is embedded as is (DCTDecode) without decoding.
 */
import type { PDFDocument, PDFImage } from "@cantoo/pdf-lib";
import { TaskError } from "../errors";
import { sniffImage } from "../sniff";

/**
 * The image formats convert → pdf takes (with the aliases jpeg and tif, as extensions come): JPEG and PNG
 * embedded here, the others split into PNG pages by the image engine first (operations/pdf/from-images.ts).
 */
export const IMAGE_PDF_INPUTS = ["png", "jpg", "jpeg", "tif", "tiff", "bmp", "gif", "webp"] as const;

/** Largest PNG (pixels) decoded in the isolate: 40 MP ≈ 160 MB of RGBA at the peak is already too much for smaller budgets. */
export const MAX_PNG_PIXELS = 40_000_000;
/** PDF user-space limit of a page side in points (ISO 32000-1 Annex C: 14 400). */
const MAX_PAGE_SIDE = 14_400;

/**
 * Embeds a JPEG or PNG into `doc`.
 * @throws TaskError OVER_BUDGET (PNG too large) | OPEN_FAILED (not decodable) | INVALID_CONVERSION_TYPE (not JPEG/PNG)
 */
export async function embedImage(doc: PDFDocument, bytes: Uint8Array, filename: string): Promise<PDFImage> {
  const kind = sniffImage(bytes);
  if (!kind) throw new TaskError("INVALID_CONVERSION_TYPE", `${filename} is not a JPEG or PNG image.`);
  if (kind === "png" && bytes.length >= 24) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const pixels = view.getUint32(16) * view.getUint32(20);
    if (pixels > MAX_PNG_PIXELS) {
      throw new TaskError(
        "OVER_BUDGET",
        `${filename} has ${(pixels / 1e6).toFixed(0)} megapixels; PNGs over ${MAX_PNG_PIXELS / 1e6} MP are not embedded here.`,
      );
    }
  }
  try {
    return kind === "jpg" ? await doc.embedJpg(bytes) : await doc.embedPng(bytes);
  } catch (err) {
    throw new TaskError(
      "OPEN_FAILED",
      `${filename} could not be read as ${kind.toUpperCase()}: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
}

/**
 * Appends one page showing `image` at `ppi` pixels per inch (default 72: 1 px = 1 pt), scaled down
 * to fit the PDF's 14 400 pt page limit when larger.
 */
export function addImagePage(doc: PDFDocument, image: PDFImage, ppi = 72): void {
  const scale = Math.min(72 / ppi, MAX_PAGE_SIDE / Math.max(image.width, image.height));
  const w = image.width * scale;
  const h = image.height * scale;
  doc.addPage([w, h]).drawImage(image, { x: 0, y: 0, width: w, height: h });
}
