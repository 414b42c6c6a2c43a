/**
 * The JavaScript font engine (row "fonteditor", issue 47) through the operations: every corpus font it
 * reads (TrueType, OpenType/CFF, WOFF, EOT) converted to every output its row claims, judged outside our
 * code (test/support/font-oracles.ts): Debian's fontTools for the glyph count, family name, units per em,
 * the cmap's code points, the outline flavour and (where the container alone changes) every table kept
 * byte for byte; fc-scan (fontconfig/FreeType) for the family and the character set; the EOT header per
 * the EOT specification; Python's XML parser and the `unicode` attributes for SVG fonts. Its hostile
 * inputs are test/engines/font-engine.test.ts's.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execute } from "../../src/runner/execute";
import { ENGINES } from "../../src/engines/registry";
import { nodeEngines } from "../../src/runtime/node/engines";
import { corpusPath } from "../support/corpus";
import { eotFontData, fcScan, fontFacts, type Facts } from "../support/font-oracles";
import { bytesInput, dataOf, testContext } from "../support/pdf-helpers";
import { scaled } from "../support/time-scale";

const FONTS = [
  "fonts/cantarell-Cantarell-Regular.otf",
  "fonts/comicneue-ComicNeue-Regular.woff",
  "fonts/dejavu-DejaVuSansMono.ttf",
  "fonts/fontawesome-webfont.eot",
  "fonts/opensans-OpenSans-Regular.ttf",
];
const ROW = ENGINES.find((e) => e.name === "fonteditor")!;
const claims = (input: string) => (ROW.offers.formats ?? []).filter((f) => f.input === input).map((f) => f.output);
const ctx = () => testContext({ engines: nodeEngines(["fonteditor"]) });
const read = (rel: string) => new Uint8Array(readFileSync(corpusPath(rel)));

let scratch: string;
let n = 0;
const write = (data: Uint8Array, ext: string) => {
  const p = join(scratch, `${++n}.${ext}`);
  writeFileSync(p, data);
  return p;
};

/** A path the oracles read: EOT unwrapped to its sfnt. */
const sfntPath = (data: Uint8Array, ext: string) =>
  ext === "eot" ? write(eotFontData(data), "ttf") : write(data, ext);

interface Converted {
  rel: string;
  format: string;
  engine: string;
  out: Uint8Array;
  filename: string;
  ms: number;
}
const converted: Converted[] = [];
const inputFacts = new Map<string, Facts>();
const outputFacts = new Map<string, Facts>();
const key = (rel: string, format: string) => `${rel}>${format}`;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "font-engine-"));
  const inPaths: string[] = [];
  const outPaths: [string, string][] = [];
  for (const rel of FONTS) {
    const ext = rel.split(".").pop()!;
    const bytes = read(rel);
    inPaths.push(sfntPath(bytes, ext));
    for (const format of claims(ext)) {
      const t = performance.now();
      const name = rel.split("/").pop()!;
      const r = await execute("convert", { output_format: format }, [bytesInput(name, bytes)], ctx());
      const file = r.out.files[0]!;
      const c = {
        rel,
        format,
        engine: r.engine.name,
        out: dataOf(file),
        filename: file.filename,
        ms: performance.now() - t,
      };
      converted.push(c);
      if (format !== "svg") outPaths.push([key(rel, format), sfntPath(c.out, format)]);
    }
  }
  fontFacts(inPaths).forEach((f, i) => inputFacts.set(FONTS[i]!, f));
  fontFacts(outPaths.map(([, p]) => p)).forEach((f, i) => outputFacts.set(outPaths[i]![0], f));
}, scaled(120_000));
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("every corpus font to every output the row claims (fontTools, fc-scan)", () => {
  for (const rel of FONTS) {
    const ext = rel.split(".").pop()!;
    for (const format of claims(ext)) {
      it(`${rel} → ${format}`, () => {
        const c = converted.find((x) => x.rel === rel && x.format === format)!;
        expect(c.engine).toBe("fonteditor");
        expect(c.filename).toBe(
          rel
            .split("/")
            .pop()!
            .replace(/\.\w+$/, `.${format}`),
        );
        const want = inputFacts.get(rel)!;
        if (format === "svg") {
          const xml = new TextDecoder().decode(c.out);
          // every code point of the input's cmap has a <glyph unicode=…>; the family and units per em kept
          const cps = new Set<number>();
          for (const m of xml.matchAll(/<glyph\b[^>]*?\sunicode="([^"]*)"/g)) {
            const text = m[1]!
              .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
              .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
              .replace(/&quot;/g, '"')
              .replace(/&lt;/g, "<")
              .replace(/&gt;/g, ">")
              .replace(/&apos;/g, "'")
              .replace(/&amp;/g, "&");
            for (const ch of text) cps.add(ch.codePointAt(0)!);
          }
          // (C0 controls aside: XML 1.0 normalises them in attribute values; ComicNeue maps U+000D)
          expect(want.codepoints.filter((cp) => cp >= 0x20 && !cps.has(cp))).toEqual([]);
          expect(xml).toContain(`font-family="${want.family}"`);
          expect(xml).toContain(`units-per-em="${want.upm}"`);
          const lint = spawnSync(
            "/usr/bin/python3",
            ["-c", "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.stdin.buffer)"],
            { input: c.out },
          );
          expect(lint.status, lint.stderr?.toString()).toBe(0);
          return;
        }
        const got = outputFacts.get(key(rel, format))!;
        expect(got.glyphs).toBe(want.glyphs);
        expect(got.family).toBe(want.family);
        expect(got.upm).toBe(want.upm);
        expect(got.codepoints).toEqual(want.codepoints);
        expect(got.container).toBe(format === "woff" ? "woff" : null);
        // ttf and eot hold TrueType outlines, otf CFF; a WOFF keeps its input's flavour
        expect(got.flavour).toBe(format === "otf" ? "cff" : format === "woff" ? want.flavour : "truetype");
        // where only the container changes, every table comes through byte for byte
        if (got.flavour === want.flavour) expect(got.tables).toEqual(want.tables);
        const inScan = fcScan(
          sfntPath(ext === "eot" ? eotFontData(read(rel)) : read(rel), ext === "eot" ? "ttf" : ext),
        );
        const outScan = fcScan(sfntPath(c.out, format));
        expect(outScan.family).toBe(inScan.family);
        expect(outScan.charset).toBe(inScan.charset);
      });
    }
  }
});
