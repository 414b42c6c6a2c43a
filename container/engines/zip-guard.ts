/**
 * A zip's unpacked size read from its central directory before any tool unpacks it (issue 33: a zip
 * bomb e-book ends OVER_BUDGET quickly). Python's zipfile, which calibre unpacks with, stops each member
 * at the size the central directory declares (a member that inflates further fails its CRC), so the
 * declared sizes bound what it writes. ZIP64 sizes (0xFFFFFFFF) count as over any limit.
 */
import { LocalFile } from "../../native-protocol/frame.ts";
import { NativeError } from "./common.ts";
import { endOfCentralDirectory, withFileSource } from "../lib/zip-edit.ts";

/** Unpacked bytes and entries of a zip, or null when `data` has no end-of-central-directory record. */
export function zipExtent(data: Uint8Array): { bytes: number; entries: number } | null {
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const eocd = endOfCentralDirectory(data);
  if (eocd < 0) return null;
  return directoryExtent(data, v.getUint32(eocd + 16, true), v.getUint16(eocd + 10, true));
}

/** The most of a zip's central directory read from a file, bytes (20,000 members of names up to 3 KiB). */
const MAX_DIRECTORY_BYTES = 64 * 1024 * 1024;

/**
 * {@link zipExtent} of the zip at `path` (named `filename` in messages; issue 49: a streamed book, a file in the call's folder), read by positional
 * reads: its last 64 KiB + 22 bytes, then the central directory alone.
 * @throws NativeError OVER_BUDGET for a directory over 64 MiB
 */
export async function zipExtentOfFile(
  path: string,
  filename: string,
): Promise<{ bytes: number; entries: number } | null> {
  return withFileSource(path, async (src) => {
    const tailAt = Math.max(0, src.size - 65_557);
    const tail = await src.read(tailAt, src.size - tailAt);
    const eocd = endOfCentralDirectory(tail);
    if (eocd < 0) return null;
    const v = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
    const size = v.getUint32(eocd + 12, true);
    if (size > MAX_DIRECTORY_BYTES)
      throw new NativeError(
        "OVER_BUDGET",
        `The zip directory of ${filename} is ${(size / 2 ** 20).toFixed(0)} MiB; the e-book engine reads at most ${MAX_DIRECTORY_BYTES / 2 ** 20} MiB of it.`,
      );
    const dir = await src.read(v.getUint32(eocd + 16, true), size);
    return directoryExtent(dir, 0, v.getUint16(eocd + 10, true));
  });
}

/** Sums the central directory entries of `data` from offset `at`; `count`: what the end record declares. */
function directoryExtent(data: Uint8Array, at: number, count: number): { bytes: number; entries: number } {
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
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
 * Throws OVER_BUDGET when the zip `data` (named `filename`; bytes, or a file of the call's folder read by positional
 * reads) unpacks to more than `maxBytes` or holds more than `maxEntries` members; anything that is no zip passes (the
 * tool judges it).
 */
export async function checkZipBudget(
  data: Uint8Array | LocalFile,
  filename: string,
  maxBytes: number,
  maxEntries: number,
): Promise<void> {
  const z = data instanceof LocalFile ? await zipExtentOfFile(data.path, filename) : zipExtent(data);
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
