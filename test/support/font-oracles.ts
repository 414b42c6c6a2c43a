/**
 * Oracles for fonts, outside our code (issue 47's font tests): Debian's fontTools (glyph count, family,
 * units per em, outline flavour, table digests, the cmap's code points), fc-scan (fontconfig/FreeType:
 * family and character set), and the EOT header per the EOT specification (W3C Member Submission 2008).
 */
import { spawnSync } from "node:child_process";
import { expect } from "vitest";

/** The sfnt inside an uncompressed, unobfuscated EOT, by the specification's header layout: its last FontDataSize bytes. */
export function eotFontData(data: Uint8Array): Uint8Array {
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  expect(v.getUint16(34, true), "EOT MagicNumber").toBe(0x504c);
  expect(v.getUint32(0, true), "EOTSize").toBe(data.byteLength);
  expect(v.getUint32(12, true) & 0x10000004, "not MTX-compressed nor XORed").toBe(0);
  return data.subarray(data.byteLength - v.getUint32(4, true));
}

/** What fontTools reads of a font file (WOFF included). */
export interface Facts {
  glyphs: number;
  family: string;
  upm: number;
  flavour: "cff" | "truetype";
  container: string | null;
  tables: Record<string, string>;
  codepoints: number[];
}

/** Debian's fontTools on many files in one process: glyphs, family, units per em, flavour, table digests, cmap. */
export function fontFacts(paths: string[]): Facts[] {
  const py = [
    "import hashlib, json, sys",
    "from fontTools.ttLib import TTFont",
    "out = []",
    "for p in sys.argv[1:]:",
    "  f = TTFont(p)",
    "  out.append({'glyphs': f['maxp'].numGlyphs, 'family': f['name'].getDebugName(1), 'upm': f['head'].unitsPerEm,",
    "    'flavour': 'cff' if 'CFF ' in f else 'truetype', 'container': f.flavor,",
    "    'tables': {t: hashlib.md5(f.reader[t]).hexdigest() for t in f.reader.keys() if t not in ('head', 'DSIG')},",
    "    'codepoints': sorted(f.getBestCmap().keys())})",
    "print(json.dumps(out))",
  ].join("\n");
  const r = spawnSync("/usr/bin/python3", ["-c", py, ...paths], { encoding: "utf8", maxBuffer: 64 << 20 });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** fc-scan's family and character set of a font file. */
export function fcScan(path: string): { family: string; charset: string } {
  const r = spawnSync("fc-scan", ["--format", "%{family[0]}\t%{charset}", path], { encoding: "utf8" });
  const [family = "", charset = ""] = r.stdout.split("\t");
  return { family, charset };
}
