/**
 * Editing text members of a zip in place (issue 45's sandbox, container/office/links.ts): the members a caller picks
 * are inflated, edited and deflated again; every other member's compressed bytes are copied unchanged. The result
 * has fresh local headers (sizes and CRC from the central directory, no data descriptors), so it is a plain zip
 * whatever tool wrote the input. Zip64 archives and archives whose directory does not parse are left to the caller
 * (null): they are refused before LibreOffice opens them anyway (libreoffice.ts MAX_EXPANDED_BYTES).
 */
import { crc32, deflateRawSync, inflateRawSync } from "node:zlib";

interface Entry {
  name: string;
  /** The name's bytes as stored (written back unchanged). */
  rawName: Uint8Array;
  method: number;
  flags: number;
  time: number;
  date: number;
  crc: number;
  compressed: number;
  size: number;
  extra: Uint8Array;
  comment: Uint8Array;
  attrs: number;
  made: number;
  /** The compressed bytes. */
  data: Uint8Array;
}

/** Bytes as text one character a byte, and back (ISO-8859-1): edits of ASCII keep every other byte as it was. */
const asText = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("latin1");
const asBytes = (t: string) => new Uint8Array(Buffer.from(t, "latin1"));

/**
 * The offset of a zip's end-of-central-directory record (searched in the last 64 KiB + 22 bytes, where a comment may
 * push it: APPNOTE.TXT 4.3.16), or -1 when there is none. Shared by every reader of zip directories here.
 */
export function endOfCentralDirectory(zip: Uint8Array): number {
  const v = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  for (let i = zip.byteLength - 22; i >= Math.max(0, zip.byteLength - 65_557); i--)
    if (v.getUint32(i, true) === 0x06054b50) return i;
  return -1;
}

/** The zip's members from its central directory, or null (not a zip, zip64, or a directory that does not parse). */
function entries(zip: Uint8Array): Entry[] | null {
  const v = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const eocd = endOfCentralDirectory(zip);
  if (eocd < 0) return null;
  const count = v.getUint16(eocd + 10, true);
  let at = v.getUint32(eocd + 16, true);
  const out: Entry[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > zip.byteLength || v.getUint32(at, true) !== 0x02014b50) return null;
    const [nameLen, extraLen, commentLen] = [
      v.getUint16(at + 28, true),
      v.getUint16(at + 30, true),
      v.getUint16(at + 32, true),
    ];
    const compressed = v.getUint32(at + 20, true);
    const size = v.getUint32(at + 24, true);
    const local = v.getUint32(at + 42, true);
    if (compressed === 0xffffffff || size === 0xffffffff || local === 0xffffffff) return null;
    if (local + 30 > zip.byteLength || v.getUint32(local, true) !== 0x04034b50) return null;
    const dataAt = local + 30 + v.getUint16(local + 26, true) + v.getUint16(local + 28, true);
    if (dataAt + compressed > zip.byteLength) return null;
    out.push({
      name: new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLen)),
      rawName: zip.subarray(at + 46, at + 46 + nameLen),
      made: v.getUint16(at + 4, true),
      flags: v.getUint16(at + 8, true),
      method: v.getUint16(at + 10, true),
      time: v.getUint16(at + 12, true),
      date: v.getUint16(at + 14, true),
      crc: v.getUint32(at + 16, true),
      compressed,
      size,
      attrs: v.getUint32(at + 38, true),
      extra: zip.subarray(at + 46 + nameLen, at + 46 + nameLen + extraLen),
      comment: zip.subarray(at + 46 + nameLen + extraLen, at + 46 + nameLen + extraLen + commentLen),
      data: zip.subarray(dataAt, dataAt + compressed),
    });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/**
 * `zip` with each member `pick` accepts (stored or deflated, not encrypted) passed through `edit` as text, one
 * character a byte (ISO-8859-1, so UTF-8 and every other byte survive an edit of ASCII); null
 * when nothing changed or the zip cannot be edited (see the file's comment). Members larger than `maxMemberBytes`
 * uncompressed are not edited.
 */
export function editZipText(
  zip: Uint8Array,
  pick: (name: string) => boolean,
  edit: (name: string, text: string) => string,
  maxMemberBytes = 256 * 1024 * 1024,
): Uint8Array | null {
  const all = entries(zip);
  if (!all) return null;
  let changed = false;
  for (const e of all) {
    if (!pick(e.name) || e.flags & 1 || (e.method !== 0 && e.method !== 8) || e.size > maxMemberBytes) continue;
    let raw: Uint8Array;
    try {
      raw = e.method === 8 ? inflateRawSync(e.data, { maxOutputLength: e.size + 1 }) : e.data;
    } catch {
      continue; // a damaged member: LibreOffice refuses the document itself
    }
    const text = asText(raw);
    const next = edit(e.name, text);
    if (next === text) continue;
    const bytes = asBytes(next);
    const data = e.method === 8 ? new Uint8Array(deflateRawSync(bytes)) : bytes;
    Object.assign(e, { data, size: bytes.byteLength, compressed: data.byteLength, crc: crc32(bytes) >>> 0 });
    changed = true;
  }
  return changed ? write(all) : null;
}

/** A zip of `all`, in order, with local headers from the entries' fields (no data descriptors). */
function write(all: Entry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of all) {
    const name = e.rawName;
    const flags = e.flags & ~0x0008; // sizes are in the local header now
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(6, flags, true);
    local.setUint16(8, e.method, true);
    local.setUint16(10, e.time, true);
    local.setUint16(12, e.date, true);
    local.setUint32(14, e.crc, true);
    local.setUint32(18, e.compressed, true);
    local.setUint32(22, e.size, true);
    local.setUint16(26, name.byteLength, true);
    const c = new DataView(new ArrayBuffer(46));
    c.setUint32(0, 0x02014b50, true);
    c.setUint16(4, e.made, true);
    c.setUint16(6, 20, true);
    c.setUint16(8, flags, true);
    c.setUint16(10, e.method, true);
    c.setUint16(12, e.time, true);
    c.setUint16(14, e.date, true);
    c.setUint32(16, e.crc, true);
    c.setUint32(20, e.compressed, true);
    c.setUint32(24, e.size, true);
    c.setUint16(28, name.byteLength, true);
    c.setUint16(30, e.extra.byteLength, true);
    c.setUint16(32, e.comment.byteLength, true);
    c.setUint32(38, e.attrs, true);
    c.setUint32(42, offset, true);
    parts.push(new Uint8Array(local.buffer), name, e.data);
    central.push(new Uint8Array(c.buffer), name, e.extra, e.comment);
    offset += 30 + name.byteLength + e.data.byteLength;
  }
  const size = central.reduce((n, p) => n + p.byteLength, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, all.length, true);
  end.setUint16(10, all.length, true);
  end.setUint32(12, size, true);
  end.setUint32(16, offset, true);
  const out = new Uint8Array(offset + size + 22);
  let at = 0;
  for (const p of [...parts, ...central, new Uint8Array(end.buffer)]) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
