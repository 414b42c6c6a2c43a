/**
 * A zip's unpacked size read from its central directory before any tool unpacks it (issue 33: a zip
 * bomb e-book ends OVER_BUDGET quickly). Python's zipfile, which calibre unpacks with, stops each member
 * at the size the central directory declares (a member that inflates further fails its CRC), so the
 * declared sizes bound what it writes. ZIP64 sizes (0xFFFFFFFF) count as over any limit.
 */
import { NativeError } from "./common.ts";
import { endOfCentralDirectory } from "../lib/zip-edit.ts";

/** Unpacked bytes and entries of a zip, or null when `data` has no end-of-central-directory record. */
export function zipExtent(data: Uint8Array): { bytes: number; entries: number } | null {
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const eocd = endOfCentralDirectory(data);
  if (eocd < 0) return null;
  const count = v.getUint16(eocd + 10, true);
  let at = v.getUint32(eocd + 16, true);
  let bytes = 0;
  let entries = 0;
  while (entries < 0xffff && at + 46 <= data.byteLength && v.getUint32(at, true) === 0x02014b50) {
    const size = v.getUint32(at + 24, true);
    bytes += size === 0xffffffff ? Number.MAX_SAFE_INTEGER / 2 : size;
    entries++;
    at += 46 + v.getUint16(at + 28, true) + v.getUint16(at + 30, true) + v.getUint16(at + 32, true);
  }
  return { bytes, entries: Math.max(entries, count) };
}

/**
 * Throws OVER_BUDGET when the zip `data` (named `filename`) unpacks to more than `maxBytes` or holds more
 * than `maxEntries` members; anything that is no zip passes (the tool judges it).
 */
export function checkZipBudget(data: Uint8Array, filename: string, maxBytes: number, maxEntries: number): void {
  const z = zipExtent(data);
  if (!z) return;
  const mib = (n: number) => (n / 1024 / 1024).toFixed(0);
  if (z.bytes > maxBytes)
    throw new NativeError(
      "OVER_BUDGET",
      `${filename} unpacks to ${z.bytes >= Number.MAX_SAFE_INTEGER / 4 ? "over 4 GiB" : `${mib(z.bytes)} MiB`}; the e-book engine unpacks at most ${mib(maxBytes)} MiB.`,
    );
  if (z.entries > maxEntries)
    throw new NativeError(
      "OVER_BUDGET",
      `${filename} holds ${z.entries} files; the e-book engine takes at most ${maxEntries}.`,
    );
}
