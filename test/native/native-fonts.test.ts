/**
 * Fonts (issue 33) through the operations and the native engine's fontTools row: every font of the
 * corpus (TrueType, OpenType/CFF, WOFF, WOFF2, EOT) converted to every font output the catalogue lists
 * (ttf, otf, woff, woff2, eot, svg). Judged outside our code: fc-scan (fontconfig/FreeType) for the
 * family, the format and the set of characters; Debian's fontTools for glyph count and metrics (units
 * per em, ascent/descent, every advance width); ImageMagick's FreeType rendering of a line of text with
 * the output against the input; the EOT header per the EOT specification (W3C Member Submission
 * 2008); the SVG font's XML. Malformed fonts end OPEN_FAILED.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execute } from "../../src/runner/execute";
import { FONT_INPUTS, FONT_OUTPUTS } from "../../src/engines/registry";
import { corpusPath } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { bytesInput, dataOf, expectTaskError, testContext } from "../support/pdf-helpers";
import { scaled } from "../support/time-scale";

const FONTS = [
  "fonts/cantarell-Cantarell-Regular.otf",
  "fonts/comicneue-ComicNeue-Regular.woff",
  "fonts/comicneue-ComicNeue-Regular.woff2",
  "fonts/dejavu-DejaVuSansMono.ttf",
  "fonts/fontawesome-webfont.eot",
  "fonts/opensans-OpenSans-Regular.ttf",
];
/** Fonts with Latin letters, rendered as text for the outline comparison (Font Awesome has icons only). */
const TEXT = "Hamburgefonstiv 0123";

let native: NativeServer;
let scratch: string;
beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "native-fonts-"));
  native = await startNativeEngine();
}, scaled(90_000));
afterAll(async () => {
  await native?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const ctx = () => testContext({ engines: native.engines() });
let n = 0;
const write = (data: Uint8Array, ext: string) => {
  const p = join(scratch, `${++n}.${ext}`);
  writeFileSync(p, data);
  return p;
};

/**
 * The sfnt inside an uncompressed EOT, read by the specification's header layout (EOTSize, FontDataSize,
 * Version, Flags, …): in versions 0x00010000 and 0x00020001 the font data is the file's last FontDataSize bytes.
 */
function eotFontData(data: Uint8Array): Uint8Array {
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  expect(v.getUint16(34, true), "EOT MagicNumber").toBe(0x504c);
  expect(v.getUint32(0, true), "EOTSize").toBe(data.byteLength);
  expect(v.getUint32(12, true) & 0x4, "not MTX-compressed").toBe(0);
  const size = v.getUint32(4, true);
  return data.subarray(data.byteLength - size);
}

/** fc-scan's family, font format and character set of a font file. */
function fcScan(path: string): { family: string; format: string; charset: string } {
  const r = spawnSync("fc-scan", ["--format", "%{family[0]}\t%{fontformat}\t%{charset}", path], { encoding: "utf8" });
  const [family = "", format = "", charset = ""] = r.stdout.split("\t");
  return { family, format, charset };
}

/** Debian's fontTools on a font file: glyph count, units per em, hhea ascent/descent, advance widths in glyph order. */
function fontFacts(path: string): { glyphs: number; upm: number; ascent: number; descent: number; widths: number[] } {
  const py = [
    "import json, sys",
    "from fontTools.ttLib import TTFont",
    "f = TTFont(sys.argv[1])",
    "m = f['hmtx']",
    "print(json.dumps({'glyphs': f['maxp'].numGlyphs, 'upm': f['head'].unitsPerEm, 'ascent': f['hhea'].ascent,",
    "  'descent': f['hhea'].descent, 'widths': [m[g][0] for g in f.getGlyphOrder()]}))",
  ].join("\n");
  const r = spawnSync("/usr/bin/python3", ["-c", py, path], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/**
 * A line of text rendered with the font by ImageMagick (FreeType) at 200 pt and scaled down to a quarter, so
 * that hinting (TrueType instructions against CFF hints, which a change of outline format changes) weighs
 * little and the outlines' shapes and advances decide. Returns the PNG's path.
 */
function render(fontPath: string): string {
  const out = join(scratch, `${++n}.png`);
  const args = ["-font", fontPath, "-pointsize", "200", `label:${TEXT}`, "-resize", "25%", out];
  const r = spawnSync("convert", args, { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return out;
}

/** Normalised root-mean-square difference of two renderings (compare -metric RMSE; 0 = identical). */
function rmse(a: string, b: string): number {
  const r = spawnSync("compare", ["-metric", "RMSE", a, b, "null:"], { encoding: "utf8" });
  const m = /\(([\d.e-]+)\)/.exec(r.stderr);
  expect(m, r.stderr).not.toBeNull();
  return Number(m![1]);
}

/** A path the oracles read: EOT unwrapped to its sfnt first. */
function sfntPath(data: Uint8Array, ext: string): string {
  return ext === "eot" ? write(eotFontData(data), "ttf") : write(data, ext);
}

describe("every corpus font to every font output (fc-scan, fontTools, ImageMagick)", () => {
  it("the row claims the catalogue's font pairs", () => {
    expect([...FONT_INPUTS].sort()).toEqual(["eot", "otf", "ttf", "woff", "woff2"]);
    expect([...FONT_OUTPUTS].sort()).toEqual(["eot", "otf", "svg", "ttf", "woff", "woff2"]);
  });

  for (const rel of FONTS) {
    const inExt = rel.split(".").pop()!;
    for (const format of ["ttf", "otf", "woff", "woff2", "eot", "svg"]) {
      it(
        `${rel} → ${format}`,
        async () => {
          const bytes = new Uint8Array(readFileSync(corpusPath(rel)));
          const name = rel.split("/").pop()!;
          const r = await execute("convert", { output_format: format }, [bytesInput(name, bytes)], ctx());
          expect(r.engine.name).toBe("fonttools");
          const file = r.out.files[0]!;
          expect(file.filename).toBe(name.replace(/\.\w+$/, `.${format}`));
          const out = dataOf(file);
          const src = sfntPath(bytes, inExt);
          const want = fontFacts(src);
          const wantScan = fcScan(src);
          if (format === "svg") {
            const xml = new TextDecoder().decode(out);
            // one <glyph> per glyph and the .notdef as <missing-glyph>; the family and units per em kept
            const glyphs = (xml.match(/<glyph\b/g) ?? []).length + (xml.match(/<missing-glyph\b/g) ?? []).length;
            expect(glyphs).toBe(want.glyphs);
            expect(xml).toContain(`font-family="${wantScan.family}"`);
            expect(xml).toContain(`units-per-em="${want.upm}"`);
            // well-formed XML (Python's expat parser)
            const py = "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.stdin.buffer)";
            const lint = spawnSync("/usr/bin/python3", ["-c", py], { input: out });
            expect(lint.status, lint.stderr?.toString()).toBe(0);
            return;
          }
          const path = sfntPath(out, format);
          const scan = fcScan(path);
          expect(scan.family).toBe(wantScan.family);
          expect(scan.charset).toBe(wantScan.charset);
          expect(scan.format).toBe(
            format === "otf" ? "CFF" : format === "ttf" || format === "eot" ? "TrueType" : scan.format,
          );
          if (format === "woff" || format === "woff2") expect(scan.format).toBe(wantScan.format);
          const got = fontFacts(path);
          expect(got.glyphs).toBe(want.glyphs);
          expect(got.upm).toBe(want.upm);
          expect([got.ascent, got.descent]).toEqual([want.ascent, want.descent]);
          expect(got.widths).toEqual(want.widths);
          // the same text in another face differs by ~0.4; hinting alone by up to ~0.03
          if (!rel.includes("fontawesome")) expect(rmse(render(src), render(path))).toBeLessThan(0.05);
        },
        scaled(60_000),
      );
    }
  }
});

describe("malformed fonts end OPEN_FAILED", () => {
  const cases: [string, () => Uint8Array][] = [
    ["random bytes named .ttf", () => new Uint8Array(4096).map((_, i) => (i * 7919) % 251)],
    ["a TrueType file cut to its first 600 bytes", () => readFileSync(corpusPath(FONTS[3]!)).subarray(0, 600)],
    ["a WOFF2 with its compressed tables cut off", () => readFileSync(corpusPath(FONTS[2]!)).subarray(0, 200)],
    [
      "an EOT whose header says more font data than there is",
      () => readFileSync(corpusPath(FONTS[4]!)).subarray(0, 5000),
    ],
  ];
  for (const [what, make] of cases) {
    it(
      what,
      async () => {
        const ext = what.includes("WOFF2") ? "woff2" : what.includes("EOT") ? "eot" : "ttf";
        const e = await expectTaskError(
          () =>
            execute("convert", { output_format: "woff" }, [bytesInput(`bad.${ext}`, new Uint8Array(make()))], ctx()),
          "OPEN_FAILED",
        );
        expect(e.message).toContain("bad.");
      },
      30_000,
    );
  }
});
