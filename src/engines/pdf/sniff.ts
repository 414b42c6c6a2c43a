/**
 * Recognising a PDF by its bytes, without a PDF library (operations use it to route; the browser
 * build keeps pdf-lib out of its core by importing only this).
 */

/** True when the bytes start (within the first KiB, as readers tolerate) with a `%PDF-` header (ISO 32000-2 §7.5.2). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 1024) - 5;
  for (let i = 0; i <= end; i++) {
    // "%PDF-" = 25 50 44 46 2d
    if (bytes[i] === 0x25 && bytes[i + 1] === 0x50 && bytes[i + 2] === 0x44 && bytes[i + 3] === 0x46 && bytes[i + 4] === 0x2d) return true;
  }
  return false;
}
