/**
 * JPEG and PNG files as PDF pages, for merge (and image watermarks). The format is sniffed from the
 * bytes (extensions lie); a PNG is fully decoded by pdf-lib, so its pixel count is checked from the
 * IHDR chunk first (budget), while a JPEG is embedded as is (DCTDecode) without decoding.
 */
import type { PDFDocument, PDFImage } from "@cantoo/pdf-lib";
import { TaskError } from "../errors";

/**
 * The image formats convert → pdf takes (with the aliases jpeg and tif, as extensions come): JPEG and PNG
 * embedded here, the others split into PNG pages by the image engine first (operations/pdf/from-images.ts).
 */
export const IMAGE_PDF_INPUTS = ["png", "jpg", "jpeg", "tif", "tiff", "bmp", "gif", "webp"] as const;

/** Largest PNG (pixels) decoded in the isolate: 40 MP ≈ 160 MB of RGBA at the peak is already too much for smaller budgets. */
export const MAX_PNG_PIXELS = 40_000_000;
/** PDF user-space limit of a page side in points (ISO 32000-1 Annex C: 14 400). */
const MAX_PAGE_SIDE = 14_400;

/** "jpg" | "png" from the magic bytes, or null. */
export function sniffImage(bytes: Uint8Array): "jpg" | "png" | null {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpg";
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return "png";
  return null;
}

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
      throw new TaskError("OVER_BUDGET", `${filename} has ${(pixels / 1e6).toFixed(0)} megapixels; PNGs over ${MAX_PNG_PIXELS / 1e6} MP are not embedded here.`);
    }
  }
  try {
    return kind === "jpg" ? await doc.embedJpg(bytes) : await doc.embedPng(bytes);
  } catch (err) {
    throw new TaskError("OPEN_FAILED", `${filename} could not be read as ${kind.toUpperCase()}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/**
 * The resolution a JPEG or PNG file records, in pixels per inch (horizontal): the JFIF APP0
 * density (units 1 = per inch, 2 = per cm; JFIF 1.02 §A.1) or the PNG pHYs chunk (unit 1 = per
 * metre; PNG spec §11.3.5.3). Undefined when the file records none or an implausible one (<10 or
 * >10 000). Reads the headers only.
 */
export function recordedPpi(bytes: Uint8Array): number | undefined {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const plausible = (ppi: number) => (ppi >= 10 && ppi <= 10_000 ? Math.round(ppi * 100) / 100 : undefined);
  const kind = sniffImage(bytes);
  if (kind === "jpg") {
    // APP0 "JFIF\0" right after SOI: version(2) units(1) Xdensity(2) Ydensity(2)
    if (bytes.length >= 18 && v.getUint16(2) === 0xffe0 && String.fromCharCode(...bytes.subarray(6, 10)) === "JFIF") {
      const units = bytes[13], x = v.getUint16(14);
      return units === 1 ? plausible(x) : units === 2 ? plausible(x * 2.54) : undefined;
    }
    return undefined;
  }
  if (kind === "png") {
    // chunks after the 8-byte signature: length(4) type(4) data crc(4); pHYs comes before IDAT
    for (let at = 8; at + 12 <= bytes.length; ) {
      const len = v.getUint32(at);
      const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
      if (type === "pHYs" && len >= 9) return bytes[at + 16] === 1 ? plausible(v.getUint32(at + 8) * 0.0254) : undefined;
      if (type === "IDAT" || type === "IEND") return undefined;
      at += 12 + len;
    }
  }
  return undefined;
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
