/**
 * E-book oracles outside calibre (issue 33): a book's text read from its source by other means (unzip and
 * the XHTML of an EPUB, the XML of a FictionBook, a MOBI's PalmDOC records decompressed by the
 * Mobipocket format's published LZ77 scheme), and each output format recognised by its own signature
 * (the formats' magic numbers), unzip -l, pdfinfo and pdftotext.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32 } from "node:zlib";

const dir = mkdtempSync(join(tmpdir(), "ebook-oracle-"));
let n = 0;
/** Writes bytes to a fresh temp file with extension `ext`; returns its path. */
export function saved(data: Uint8Array, ext: string): string {
  const p = join(dir, `${++n}.${ext}`);
  writeFileSync(p, data);
  return p;
}

/** Text of markup: tags dropped, entities of the five XML ones decoded, white space collapsed. */
export function plain(markup: string): string {
  return markup
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&(amp|lt|gt|quot|apos|#160|nbsp);/g, " ")
    .replace(/[\s\u00a0\ufeff]+/g, " ")
    .trim();
}

/** `unzip -Z1`: the member names of a zip. */
export function zipNames(path: string): string[] {
  const r = spawnSync("unzip", ["-Z1", path], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.split("\n").filter(Boolean) : [];
}

/** `unzip -p`: the concatenated members matching `pattern` (unzip's wildcard), as text. */
export function zipText(path: string, pattern: string): string {
  return spawnSync("unzip", ["-p", path, pattern], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }).stdout;
}

/** Decompresses one PalmDOC (Mobipocket compression 2) record. */
function palmdoc(src: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < src.length;) {
    const c = src[i++]!;
    if (c === 0 || (c >= 0x09 && c <= 0x7f)) out.push(c);
    else if (c <= 0x08) for (let k = 0; k < c && i < src.length; k++) out.push(src[i++]!);
    else if (c >= 0xc0) out.push(0x20, c ^ 0x80);
    else {
      const pair = (c << 8) | src[i++]!;
      const dist = (pair >> 3) & 0x7ff;
      const len = (pair & 7) + 3;
      for (let k = 0; k < len; k++) out.push(out[out.length - dist] ?? 0x3f);
    }
  }
  return out;
}

/**
 * The text of a MOBI/AZW3 (PalmDB "BOOKMOBI"): its text records decompressed (none or PalmDOC) and
 * decoded (codepage 1252 or UTF-8 from the MOBI header), markup dropped. Trailing record entries are
 * trimmed by the extra-data flags' multibyte bit only, enough for the text to be found.
 */
export function mobiText(data: Uint8Array): string {
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const count = v.getUint16(76);
  const offset = (i: number) => v.getUint32(78 + 8 * i);
  const r0 = offset(0);
  const compression = v.getUint16(r0);
  const records = v.getUint16(r0 + 8);
  const encoding = v.getUint32(r0 + 16 + 12);
  const headerLength = v.getUint32(r0 + 16 + 4);
  const flags = headerLength >= 0xe4 ? v.getUint16(r0 + 16 + 0xe2) : 0;
  const bytes: number[] = [];
  for (let i = 1; i <= records && i < count; i++) {
    let rec = data.subarray(offset(i), i + 1 < count ? offset(i + 1) : data.byteLength);
    // trailing entries: each flag bit above bit 0 adds one entry whose size is a backward varint at the end
    for (let bit = 15; bit >= 1; bit--) {
      if (!(flags & (1 << bit))) continue;
      let size = 0;
      for (let k = 1, shift = 0; k <= 4 && k <= rec.length; k++, shift += 7) {
        const b = rec[rec.length - k]!;
        size |= (b & 0x7f) << shift;
        if (b & 0x80) break;
      }
      rec = rec.subarray(0, Math.max(0, rec.length - size));
    }
    if (flags & 1) rec = rec.subarray(0, Math.max(0, rec.length - ((rec[rec.length - 1]! & 3) + 1)));
    bytes.push(...(compression === 2 ? palmdoc(rec) : rec));
  }
  const text = new TextDecoder(encoding === 65001 ? "utf-8" : "windows-1252").decode(new Uint8Array(bytes));
  return plain(text);
}

/** What the output's own signature says it is, per format (null when it matches). */
export function signatureProblem(format: string, data: Uint8Array): string | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...data.subarray(from, to));
  const zipped = () => data[0] === 0x50 && data[1] === 0x4b;
  const checks: Record<string, () => boolean> = {
    epub: () => zipped() && ascii(30, 38) === "mimetype" && ascii(38, 58) === "application/epub+zip",
    mobi: () => ascii(60, 68) === "BOOKMOBI",
    azw: () => ascii(60, 68) === "BOOKMOBI",
    prc: () => ascii(60, 68) === "BOOKMOBI",
    azw3: () => ascii(60, 68) === "BOOKMOBI",
    pdf: () => ascii(0, 5) === "%PDF-",
    rtf: () => ascii(0, 5) === "{\\rtf",
    lrf: () => ascii(0, 6) === "L\0R\0F\0",
    pdb: () => /^[\x20-\x7e]{8}$/.test(ascii(60, 68)) && ascii(60, 68) !== "BOOKMOBI",
    lit: () => ascii(0, 8) === "ITOLITLS",
    rb: () => data[0] === 0xb0 && data[1] === 0x0c && ascii(6, 10) === "NUVO",
    snb: () => ascii(0, 8) === "SNBP000B",
    tcr: () => ascii(0, 9) === "!!8-Bit!!",
    fb2: () => /<FictionBook\b/.test(new TextDecoder().decode(data.subarray(0, 4096))),
    oeb: zipped,
    txtz: zipped,
    htmlz: zipped,
    docx: zipped,
    txt: () => !new TextDecoder("utf-8", { fatal: false }).decode(data).includes("\ufffd"),
  };
  const check = checks[format];
  if (!check) return `no signature check for ${format}`;
  return check()
    ? null
    : `not a ${format}: starts ${JSON.stringify(ascii(0, 16))}, bytes 60-68 ${JSON.stringify(ascii(60, 68))}`;
}

/** pdftotext of a PDF file (layout off), or "" when it fails. */
export function pdfText(path: string): string {
  return spawnSync("pdftotext", [path, "-"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }).stdout ?? "";
}

/** pdfinfo's fields. */
export function pdfInfo(path: string): Record<string, string> {
  const out = spawnSync("pdfinfo", [path], { encoding: "utf8" }).stdout ?? "";
  return Object.fromEntries(
    out
      .split("\n")
      .filter((l) => l.includes(":"))
      .map((l) => [l.slice(0, l.indexOf(":")).trim(), l.slice(l.indexOf(":") + 1).trim()]),
  );
}

/**
 * A RAR 4 archive of `files`, stored (method 0x30, no compression), written here by the RAR 4.x technical
 * note's block layout (marker, archive header, one file header + data per file, end of archive), so a CBR
 * fixture needs no non-free RAR encoder. Header CRCs are the low 16 bits of CRC-32 of the header after the CRC.
 */
export function storedRar(files: { name: string; data: Uint8Array; declaredSize?: number }[]): Uint8Array {
  const block = (body: Buffer) => {
    const crc = Buffer.alloc(2);
    crc.writeUInt16LE(crc32(body) & 0xffff, 0);
    return Buffer.concat([crc, body]);
  };
  const main = Buffer.alloc(11);
  main.writeUInt8(0x73, 0);
  main.writeUInt16LE(0, 1);
  main.writeUInt16LE(13, 3);
  const parts = [Buffer.from([0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x00]), block(main)];
  for (const f of files) {
    const name = Buffer.from(f.name);
    const h = Buffer.alloc(30 + name.length);
    h.writeUInt8(0x74, 0); // HEAD_TYPE: file
    h.writeUInt16LE(0x8000, 1); // HEAD_FLAGS: LONG_BLOCK
    h.writeUInt16LE(32 + name.length, 3); // HEAD_SIZE
    h.writeUInt32LE(f.data.length, 5); // PACK_SIZE
    h.writeUInt32LE(f.declaredSize ?? f.data.length, 9); // UNP_SIZE (a lying one when declaredSize says so)
    h.writeUInt8(3, 13); // HOST_OS: Unix
    h.writeUInt32LE(crc32(f.data) >>> 0, 14); // FILE_CRC
    h.writeUInt32LE(0x5a210000, 18); // FTIME (DOS)
    h.writeUInt8(20, 22); // UNP_VER 2.0
    h.writeUInt8(0x30, 23); // METHOD: store
    h.writeUInt16LE(name.length, 24);
    h.writeUInt32LE(0o100644 << 0, 26); // ATTR
    name.copy(h, 30);
    parts.push(block(h), Buffer.from(f.data));
  }
  parts.push(Buffer.from([0xc4, 0x3d, 0x7b, 0x00, 0x40, 0x07, 0x00]));
  return new Uint8Array(Buffer.concat(parts));
}
