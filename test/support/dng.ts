/**
 * A generated camera raw for the large-raw test (issue 49; the corpus's full-size raws were left out of its sources, so
 * it has none over 64 MiB): a DNG 1.4 (Adobe's raw format, a TIFF) of one uncompressed 16-bit CFA image, RGGB Bayer
 * pattern, an identity ColorMatrix1 under D65 and a neutral AsShotNeutral, so LibRaw demosaics it to grey levels equal
 * to the samples. The scene: the top half a left-to-right ramp from black to near white, the bottom half a flat grey
 * at 8000/65535. Written a row at a time.
 */
import { closeSync, openSync, writeSync } from "node:fs";

/** One IFD entry: tag, TIFF type, count and its value's bytes (≤ 4 in place, else stored after the IFD). */
type Entry = [tag: number, type: number, count: number, value: Buffer];

const u16 = (...ns: number[]) => Buffer.from(new Uint16Array(ns).buffer);
const u32 = (...ns: number[]) => Buffer.from(new Uint32Array(ns).buffer);
const ascii = (s: string) => Buffer.from(`${s}\0`, "latin1");

/** The sample at (x, y) of the scene (see the file comment), 16-bit. */
export const dngSample = (x: number, y: number, width: number, height: number): number =>
  y < height / 2 ? Math.floor((x * 60000) / width) : 8000;

/**
 * Writes the width × height DNG to `path` (little-endian; width and height even).
 * @returns its size in bytes
 */
export function writeRampDng(path: string, width: number, height: number): number {
  const model = ascii("Generated Ramp");
  const entries: Entry[] = [
    [254, 4, 1, u32(0)],
    [256, 4, 1, u32(width)],
    [257, 4, 1, u32(height)],
    [258, 3, 1, u16(16, 0)],
    [259, 3, 1, u16(1, 0)],
    [262, 3, 1, u16(32803, 0)], // CFA
    [271, 2, 5, ascii("Test")],
    [272, 2, model.length, model],
    [273, 4, 1, u32(0)], // StripOffsets: set below
    [274, 3, 1, u16(1, 0)],
    [277, 3, 1, u16(1, 0)],
    [278, 4, 1, u32(height)],
    [279, 4, 1, u32(width * height * 2)],
    [284, 3, 1, u16(1, 0)],
    [33421, 3, 2, u16(2, 2)], // CFARepeatPatternDim
    [33422, 1, 4, Buffer.from([0, 1, 1, 2])], // CFAPattern: R G / G B
    [50706, 1, 4, Buffer.from([1, 4, 0, 0])], // DNGVersion 1.4
    [50708, 2, model.length, model], // UniqueCameraModel
    [50717, 4, 1, u32(65535)], // WhiteLevel
    [50721, 10, 9, u32(1, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 1, 1)], // ColorMatrix1: identity
    [50728, 5, 3, u32(1, 1, 1, 1, 1, 1)], // AsShotNeutral
    [50778, 3, 1, u16(21, 0)], // CalibrationIlluminant1: D65
  ];
  const ifdAt = 8;
  let dataAt = ifdAt + 2 + entries.length * 12 + 4;
  const stored: Buffer[] = [];
  const ifd = [u16(entries.length)];
  const stripIndex = entries.findIndex(([tag]) => tag === 273);
  for (const [tag, type, count, value] of entries) {
    let field = value;
    if (value.length > 4) {
      field = u32(dataAt);
      const padded = value.length % 2 ? Buffer.concat([value, Buffer.alloc(1)]) : value;
      stored.push(padded);
      dataAt += padded.length;
    }
    ifd.push(u16(tag, type), u32(count), Buffer.concat([field, Buffer.alloc(4 - field.length)]));
  }
  ifd.push(u32(0));
  // the strip follows the stored values
  ifd[1 + stripIndex * 3 + 2] = u32(dataAt);
  const fd = openSync(path, "w");
  let at = 0;
  try {
    for (const b of [Buffer.from("II*\0", "latin1"), u32(ifdAt), ...ifd, ...stored]) at += writeSync(fd, b);
    const row = Buffer.alloc(width * 2);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) row.writeUInt16LE(dngSample(x, y, width, height), x * 2);
      at += writeSync(fd, row);
    }
  } finally {
    closeSync(fd);
  }
  return at;
}
