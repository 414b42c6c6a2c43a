/**
 * A generated multi-page TIFF "scan" for the large-image tests (issue 49): baseline TIFF 6.0, little-endian,
 * uncompressed 8-bit RGB (PhotometricInterpretation 2, PlanarConfiguration 1), one strip per 64 rows, XResolution and
 * YResolution at `dpi` pixels per inch (ResolutionUnit 2), every page the same size. The pixels are noise (a scan's
 * grain, which no compression shrinks) from a seeded xorshift, so a page's SHA-256 is known without keeping it.
 * Written in strips to a file: never more than one strip in memory.
 */
import { createHash } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";

/** The scan to write: pages of width × height pixels at dpi. */
export interface ScanSpec {
  pages: number;
  width: number;
  height: number;
  dpi: number;
}

/** What was written: the file's size in bytes and each page's pixel SHA-256 (hex, RGB rows top to bottom). */
export interface ScanWritten {
  bytes: number;
  pageSha256: string[];
}

const ROWS_PER_STRIP = 64;

/** Fills `buf` with noise from the xorshift32 state `s`; returns the next state. */
function noise(buf: Buffer, s: number): number {
  for (let i = 0; i + 4 <= buf.length; i += 4) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    buf.writeUInt32LE(s >>> 0, i);
  }
  return s;
}

/**
 * Writes the scan `spec` to `path` (pixels of page n, then its IFD; the header points at the first IFD).
 * @throws Error when the file would pass 4 GiB (classic TIFF's 32-bit offsets)
 */
export function writeScanTiff(path: string, spec: ScanSpec): ScanWritten {
  const { pages, width, height, dpi } = spec;
  const rowBytes = width * 3;
  const strips = Math.ceil(height / ROWS_PER_STRIP);
  const fd = openSync(path, "w");
  let at = 0;
  const write = (b: Buffer) => {
    writeSync(fd, b, 0, b.length, at);
    at += b.length;
  };
  try {
    const header = Buffer.alloc(8);
    header.write("II", 0, "latin1");
    header.writeUInt16LE(42, 2);
    write(header); // the first IFD's offset is patched in below
    let ifdPointerAt = 4;
    let state = 0x9e3779b9;
    const pageSha256: string[] = [];
    const strip = Buffer.alloc(rowBytes * ROWS_PER_STRIP);
    for (let page = 0; page < pages; page++) {
      const hash = createHash("sha256");
      const offsets: number[] = [];
      const counts: number[] = [];
      for (let s = 0; s < strips; s++) {
        const rows = Math.min(ROWS_PER_STRIP, height - s * ROWS_PER_STRIP);
        const part = strip.subarray(0, rows * rowBytes);
        state = noise(part, state);
        hash.update(part);
        offsets.push(at);
        counts.push(part.length);
        write(part);
      }
      pageSha256.push(hash.digest("hex"));
      if (at % 2) write(Buffer.alloc(1)); // an IFD starts on a word boundary
      // the IFD's out-of-line values after its entries: BitsPerSample, the two resolutions, the strip tables
      const entries: [tag: number, type: number, count: number, value: number | Buffer][] = [];
      const u32s = (v: number[]) => {
        const b = Buffer.alloc(v.length * 4);
        v.forEach((x, i) => b.writeUInt32LE(x, i * 4));
        return b;
      };
      const rational = (n: number) => u32s([n, 1]);
      entries.push(
        [256, 4, 1, width], // ImageWidth
        [257, 4, 1, height], // ImageLength
        [258, 3, 3, Buffer.from([8, 0, 8, 0, 8, 0])], // BitsPerSample
        [259, 3, 1, 1], // Compression: none
        [262, 3, 1, 2], // PhotometricInterpretation: RGB
        [273, 4, strips, u32s(offsets)], // StripOffsets
        [277, 3, 1, 3], // SamplesPerPixel
        [278, 4, 1, ROWS_PER_STRIP], // RowsPerStrip
        [279, 4, strips, u32s(counts)], // StripByteCounts
        [282, 5, 1, rational(dpi)], // XResolution
        [283, 5, 1, rational(dpi)], // YResolution
        [284, 3, 1, 1], // PlanarConfiguration: chunky
        [296, 3, 1, 2], // ResolutionUnit: inch
      );
      const ifdAt = at;
      const ifdSize = 2 + entries.length * 12 + 4;
      let extraAt = ifdAt + ifdSize;
      const ifd = Buffer.alloc(ifdSize);
      const extras: Buffer[] = [];
      ifd.writeUInt16LE(entries.length, 0);
      entries.forEach(([tag, type, count, value], i) => {
        const e = 2 + i * 12;
        ifd.writeUInt16LE(tag, e);
        ifd.writeUInt16LE(type, e + 2);
        ifd.writeUInt32LE(count, e + 4);
        if (typeof value === "number") {
          if (type === 3) ifd.writeUInt16LE(value, e + 8);
          else ifd.writeUInt32LE(value, e + 8);
        } else if (value.length <= 4) value.copy(ifd, e + 8);
        else {
          ifd.writeUInt32LE(extraAt, e + 8);
          extras.push(value);
          extraAt += value.length;
        }
      });
      // the next IFD's offset (0 on the last page) is patched when the next page's IFD is written
      write(ifd);
      for (const x of extras) write(x);
      const pointer = Buffer.alloc(4);
      pointer.writeUInt32LE(ifdAt, 0);
      writeSync(fd, pointer, 0, 4, ifdPointerAt);
      ifdPointerAt = ifdAt + ifdSize - 4;
      if (at > 0xffffffff) throw new Error("A classic TIFF cannot pass 4 GiB.");
    }
    return { bytes: at, pageSha256 };
  } finally {
    closeSync(fd);
  }
}
