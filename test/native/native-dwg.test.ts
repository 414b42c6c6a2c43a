/**
 * DWG drawings (issue 33) through the operations and the native engine's inkscape-cad row: LibreDWG
 * (WebAssembly, container/engines/cad/dwg_to_dxf.ts) writes the DWG as DXF, which Inkscape renders. Both
 * corpus DWGs (AutoCAD 2004 AC1018 and 2010 AC1024, Apache Tika's test drawings) to every output offered.
 * Judged outside our code: corpus/facts.json's version string (the DXF's $ACADVER), the drawing's sentences
 * read from the DWG bytes with `strings` (latin-1 in 2004, UTF-16 in 2010) found by pdftotext in the PDF,
 * identify (not blank), rsvg-convert rendering the SVG, Ghostscript the EPS. Damaged, truncated and
 * unsupported DWGs end in coded errors quickly; dxf → dwg is not offered (the build writes no DWG).
 */
import { spawnSync } from "node:child_process";
import { epsToPng, identifyFile } from "../support/cad-oracles";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/runner/execute";
import { corpusPath, fact } from "../support/corpus";
import { nativeEngineForFile } from "../support/native-engine";
import { bytesInput, dataOf, expectTaskError, testContext } from "../support/pdf-helpers";
import { pdfInfo, pdfText, saved } from "../support/ebook-oracles";
import { scaled } from "../support/time-scale";

const native = nativeEngineForFile();

const ctx = () => testContext({ engines: native.engines() });
const corpus = (rel: string) => new Uint8Array(readFileSync(corpusPath(rel)));
const convert = (name: string, data: Uint8Array, format: string, extra: Record<string, unknown> = {}) =>
  execute("convert", { output_format: format, ...extra }, [bytesInput(name, data)], ctx());

/** Sentences (a capital word then 4+ lower-case words) in the DWG's bytes, by `strings` in both encodings. */
function sentences(rel: string): string[] {
  const text = ["-n8", "-el"].map(
    (enc) =>
      spawnSync("strings", enc === "-n8" ? ["-n", "8", corpusPath(rel)] : ["-el", "-n", "8", corpusPath(rel)], {
        encoding: "utf8",
      }).stdout,
  );
  return [...new Set(text.join("\n").match(/[A-Z][a-z]+(?: [a-z]+){4,}/g) ?? [])];
}

/** identify: format, width and mean of an image file. */
const identify = identifyFile;

const DRAWINGS = ["cad/tika-testDWG2004.dwg", "cad/tika-testDWG2010.dwg"];

describe("every corpus DWG to every CAD output (facts.json, strings, pdftotext, identify, rsvg-convert, gs)", () => {
  it("the oracle finds the drawings' sentences in their bytes", () => {
    for (const rel of DRAWINGS) expect(sentences(rel).length, rel).toBeGreaterThanOrEqual(2);
  });

  for (const rel of DRAWINGS) {
    const name = rel.split("/").pop()!;
    for (const format of ["pdf", "svg", "eps", "emf", "wmf", "png", "jpg", "tiff", "gif", "bmp", "dxf", "dwg"]) {
      it(
        `${name} → ${format}`,
        async () => {
          const r = await convert(name, corpus(rel), format);
          expect(r.engine.name).toBe("inkscape-cad");
          const file = r.out.files[0]!;
          expect(file.filename).toBe(name.replace(/\.dwg$/, `.${format}`));
          const out = dataOf(file);
          const path = saved(out, format);
          if (format === "pdf") {
            expect(pdfInfo(path).Pages).toBe("1");
            const text = pdfText(path);
            for (const s of sentences(rel)) expect(text).toContain(s);
            const png = `${path}.png`;
            spawnSync("pdftoppm", ["-r", "72", "-png", "-singlefile", path, png.replace(/\.png$/, "")]);
            expect(identify(png).mean).toBeLessThan(0.995);
          } else if (format === "svg") {
            const svg = new TextDecoder().decode(out);
            for (const s of sentences(rel)) expect(svg).toContain(s);
            const png = `${path}.png`;
            expect(spawnSync("rsvg-convert", ["-b", "white", "-o", png, path]).status).toBe(0);
            expect(identify(png).mean).toBeLessThan(0.995);
          } else if (format === "eps") {
            expect(new TextDecoder().decode(out.subarray(0, 40))).toMatch(/^%!PS-Adobe-3\.0 EPSF-3\.0/);
            expect(identify(epsToPng(path)).mean).toBeLessThan(0.995);
          } else if (format === "emf") {
            expect(new TextDecoder().decode(out.subarray(40, 44))).toBe(" EMF");
          } else if (format === "wmf") {
            const v = new DataView(out.buffer, out.byteOffset, out.byteLength);
            expect(v.getUint32(0, true)).toBe(0x9ac6cdd7); // placeable WMF key
          } else if (format === "dxf") {
            // ASCII DXF of the drawing's own version (facts.json: the DWG's first 6 bytes), with its MTEXT sentences
            const dxf = new TextDecoder("latin1").decode(out).replace(/\r/g, "");
            expect(dxf).toMatch(new RegExp(`\\$ACADVER\\n\\s*1\\n${fact(rel).dwg_version_string}\\n`));
            expect(dxf).toMatch(/\n\s*0\nSECTION\n\s*2\nENTITIES\n/);
            // MTEXT splits long text into 250-character group 3 chunks before its group 1 tail: joined here
            const joined = dxf.replace(/\n\s*[13]\n/g, "");
            for (const s of sentences(rel)) expect(joined).toContain(s);
          } else if (format === "dwg") {
            expect(Buffer.from(out).equals(Buffer.from(corpus(rel)))).toBe(true);
          } else {
            const img = identify(path);
            expect(img.format).toBe({ png: "PNG", jpg: "JPEG", tiff: "TIFF", gif: "GIF", bmp: "BMP" }[format]);
            expect(img.width).toBeGreaterThan(500);
            expect(img.mean).toBeLessThan(0.995);
          }
        },
        scaled(120_000),
      );
    }
  }
});

describe("damaged and unsupported DWGs end in coded errors, quickly", () => {
  const dwg2004 = () => corpus("cad/tika-testDWG2004.dwg");

  it(
    "a truncated DWG (its first 3000 bytes) → OPEN_FAILED within 30 s",
    async () => {
      const t = Date.now();
      const e = await expectTaskError(() => convert("cut.dwg", dwg2004().subarray(0, 3000), "pdf"), "OPEN_FAILED");
      expect(e.message).toContain("cut.dwg");
      expect(Date.now() - t).toBeLessThan(30_000);
    },
    scaled(60_000),
  );

  it(
    "a DWG header over random bytes → OPEN_FAILED",
    async () => {
      const data = new Uint8Array(200_000);
      for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 24;
      data.set(dwg2004().subarray(0, 6));
      await expectTaskError(() => convert("garbled.dwg", data, "png"), "OPEN_FAILED");
    },
    scaled(60_000),
  );

  it(
    "an R12 DWG (AC1009) → UNSUPPORTED naming the versions read",
    async () => {
      const data = new Uint8Array(1024);
      data.set(new TextEncoder().encode("AC1009"));
      const e = await expectTaskError(() => convert("old.dwg", data, "pdf"), "UNSUPPORTED");
      expect(e.message).toMatch(/AC1012 to AC1032/);
    },
    scaled(60_000),
  );

  it("dxf → dwg is not offered: INVALID_CONVERSION_TYPE (the LibreDWG build writes no DWG)", async () => {
    await expectTaskError(() => convert("tux.dxf", corpus("cad/librecad-tux.dxf"), "dwg"), "INVALID_CONVERSION_TYPE");
  });
});
