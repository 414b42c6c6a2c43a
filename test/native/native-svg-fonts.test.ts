/**
 * SVG → fonts (issue 33) through the operations and the native engine's fonttools row, FontForge
 * underneath (container/engines/fonts/svg_font.py). An SVG font written by others (Debian's inkscape ships
 * the Hershey and EMS SVG fonts, /usr/share/inkscape/extensions/svg_fonts) converts as a font: every
 * code point its <glyph unicode> attributes name is in the output's cmap and its <font-face font-family>
 * is the family (fontTools and fc-scan on the output, the SVG's own markup as the expectation). A plain
 * drawing (corpus vector/inkscape-gradient.svg) becomes an icon font of one glyph at U+E000, family the
 * file's name (fc-scan). EOT outputs are unwrapped by their header (EOTSize, FontDataSize) for fontTools.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/runner/execute";
import { corpusPath } from "../support/corpus";
import { nativeEngineForFile } from "../support/native-engine";
import { bytesInput, dataOf, expectTaskError, testContext } from "../support/pdf-helpers";
import { saved } from "../support/ebook-oracles";
import { scaled } from "../support/time-scale";

const native = nativeEngineForFile();

const ctx = () => testContext({ engines: native.engines() });
const convert = (name: string, data: Uint8Array, format: string) =>
  execute("convert", { output_format: format }, [bytesInput(name, data)], ctx());

const HERSHEY = "/usr/share/inkscape/extensions/svg_fonts/HersheySans1.svg";

/** What fontTools reads in a font file: glyph count, family (name ID 1), the cmap's code points. */
function fontFacts(path: string): { glyphs: number; family: string; codepoints: number[] } {
  const py = `import json,sys
from fontTools.ttLib import TTFont
f=TTFont(sys.argv[1])
print(json.dumps({"glyphs":len(f.getGlyphOrder()),"family":f["name"].getDebugName(1),"codepoints":sorted(f.getBestCmap())}))`;
  const r = spawnSync("/usr/bin/python3", ["-c", py, path], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** The sfnt inside an uncompressed EOT (header: EOTSize, FontDataSize; the font data ends the file). */
function eotFont(data: Uint8Array): Uint8Array {
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  expect(v.getUint32(0, true)).toBe(data.byteLength);
  expect(v.getUint16(34, true)).toBe(0x504c); // MagicNumber
  const size = v.getUint32(4, true);
  return data.subarray(data.byteLength - size);
}

/** The SVG font's expectation, from its markup: family and the code points of its one-character glyphs. */
function svgFontMarkup(svg: string): { family: string; codepoints: number[] } {
  const family = /<font-face[^>]*\sfont-family="([^"]+)"/.exec(svg)![1]!;
  const cps = [...svg.matchAll(/<glyph[^>]*\sunicode="([^"]*)"/g)]
    .map((m) =>
      m[1]!
        .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
        .replace(/&amp;/g, "&")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'"),
    )
    .filter((u) => [...u].length === 1)
    .map((u) => u.codePointAt(0)!);
  return { family, codepoints: [...new Set(cps)].sort((a, b) => a - b) };
}

describe("an SVG font (Hershey Sans, Debian's inkscape) to every font output (fontTools, fc-scan)", () => {
  it.skipIf(!existsSync(HERSHEY))("the oracle reads the SVG font's family and code points", () => {
    const m = svgFontMarkup(readFileSync(HERSHEY, "utf8"));
    expect(m.family).toBe("Hershey Sans 1-stroke");
    expect(m.codepoints.length).toBeGreaterThan(90);
  });
  for (const format of ["ttf", "otf", "woff", "woff2", "eot"]) {
    it(
      `HersheySans1.svg → ${format}: the family and every code point of the SVG`,
      async () => {
        const svg = readFileSync(HERSHEY);
        const r = await convert("HersheySans1.svg", new Uint8Array(svg), format);
        expect(r.engine.name).toBe("fonttools");
        const out = dataOf(r.out.files[0]!);
        const path = saved(format === "eot" ? eotFont(out) : out, format === "eot" ? "ttf" : format);
        const facts = fontFacts(path);
        const want = svgFontMarkup(svg.toString("utf8"));
        expect(facts.family).toBe(want.family);
        for (const cp of want.codepoints) expect(facts.codepoints).toContain(cp);
        expect(facts.glyphs).toBeGreaterThanOrEqual(want.codepoints.length);
        const fc = spawnSync("fc-scan", ["--format", "%{family}", path], { encoding: "utf8" });
        expect(fc.stdout).toBe(want.family);
      },
      scaled(120_000),
    );
  }
});

describe("a plain SVG drawing becomes an icon font of one glyph at U+E000", () => {
  for (const format of ["ttf", "woff2"]) {
    it(
      `inkscape-gradient.svg → ${format}`,
      async () => {
        const r = await convert(
          "inkscape-gradient.svg",
          new Uint8Array(readFileSync(corpusPath("vector/inkscape-gradient.svg"))),
          format,
        );
        const path = saved(dataOf(r.out.files[0]!), format);
        const facts = fontFacts(path);
        expect(facts.codepoints.filter((c) => c > 0x20)).toEqual([0xe000]);
        expect(facts.family).toBe("inkscape-gradient");
        const fc = spawnSync("fc-scan", ["--format", "%{family}|%{charset}", path], { encoding: "utf8" });
        expect(fc.stdout).toMatch(/^inkscape-gradient\|.*\be000\b/);
        // the glyph has outlines: rendered by ImageMagick through FreeType, it is not blank
        const png = `${path}.png`;
        if (format === "ttf") {
          const im = spawnSync("convert", [
            "-size",
            "200x200",
            "xc:white",
            "-font",
            path,
            "-pointsize",
            "150",
            "-annotate",
            "+20+170",
            "\uE000",
            png,
          ]);
          expect(im.status, im.stderr?.toString()).toBe(0);
          const mean = Number(spawnSync("identify", ["-format", "%[fx:mean]", png], { encoding: "utf8" }).stdout);
          expect(mean).toBeLessThan(0.97);
        }
      },
      scaled(120_000),
    );
  }

  it(
    "an SVG that draws nothing → CONVERSION_FAILED",
    async () => {
      const empty = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>');
      await expectTaskError(() => convert("empty.svg", empty, "ttf"), "CONVERSION_FAILED");
    },
    scaled(60_000),
  );
});
