/**
 * A stored zip writer (issue 46: shared helpers of the container's engines live in container/lib/): the ODF packages
 * the native engine writes itself (engines/odd.ts, an image as an OpenDocument Drawing; engines/vector-odd.ts, a
 * drawing as one) are zips whose `mimetype` member comes first and uncompressed, which this writes. Pure apart
 * from zlib's CRC-32.
 */
import { crc32 } from "node:zlib";

const enc = new TextEncoder();

/**
 * A zip of `entries` in order, every one stored (method 0): local headers, the central directory and its end
 * record (APPNOTE.TXT 4.3). Names are ASCII; sizes under 4 GiB (no zip64).
 */
export function storedZip(entries: { name: string; data: Uint8Array }[]): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name);
    const crc = crc32(e.data) >>> 0;
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true); // version needed: 2.0
    local.setUint32(14, crc, true);
    local.setUint32(18, e.data.byteLength, true);
    local.setUint32(22, e.data.byteLength, true);
    local.setUint16(26, name.byteLength, true);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, 20, true);
    central.setUint16(6, 20, true);
    central.setUint32(16, crc, true);
    central.setUint32(20, e.data.byteLength, true);
    central.setUint32(24, e.data.byteLength, true);
    central.setUint16(28, name.byteLength, true);
    central.setUint32(42, offset, true);
    locals.push(new Uint8Array(local.buffer), name, e.data);
    centrals.push(new Uint8Array(central.buffer), name);
    offset += 30 + name.byteLength + e.data.byteLength;
  }
  const size = centrals.reduce((n, c) => n + c.byteLength, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, size, true);
  end.setUint32(16, offset, true);
  const parts = [...locals, ...centrals, new Uint8Array(end.buffer)];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
