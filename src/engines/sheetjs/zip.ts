/**
 * A zip container (xlsx, xlsm, ods, numbers) inflated under a byte cap before SheetJS sees it (issue 47's "zip
 * bomb"). SheetJS inflates every entry itself, trusting the declared sizes: with a size of 0 its buffer grows
 * without bound, and with a size that lies it copies every inflated byte anyway. So the container is read here:
 * the central directory (APPNOTE.TXT 4.3.12, 4.3.16), each entry's local header (4.3.7), each entry inflated by
 * fflate in small steps and stopped as soon as it passes its declared size or the budget's total, and the result
 * written back as a zip of stored entries (method 0), which SheetJS copies without inflating.
 */
import { Inflate } from "fflate";
import { TaskError } from "../errors";

/** One entry of the container, inflated: its name (the zip's bytes, read as Latin-1 as SheetJS reads them) and bytes. */
export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

const CD_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIGNATURE = 0x06054b50;
/** Compressed bytes handed to the inflater per step: an entry stops within ~1,032 × this of its cap. */
const STEP = 4096;
/** Most entries a container may have (a spreadsheet has tens; a million tiny entries is a bomb of its own). */
const MAX_ENTRIES = 10_000;

const u16 = (b: Uint8Array, o: number) => b[o]! | (b[o + 1]! << 8);
const u32 = (b: Uint8Array, o: number) => (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0;
const latin1 = (b: Uint8Array) => String.fromCharCode(...b);

/** True when `data` starts as a zip file does (a local header: PK\3\4). */
export function isZip(data: Uint8Array): boolean {
  return data.length >= 4 && u32(data, 0) === LOCAL_SIGNATURE;
}

/**
 * Every entry of the zip `data`, inflated, in central-directory order.
 * @param maxInflated the most bytes all entries may inflate to (declared or actual)
 * @throws TaskError OVER_BUDGET (more than `maxInflated`, or too many entries); UNSUPPORTED (zip64, encryption, a
 *   method other than store and deflate: LibreOffice may still read it); OPEN_FAILED (no central directory, an entry
 *   outside the file, a deflate stream that is broken or inflates past its declared size)
 */
export function inflateZip(data: Uint8Array, maxInflated: number): ZipEntry[] {
  let eocd = -1;
  for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 65535); i--)
    if (u32(data, i) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  if (eocd < 0) throw new TaskError("OPEN_FAILED", "The file is not a complete zip container (no central directory).");
  const count = u16(data, eocd + 10);
  let at = u32(data, eocd + 16);
  if (count === 0xffff || at === 0xffffffff) throw new TaskError("UNSUPPORTED", "ZIP64 containers are not read here.");
  if (count > MAX_ENTRIES)
    throw new TaskError("OVER_BUDGET", `The container has ${count} entries (at most ${MAX_ENTRIES}).`);
  const entries: { name: string; flags: number; method: number; csz: number; usz: number; offset: number }[] = [];
  let declared = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > data.length || u32(data, at) !== CD_SIGNATURE)
      throw new TaskError("OPEN_FAILED", "The zip container's central directory is broken.");
    const nameLen = u16(data, at + 28);
    const entry = {
      flags: u16(data, at + 8),
      method: u16(data, at + 10),
      csz: u32(data, at + 20),
      usz: u32(data, at + 24),
      offset: u32(data, at + 42),
      name: latin1(data.subarray(at + 46, at + 46 + nameLen)),
    };
    at += 46 + nameLen + u16(data, at + 30) + u16(data, at + 32);
    if (entry.csz === 0xffffffff || entry.usz === 0xffffffff || entry.offset === 0xffffffff)
      throw new TaskError("UNSUPPORTED", "ZIP64 containers are not read here.");
    if (entry.flags & 0x41) throw new TaskError("UNSUPPORTED", `${entry.name} is encrypted inside the container.`);
    if (entry.method !== 0 && entry.method !== 8)
      throw new TaskError("UNSUPPORTED", `${entry.name} uses zip compression method ${entry.method}.`);
    declared += entry.usz;
    if (declared > maxInflated)
      throw new TaskError(
        "OVER_BUDGET",
        `The container's entries inflate to more than ${maxInflated} bytes (the engine's budget).`,
      );
    entries.push(entry);
  }
  return entries.map((e) => ({ name: e.name, data: inflateEntry(data, e) }));
}

/** One entry's bytes, inflated to exactly its declared size `usz`. */
function inflateEntry(
  data: Uint8Array,
  e: { name: string; method: number; csz: number; usz: number; offset: number },
): Uint8Array {
  if (e.offset + 30 > data.length || u32(data, e.offset) !== LOCAL_SIGNATURE)
    throw new TaskError("OPEN_FAILED", `${e.name}: its local header is not where the directory says.`);
  const start = e.offset + 30 + u16(data, e.offset + 26) + u16(data, e.offset + 28);
  if (start + e.csz > data.length) throw new TaskError("OPEN_FAILED", `${e.name} runs past the end of the file.`);
  const packed = data.subarray(start, start + e.csz);
  if (e.method === 0) {
    if (e.csz !== e.usz) throw new TaskError("OPEN_FAILED", `${e.name}: a stored entry whose sizes differ.`);
    return packed;
  }
  const out = new Uint8Array(e.usz);
  let written = 0;
  let ended = false;
  const inflater = new Inflate((chunk, final) => {
    if (written + chunk.length > e.usz)
      throw new TaskError("OPEN_FAILED", `${e.name} inflates past its declared ${e.usz} bytes.`);
    out.set(chunk, written);
    written += chunk.length;
    if (final) ended = true;
  });
  try {
    for (let i = 0; i < packed.length && !ended; i += STEP)
      inflater.push(packed.subarray(i, i + STEP), i + STEP >= packed.length);
  } catch (err) {
    if (err instanceof TaskError) throw err;
    throw new TaskError("OPEN_FAILED", `${e.name}: broken deflate data (${(err as Error).message}).`);
  }
  if (written !== e.usz)
    throw new TaskError("OPEN_FAILED", `${e.name} inflates to ${written} bytes, not its declared ${e.usz}.`);
  return out;
}

/** A zip of `entries` stored (method 0, CRC left 0: SheetJS does not check it), in order. */
export function storedZip(entries: readonly ZipEntry[]): Uint8Array {
  const names = entries.map((e) => Uint8Array.from(e.name, (c) => c.charCodeAt(0) & 0xff));
  const size = entries.reduce((n, e, i) => n + 30 + names[i]!.length + e.data.length + 46 + names[i]!.length, 0) + 22;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  const offsets: number[] = [];
  let at = 0;
  entries.forEach((e, i) => {
    offsets.push(at);
    view.setUint32(at, LOCAL_SIGNATURE, true);
    view.setUint16(at + 4, 20, true);
    view.setUint32(at + 18, e.data.length, true);
    view.setUint32(at + 22, e.data.length, true);
    view.setUint16(at + 26, names[i]!.length, true);
    out.set(names[i]!, at + 30);
    out.set(e.data, at + 30 + names[i]!.length);
    at += 30 + names[i]!.length + e.data.length;
  });
  const cd = at;
  entries.forEach((e, i) => {
    view.setUint32(at, CD_SIGNATURE, true);
    view.setUint16(at + 4, 20, true);
    view.setUint16(at + 6, 20, true);
    view.setUint32(at + 20, e.data.length, true);
    view.setUint32(at + 24, e.data.length, true);
    view.setUint16(at + 28, names[i]!.length, true);
    view.setUint32(at + 42, offsets[i]!, true);
    out.set(names[i]!, at + 46);
    at += 46 + names[i]!.length;
  });
  view.setUint32(at, EOCD_SIGNATURE, true);
  view.setUint16(at + 8, entries.length, true);
  view.setUint16(at + 10, entries.length, true);
  view.setUint32(at + 12, at - cd, true);
  view.setUint32(at + 16, cd, true);
  return out;
}
