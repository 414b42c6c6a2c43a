/**
 * Editing text members of a zip (issue 45's sandbox, container/office/links.ts) without holding the zip whole
 * (issue 49: a 200 MB docx of pictures): the central directory is read from the end of the zip by positional reads
 * (APPNOTE.TXT 4.3.16, 4.3.12), the members a caller picks (small XML: relationships, content.xml…) are read, inflated,
 * edited and deflated again, and every other member's compressed bytes are copied unchanged, a chunk at a time. The
 * result has fresh local headers (sizes and CRC from the central directory, no data descriptors), so it is a plain zip
 * whatever tool wrote the input. The same code reads a zip from bytes or from a file ({@link ZipSource}).
 *
 * Zip64 archives (a size, offset or count field at its 0xFFFF… marker) and directories that do not parse are
 * {@link ZipUnreadable}: the caller refuses them rather than open them with links it could not check.
 */
import { open } from "node:fs/promises";
import { crc32, deflateRawSync, inflateRawSync } from "node:zlib";

/** Where a zip is read from: its size, and `n` bytes from offset `at` (fewer only past its end). */
export interface ZipSource {
  size: number;
  read(at: number, n: number): Promise<Uint8Array>;
}

/** A zip whose central directory could not be read: not a zip, zip64 (`zip64`), truncated or inconsistent. */
export class ZipUnreadable extends Error {
  readonly zip64: boolean;
  constructor(message: string, zip64 = false) {
    super(message);
    this.zip64 = zip64;
  }
}

/** A member whose text a caller picked but that is larger than the edit may hold (`maxMemberBytes`). */
export class ZipMemberTooLarge extends Error {}

/** One member as the central directory describes it. */
export interface ZipMember {
  name: string;
  /** The name's bytes as stored (written back unchanged). */
  rawName: Uint8Array;
  method: number;
  flags: number;
  time: number;
  date: number;
  crc: number;
  /** Compressed and uncompressed sizes, bytes. */
  compressed: number;
  size: number;
  extra: Uint8Array;
  comment: Uint8Array;
  attrs: number;
  made: number;
  /** Offset of its local header in the zip. */
  local: number;
}

/** Bytes as text one character a byte, and back (ISO-8859-1): edits of ASCII keep every other byte as it was. */
const asText = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("latin1");
const asBytes = (t: string) => new Uint8Array(Buffer.from(t, "latin1"));

/** Largest piece copied at once, bytes. */
const CHUNK = 1024 * 1024;

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

/** A zip held in memory as a {@link ZipSource}. */
export function bytesSource(zip: Uint8Array): ZipSource {
  return { size: zip.byteLength, read: async (at, n) => zip.subarray(at, Math.min(zip.byteLength, at + n)) };
}

/**
 * Opens the zip at `path` as a {@link ZipSource} (positional reads), runs `use` with it and closes the file.
 * @throws whatever opening or reading the file throws
 */
export async function withFileSource<T>(path: string, use: (src: ZipSource) => Promise<T>): Promise<T> {
  const fh = await open(path, "r");
  try {
    const size = (await fh.stat()).size;
    return await use({
      size,
      async read(at, n) {
        const buf = new Uint8Array(Math.max(0, Math.min(n, size - at)));
        let got = 0;
        while (got < buf.byteLength) {
          const { bytesRead } = await fh.read(buf, got, buf.byteLength - got, at + got);
          if (!bytesRead) break;
          got += bytesRead;
        }
        return buf.subarray(0, got);
      },
    });
  } finally {
    await fh.close();
  }
}

/**
 * The members of the zip in `src`, from its central directory (read alone: the last 64 KiB + 22 bytes, then the
 * directory itself, a few KiB to MiB for an office document).
 * @throws ZipUnreadable when it is not a zip, is zip64, or its directory or local headers do not parse
 */
export async function zipMembers(src: ZipSource): Promise<ZipMember[]> {
  const tailAt = Math.max(0, src.size - 65_557);
  const tail = await src.read(tailAt, src.size - tailAt);
  const e = endOfCentralDirectory(tail);
  if (e < 0) throw new ZipUnreadable("no end-of-central-directory record");
  const ev = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  const count = ev.getUint16(e + 10, true);
  const cdSize = ev.getUint32(e + 12, true);
  const cdAt = ev.getUint32(e + 16, true);
  if (count === 0xffff || cdSize === 0xffffffff || cdAt === 0xffffffff)
    throw new ZipUnreadable("a zip64 archive", true);
  if (cdAt + cdSize > tailAt + e) throw new ZipUnreadable("the central directory runs past its end record");
  const cd = await src.read(cdAt, cdSize);
  const v = new DataView(cd.buffer, cd.byteOffset, cd.byteLength);
  const out: ZipMember[] = [];
  let at = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > cd.byteLength || v.getUint32(at, true) !== 0x02014b50)
      throw new ZipUnreadable(`central directory entry ${n} does not parse`);
    const [nameLen, extraLen, commentLen] = [
      v.getUint16(at + 28, true),
      v.getUint16(at + 30, true),
      v.getUint16(at + 32, true),
    ];
    if (at + 46 + nameLen + extraLen + commentLen > cd.byteLength)
      throw new ZipUnreadable(`central directory entry ${n} runs past the directory`);
    const compressed = v.getUint32(at + 20, true);
    const size = v.getUint32(at + 24, true);
    const local = v.getUint32(at + 42, true);
    if (compressed === 0xffffffff || size === 0xffffffff || local === 0xffffffff)
      throw new ZipUnreadable("a zip64 member", true);
    const rawName = cd.slice(at + 46, at + 46 + nameLen);
    out.push({
      name: new TextDecoder().decode(rawName),
      rawName,
      made: v.getUint16(at + 4, true),
      flags: v.getUint16(at + 8, true),
      method: v.getUint16(at + 10, true),
      time: v.getUint16(at + 12, true),
      date: v.getUint16(at + 14, true),
      crc: v.getUint32(at + 16, true),
      compressed,
      size,
      attrs: v.getUint32(at + 38, true),
      extra: cd.slice(at + 46 + nameLen, at + 46 + nameLen + extraLen),
      comment: cd.slice(at + 46 + nameLen + extraLen, at + 46 + nameLen + extraLen + commentLen),
      local,
    });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/**
 * Where member `m`'s compressed bytes start (after its local header, whose own name and extra lengths count).
 * @throws ZipUnreadable when the local header is not one, or the bytes run past the zip
 */
async function dataAt(src: ZipSource, m: ZipMember): Promise<number> {
  const h = await src.read(m.local, 30);
  const v = new DataView(h.buffer, h.byteOffset, h.byteLength);
  if (h.byteLength < 30 || v.getUint32(0, true) !== 0x04034b50)
    throw new ZipUnreadable(`${m.name}: no local header where the directory says`);
  const at = m.local + 30 + v.getUint16(26, true) + v.getUint16(28, true);
  if (at + m.compressed > src.size) throw new ZipUnreadable(`${m.name}: its bytes run past the end of the zip`);
  return at;
}

/** A member's new content after an edit, or its place in the source to copy from. */
type Body = { bytes: Uint8Array } | { from: number };

/**
 * Writes to `sink` the zip in `src` with each member `pick` accepts (stored or deflated, not encrypted) passed through
 * `edit` as text, one character a byte (ISO-8859-1, so UTF-8 and every other byte survive an edit of ASCII); every
 * other member's compressed bytes are copied from `src`, CHUNK bytes at a time. Nothing is written when no edit
 * changed anything. Answers how many members changed.
 * A picked member that does not inflate is left as it is (LibreOffice refuses the damaged document itself).
 * @throws ZipUnreadable (see {@link zipMembers}) | ZipMemberTooLarge when a picked member is over `maxMemberBytes`
 *   uncompressed (its links could not be checked) | whatever `sink` throws
 */
export async function editZipText(
  src: ZipSource,
  sink: (chunk: Uint8Array) => Promise<void>,
  pick: (name: string) => boolean,
  edit: (name: string, text: string) => string,
  maxMemberBytes = 256 * 1024 * 1024,
): Promise<number> {
  const all = await zipMembers(src);
  const bodies: Body[] = [];
  let changed = 0;
  for (const m of all) {
    const from = await dataAt(src, m);
    bodies.push({ from });
    if (!pick(m.name) || m.flags & 1 || (m.method !== 0 && m.method !== 8)) continue;
    if (m.size > maxMemberBytes || m.compressed > maxMemberBytes)
      throw new ZipMemberTooLarge(`${m.name} is ${m.size} bytes, over the ${maxMemberBytes} bytes checked for links`);
    let raw: Uint8Array;
    try {
      const data = await src.read(from, m.compressed);
      raw = m.method === 8 ? inflateRawSync(data, { maxOutputLength: m.size + 1 }) : data;
    } catch {
      continue; // a damaged member: LibreOffice refuses the document itself
    }
    const text = asText(raw);
    const next = edit(m.name, text);
    if (next === text) continue;
    const bytes = asBytes(next);
    const data = m.method === 8 ? new Uint8Array(deflateRawSync(bytes)) : bytes;
    Object.assign(m, { size: bytes.byteLength, compressed: data.byteLength, crc: crc32(bytes) >>> 0 });
    bodies[bodies.length - 1] = { bytes: data };
    changed++;
  }
  if (changed) await write(src, sink, all, bodies);
  return changed;
}

/** The zip of `all` (in order, each with its body) to `sink`, local headers from the entries' fields. */
async function write(
  src: ZipSource,
  sink: (chunk: Uint8Array) => Promise<void>,
  all: ZipMember[],
  bodies: Body[],
): Promise<void> {
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const [i, e] of all.entries()) {
    const name = e.rawName;
    const flags = e.flags & ~0x0008; // sizes are in the local header now
    if (offset > 0xfffffffe) throw new ZipUnreadable("the edited zip would need zip64");
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
    await sink(new Uint8Array(local.buffer));
    await sink(name);
    const body = bodies[i]!;
    if ("bytes" in body) await sink(body.bytes);
    else
      for (let done = 0; done < e.compressed;) {
        const piece = await src.read(body.from + done, Math.min(CHUNK, e.compressed - done));
        if (!piece.byteLength) throw new ZipUnreadable(`${e.name}: the zip ended inside it`);
        await sink(piece);
        done += piece.byteLength;
      }
    central.push(new Uint8Array(c.buffer), name, e.extra, e.comment);
    offset += 30 + name.byteLength + e.compressed;
  }
  const size = central.reduce((n, p) => n + p.byteLength, 0);
  if (offset + size > 0xfffffffe || all.length > 0xfffe) throw new ZipUnreadable("the edited zip would need zip64");
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, all.length, true);
  end.setUint16(10, all.length, true);
  end.setUint32(12, size, true);
  end.setUint32(16, offset, true);
  for (const p of [...central, new Uint8Array(end.buffer)]) await sink(p);
}
