/**
 * Recognising files by their bytes, without a PDF or image library: a PDF header, a JPEG or PNG
 * signature, the resolution a JPEG or PNG records. Shared by engines (pdf-lib's merge) and
 * operations (routing, page sizes), so it belongs to no single engine; the browser build keeps
 * pdf-lib out of its core by importing only this.
 */
import { sniffTiff } from "./imagemagick/sniff-more";

/**
 * The pages of a TIFF (the IFDs of its chain, at most `cap`), or 1 when the bytes are not a TIFF (TIFF 6.0 §2: the
 * header, then each IFD's offset to the next). Image → PDF converts a scan one page at a time by it.
 */
export function tiffPages(bytes: Uint8Array, cap = 10_000): number {
  return Math.max(1, sniffTiff(bytes, cap)?.frames ?? 1);
}

/** True when the bytes start (within the first KiB, as readers tolerate) with a `%PDF-` header (ISO 32000-2 §7.5.2). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 1024) - 5;
  for (let i = 0; i <= end; i++) {
    // "%PDF-" = 25 50 44 46 2d
    if (
      bytes[i] === 0x25 &&
      bytes[i + 1] === 0x50 &&
      bytes[i + 2] === 0x44 &&
      bytes[i + 3] === 0x46 &&
      bytes[i + 4] === 0x2d
    )
      return true;
  }
  return false;
}

/** "jpg" | "png" from the magic bytes (JPEG SOI + marker, PNG signature), or null for anything else. */
export function sniffImage(bytes: Uint8Array): "jpg" | "png" | null {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpg";
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return "png";
  return null;
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
      const units = bytes[13],
        x = v.getUint16(14);
      return units === 1 ? plausible(x) : units === 2 ? plausible(x * 2.54) : undefined;
    }
    return undefined;
  }
  if (kind === "png") {
    // chunks after the 8-byte signature: length(4) type(4) data crc(4); pHYs comes before IDAT
    for (let at = 8; at + 12 <= bytes.length;) {
      const len = v.getUint32(at);
      const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
      if (type === "pHYs" && len >= 9)
        return bytes[at + 16] === 1 ? plausible(v.getUint32(at + 8) * 0.0254) : undefined;
      if (type === "IDAT" || type === "IEND") return undefined;
      at += 12 + len;
    }
  }
  return undefined;
}
