/**
 * The font containers this engine reads, checked before fonteditor-core sees a byte (issue 47): an sfnt
 * (TrueType `0x00010000`/`true`, OpenType/CFF `OTTO`; OpenType spec, "Organization of an OpenType Font"),
 * WOFF 1.0 (W3C Recommendation 2012, §4–5), and Embedded OpenType (W3C Member Submission 2008). Every
 * offset and length the headers state is held against the file's size, and the sizes the file asks
 * to allocate (a WOFF's inflated tables, an EOT's font data) against the budget, so a truncated file or
 * one with absurd table sizes ends OPEN_FAILED or OVER_BUDGET, never a RangeError deep in the library or
 * a decompression bomb. Failures are thrown as {@link TaskError}s.
 */
import { TaskError } from "../errors";
import type { FontBudget } from "./budget";

/** What a file is, from its first bytes. */
export type FontContainer = "ttf" | "otf" | "woff" | "woff2" | "eot" | "svg" | "unknown";

/** fonteditor-core refuses more tables than this (ttf2woff, ttf2eot: error 10101); no real font has more than ~30. */
const MAX_TABLES = 100;

const tag = (d: Uint8Array, at: number) => String.fromCharCode(d[at]!, d[at + 1]!, d[at + 2]!, d[at + 3]!);
const view = (d: Uint8Array) => new DataView(d.buffer, d.byteOffset, d.byteLength);

/** The container of `data` by its signature (EOT: its magic number 0x504C at byte 34 and a known version). */
export function sniffFont(data: Uint8Array): FontContainer {
  if (data.byteLength >= 4) {
    const t = tag(data, 0);
    if (t === "\0\x01\0\0" || t === "true") return "ttf";
    if (t === "OTTO") return "otf";
    if (t === "wOFF") return "woff";
    if (t === "wOF2") return "woff2";
  }
  if (data.byteLength >= 36) {
    const v = view(data);
    const version = v.getUint32(8, true);
    if (v.getUint16(34, true) === 0x504c && [0x10000, 0x20001, 0x20002].includes(version)) return "eot";
  }
  const head = new TextDecoder().decode(data.subarray(0, 1024)).replace(/^\uFEFF/, "");
  if (/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<(\w+:)?svg[\s>]/i.test(head)) return "svg";
  return "unknown";
}

/** The facts of a checked sfnt: its outline flavour and glyph count. */
export interface SfntFacts {
  /** "cff" for `OTTO` (PostScript outlines), "truetype" otherwise. */
  flavour: "cff" | "truetype";
  glyphs: number;
  tables: string[];
}

/**
 * Checks an sfnt's table directory: 1–100 tables, the directory and every table inside the file, the
 * tables a conversion needs present (head, maxp, cmap, hhea, hmtx, name, and glyf+loca or CFF), and
 * maxp.numGlyphs within the budget.
 * @throws TaskError OPEN_FAILED (truncated, missing tables, tables past the end), OVER_BUDGET (glyphs)
 */
export function checkSfnt(data: Uint8Array, budget: FontBudget, what: string): SfntFacts {
  if (data.byteLength < 12) throw new TaskError("OPEN_FAILED", `${what}: the font is truncated (no table directory).`);
  const v = view(data);
  const numTables = v.getUint16(4);
  if (numTables < 1 || numTables > MAX_TABLES)
    throw new TaskError("OPEN_FAILED", `${what}: the font states ${numTables} tables (1–${MAX_TABLES} read here).`);
  if (12 + 16 * numTables > data.byteLength)
    throw new TaskError("OPEN_FAILED", `${what}: the font's table directory is truncated.`);
  const tables = new Map<string, { offset: number; length: number }>();
  for (let i = 0; i < numTables; i++) {
    const at = 12 + 16 * i;
    const t = tag(data, at);
    const offset = v.getUint32(at + 8);
    const length = v.getUint32(at + 12);
    if (offset + length > data.byteLength)
      throw new TaskError(
        "OPEN_FAILED",
        `${what}: table '${t}' states ${length} bytes at offset ${offset}, past the end of the ${data.byteLength}-byte font.`,
      );
    tables.set(t, { offset, length });
  }
  const flavour = tag(data, 0) === "OTTO" ? "cff" : "truetype";
  const needed = ["head", "maxp", "cmap", "hhea", "hmtx", "name", ...(flavour === "cff" ? ["CFF "] : ["glyf", "loca"])];
  const missing = needed.filter((t) => !tables.has(t));
  if (missing.length)
    throw new TaskError(
      "OPEN_FAILED",
      `${what}: the font has no ${missing.map((t) => `'${t.trim()}'`).join(", ")} table.`,
    );
  const maxp = tables.get("maxp")!;
  if (maxp.length < 6) throw new TaskError("OPEN_FAILED", `${what}: the font's 'maxp' table is truncated.`);
  const glyphs = v.getUint16(maxp.offset + 4);
  if (glyphs > budget.maxGlyphs)
    throw new TaskError("OVER_BUDGET", `${what}: ${glyphs} glyphs; at most ${budget.maxGlyphs} are converted here.`);
  return { flavour, glyphs, tables: [...tables.keys()] };
}

/**
 * Checks a WOFF 1.0 header and table directory before it is inflated: the stated length is the file's,
 * every table's compressed bytes lie inside the file, no table's compLength exceeds its origLength, and
 * the inflated tables (the sum of origLength, and totalSfntSize) fit the budget.
 * @throws TaskError OPEN_FAILED (truncated, inconsistent), OVER_BUDGET (inflated size)
 */
export function checkWoff(data: Uint8Array, budget: FontBudget, what: string): void {
  if (data.byteLength < 44) throw new TaskError("OPEN_FAILED", `${what}: the WOFF header is truncated.`);
  const v = view(data);
  const length = v.getUint32(8);
  const numTables = v.getUint16(12);
  const totalSfntSize = v.getUint32(16);
  if (length !== data.byteLength)
    throw new TaskError(
      "OPEN_FAILED",
      `${what}: the WOFF header states ${length} bytes, the file has ${data.byteLength}.`,
    );
  if (numTables < 1 || numTables > MAX_TABLES)
    throw new TaskError("OPEN_FAILED", `${what}: the WOFF states ${numTables} tables (1–${MAX_TABLES} read here).`);
  if (44 + 20 * numTables > data.byteLength)
    throw new TaskError("OPEN_FAILED", `${what}: the WOFF table directory is truncated.`);
  let inflated = 0;
  for (let i = 0; i < numTables; i++) {
    const at = 44 + 20 * i;
    const offset = v.getUint32(at + 4);
    const compLength = v.getUint32(at + 8);
    const origLength = v.getUint32(at + 12);
    if (offset + compLength > data.byteLength || compLength > origLength)
      throw new TaskError("OPEN_FAILED", `${what}: the WOFF table '${tag(data, at)}' is truncated or inconsistent.`);
    inflated += origLength;
  }
  const biggest = Math.max(inflated, totalSfntSize);
  if (biggest > budget.maxSfntBytes)
    throw new TaskError(
      "OVER_BUDGET",
      `${what}: the WOFF inflates to ${biggest} bytes; at most ${budget.maxSfntBytes} are unpacked here.`,
    );
}

/** EOT flags (EOT spec, "Flags"): the font data is MicroType Express compressed, or XORed with 0x50. */
const EOT_COMPRESSED = 0x4;
const EOT_XOR = 0x10000000;

/**
 * Checks an EOT header: not MTX-compressed (UNSUPPORTED: the native row reads it or says why), the
 * stated font data size inside the file and the budget. Returns whether the font data is XOR-obfuscated.
 * @throws TaskError OPEN_FAILED, UNSUPPORTED, OVER_BUDGET
 */
export function checkEot(data: Uint8Array, budget: FontBudget, what: string): { xor: boolean } {
  if (data.byteLength < 82) throw new TaskError("OPEN_FAILED", `${what}: the EOT header is truncated.`);
  const v = view(data);
  const fontSize = v.getUint32(4, true);
  const flags = v.getUint32(12, true);
  if (flags & EOT_COMPRESSED)
    throw new TaskError("UNSUPPORTED", `${what}: the EOT font data is MicroType Express compressed.`);
  if (fontSize > budget.maxSfntBytes)
    throw new TaskError(
      "OVER_BUDGET",
      `${what}: the EOT states ${fontSize} bytes of font data; at most ${budget.maxSfntBytes} here.`,
    );
  if (fontSize + 82 > data.byteLength)
    throw new TaskError(
      "OPEN_FAILED",
      `${what}: the EOT states ${fontSize} bytes of font data, more than the file holds.`,
    );
  return { xor: (flags & EOT_XOR) !== 0 };
}
