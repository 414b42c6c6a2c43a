/**
 * CAD drawings (issue 33) through the operations and the native engine's inkscape-cad row: both DXF
 * drawings of the corpus (LibreCAD's Tux, AutoCAD 2000 arcs on 2 layers; FreeCAD's R12 schematic with 376
 * TEXT entities) to every output offered (pdf, svg, eps, emf, wmf, png, jpg, tiff, gif, bmp). Judged
 * outside our code: pdfinfo/pdftotext (the drawing's TEXT strings, read from the DXF's group codes here),
 * identify (format, size, not blank, Tux's red), rsvg-convert rendering the SVG, Ghostscript rendering the
 * EPS, and the EMF/WMF headers of their specifications (DWG: native-dwg.test.ts). dxf → dxf (ezdxf) is held
 * to the input's entities counted by type and its TEXT strings (a small parse here), its DXF version, and
 * Inkscape's own DXF import (dxf_input.py, run directly) drawing as many paths and texts from it as from the
 * input. Broken and empty drawings end in coded errors. Issue 49: the schematic and a DWG streamed (thresholds lowered)
 * reach the engine as files in its call's folder, their outputs streamed back.
 */
import { spawnSync } from "node:child_process";
import { epsToPng, identifyFile } from "../support/cad-oracles";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/runner/execute";
import { corpusPath } from "../support/corpus";
import { nativeEngineForFile } from "../support/native-engine";
import { bytesInput, dataOf, expectTaskError, testContext } from "../support/pdf-helpers";
import { pdfInfo, pdfText, saved } from "../support/ebook-oracles";
import { scaled } from "../support/time-scale";
import { isStreamed } from "../../native-protocol/frame";
import { heldBytes } from "../../src/operations/kit";

const native = nativeEngineForFile();

const ctx = () => testContext({ engines: native.engines() });
const corpus = (rel: string) => new Uint8Array(readFileSync(corpusPath(rel)));
const convert = (name: string, data: Uint8Array, format: string, extra: Record<string, unknown> = {}) =>
  execute("convert", { output_format: format, ...extra }, [bytesInput(name, data)], ctx());

/** The values of group code `code` in entities of type `type` of the corpus DXF `rel`. */
const dxfValues = (rel: string, type: string, code: string) =>
  dxfTextValues(readFileSync(corpusPath(rel), "latin1"), type, code);

/** The values of group code `code` in entities of type `type` of a DXF's text (DXF: code/value line pairs). */
function dxfTextValues(text: string, type: string, code: string): string[] {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const out: string[] = [];
  let inType = false;
  for (let i = 0; i + 1 < lines.length; i += 2) {
    if (lines[i] === "0") inType = lines[i + 1] === type;
    else if (inType && lines[i] === code) out.push(lines[i + 1]!);
  }
  return out;
}

/** The entity types of a DXF's ENTITIES section with their counts, "TYPE×n" sorted (DXF: code/value line pairs). */
function entityCounts(text: string): string[] {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const counts = new Map<string, number>();
  let section = "";
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const [code, value] = [lines[i], lines[i + 1]!];
    if (code === "0" && value === "SECTION") section = "?";
    else if (code === "2" && section === "?") section = value;
    else if (code === "0" && value === "ENDSEC") section = "";
    else if (code === "0" && section === "ENTITIES") counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts].map(([t, n]) => `${t}×${n}`).sort();
}

/** The value of header variable `name` ($ACADVER…) of a DXF: the pair after "9 / name". */
function headerValue(text: string, name: string): string | undefined {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const at = lines.findIndex((l, i) => l === name && lines[i - 1] === "9");
  return at < 0 ? undefined : lines[at + 2];
}

/** Paths and texts Inkscape's DXF import (dxf_input.py, run here directly) draws from the DXF file `path`. */
function inkscapeDraws(path: string): { paths: number; texts: number } {
  const svg = `${path}.svg`;
  const r = spawnSync(
    "/usr/bin/python3",
    ["/usr/share/inkscape/extensions/dxf_input.py", "--scalemethod=auto", `--output=${svg}`, path],
    { env: { ...process.env, PYTHONPATH: "/usr/share/inkscape/extensions" } },
  );
  expect(r.status).toBe(0);
  const text = readFileSync(svg, "utf8");
  return { paths: text.split("<path").length - 1, texts: text.split("<text").length - 1 };
}

/** identify: format, size, mean and the red and green channel means of an image file. */
const identify = identifyFile;

const DRAWINGS = ["cad/librecad-tux.dxf", "cad/tika-testDXF_ascii.dxf"];
/** Words of the R12 schematic's TEXT entities (longer than 3 characters, letters), read from the DXF. */
const schematicWords = () => [
  ...new Set(dxfValues("cad/tika-testDXF_ascii.dxf", "TEXT", "1").filter((t) => /^[A-Za-z][\w.-]{3,}$/.test(t))),
];

describe("every corpus DXF to every CAD output (pdfinfo/pdftotext, identify, rsvg-convert, gs, headers)", () => {
  it("the oracle reads the schematic's TEXT entities and the Tux's 87 arcs' layers from the DXF", () => {
    expect(dxfValues("cad/tika-testDXF_ascii.dxf", "TEXT", "1").length).toBe(376);
    expect(schematicWords().length).toBeGreaterThan(10);
    expect(dxfValues("cad/librecad-tux.dxf", "ARC", "8").length).toBe(87);
  });

  for (const rel of DRAWINGS) {
    const name = rel.split("/").pop()!;
    const tux = rel.includes("tux");
    for (const format of ["pdf", "svg", "eps", "emf", "wmf", "png", "jpg", "tiff", "gif", "bmp"]) {
      it(
        `${name} → ${format}`,
        async () => {
          const r = await convert(name, corpus(rel), format);
          expect(r.engine.name).toBe("inkscape-cad");
          const file = r.out.files[0]!;
          expect(file.filename).toBe(name.replace(/\.dxf$/, `.${format}`));
          const out = dataOf(file);
          const path = saved(out, format);
          if (format === "pdf") {
            expect(pdfInfo(path).Pages).toBe("1");
            const png = `${path}.png`;
            spawnSync("pdftoppm", ["-r", "72", "-png", "-singlefile", path, png.replace(/\.png$/, "")]);
            const img = identify(png);
            expect(img.mean).toBeLessThan(0.995); // not a blank page
            if (!tux) {
              const text = pdfText(path);
              const words = schematicWords();
              const found = words.filter((w) => text.includes(w));
              expect(found.length / words.length).toBeGreaterThan(0.8);
            } else expect(img.red).toBeGreaterThan(img.green); // Tux is drawn in red (DXF colour 1)
          } else if (format === "svg") {
            const svg = new TextDecoder().decode(out);
            // every layer the drawing's entities are on is an Inkscape layer of that name
            const used = new Set(["ARC", "LINE", "TEXT", "POLYLINE", "CIRCLE"].flatMap((t) => dxfValues(rel, t, "8")));
            expect(used.size).toBeGreaterThan(0);
            for (const layer of used) expect(svg).toContain(`inkscape:label="${layer}"`);
            if (!tux) for (const w of schematicWords().slice(0, 10)) expect(svg).toContain(w);
            const png = `${path}.png`;
            expect(spawnSync("rsvg-convert", ["-b", "white", "-o", png, path]).status).toBe(0);
            expect(identify(png).mean).toBeLessThan(0.995);
          } else if (format === "eps") {
            expect(new TextDecoder().decode(out.subarray(0, 40))).toMatch(/^%!PS-Adobe-3\.0 EPSF-3\.0/);
            expect(identify(epsToPng(path)).mean).toBeLessThan(0.995);
          } else if (format === "emf") {
            const v = new DataView(out.buffer, out.byteOffset, out.byteLength);
            expect(v.getUint32(0, true)).toBe(1); // EMR_HEADER
            expect(new TextDecoder().decode(out.subarray(40, 44))).toBe(" EMF");
            expect(v.getUint32(48, true)).toBe(out.byteLength); // header's nBytes = the file
          } else if (format === "wmf") {
            const v = new DataView(out.buffer, out.byteOffset, out.byteLength);
            const placeable = v.getUint32(0, true) === 0x9ac6cdd7;
            const at = placeable ? 22 : 0;
            expect([1, 2]).toContain(v.getUint16(at, true)); // METAHEADER type: memory or disk
            expect(v.getUint16(at + 2, true)).toBe(9); // header size in words
            // mtSize, the file size in 16-bit words (Inkscape counts the placeable header too)
            expect([out.byteLength - at, out.byteLength]).toContain(v.getUint32(at + 6, true) * 2);
          } else {
            const img = identify(path);
            expect(img.format).toBe({ png: "PNG", jpg: "JPEG", tiff: "TIFF", gif: "GIF", bmp: "BMP" }[format]);
            expect(img.width).toBeGreaterThan(tux ? 100 : 1000);
            expect(img.mean).toBeLessThan(0.995);
            if (tux) expect(img.red).toBeGreaterThan(img.green);
          }
        },
        scaled(120_000),
      );
    }
  }
});

describe("dxf → dxf: the drawing read and written again by ezdxf (own parse, Inkscape's DXF import)", () => {
  for (const rel of DRAWINGS) {
    const name = rel.split("/").pop()!;
    it(
      `${name} → dxf keeps its version, every entity by type, its TEXT strings and what Inkscape draws`,
      async () => {
        const input = corpus(rel);
        const r = await convert(name, input, "dxf");
        expect(r.engine.name).toBe("inkscape-cad");
        const file = r.out.files[0]!;
        expect(file.filename).toBe(name);
        const out = dataOf(file);
        const [before, after] = [new TextDecoder("latin1").decode(input), new TextDecoder("latin1").decode(out)];
        expect(after).not.toBe(before); // written again, not the bytes as they came
        expect(headerValue(after, "$ACADVER")).toBe(headerValue(before, "$ACADVER"));
        const counts = entityCounts(after);
        expect(counts.length).toBeGreaterThan(0);
        expect(counts).toEqual(entityCounts(before));
        const texts = (t: string) => dxfTextValues(t, "TEXT", "1").sort();
        expect(texts(after)).toEqual(texts(before));
        const drawn = inkscapeDraws(saved(out, "dxf"));
        expect(drawn.paths).toBeGreaterThan(0);
        expect(drawn).toEqual(inkscapeDraws(corpusPath(rel)));
      },
      scaled(120_000),
    );
  }

  it(
    "a DXF cut short → OPEN_FAILED naming the file",
    async () => {
      const cut = corpus("cad/librecad-tux.dxf").subarray(0, 5000);
      const e = await expectTaskError(() => convert("cut.dxf", cut, "dxf"), "OPEN_FAILED");
      expect(e.message).toContain("cut.dxf");
    },
    scaled(60_000),
  );
});

describe("raster options", () => {
  it(
    "width 800 → an 800 px wide PNG with the drawing's aspect (Tux: 95.3 × 113.4 px at 96 dpi)",
    async () => {
      const r = await convert("tux.dxf", corpus("cad/librecad-tux.dxf"), "png", { width: 800 });
      const img = identify(saved(dataOf(r.out.files[0]!), "png"));
      expect(img.width).toBe(800);
      expect(img.height).toBeGreaterThan(930);
      expect(img.height).toBeLessThan(975);
    },
    scaled(60_000),
  );

  it(
    "pixel_density 300 doubles the default 150 dpi size; on a PDF it is ignored with a warning",
    async () => {
      const at = async (d?: number) =>
        identify(
          saved(
            dataOf(
              (await convert("tux.dxf", corpus("cad/librecad-tux.dxf"), "png", d ? { pixel_density: d } : {})).out
                .files[0]!,
            ),
            "png",
          ),
        );
      const [def, hi] = [await at(), await at(300)];
      expect(hi.width).toBeGreaterThanOrEqual(def.width * 2 - 1);
      expect(hi.width).toBeLessThanOrEqual(def.width * 2 + 1);
      const pdf = await convert("tux.dxf", corpus("cad/librecad-tux.dxf"), "pdf", { pixel_density: 300 });
      expect(pdf.out.extra?.warnings).toEqual(["pixel_density applies to raster outputs only; it was ignored."]);
    },
    scaled(90_000),
  );
});

describe("what is not converted ends in a coded error", () => {
  it("a file that is no DXF → OPEN_FAILED", async () => {
    const e = await expectTaskError(
      () => convert("x.dxf", new TextEncoder().encode("hello, not a drawing\n"), "pdf"),
      "OPEN_FAILED",
    );
    expect(e.message).toContain("x.dxf");
  });

  it(
    "a DXF with nothing in it → CONVERSION_FAILED naming the empty drawing",
    async () => {
      const empty = new TextEncoder().encode("0\nSECTION\n2\nENTITIES\n0\nENDSEC\n0\nEOF\n");
      const e = await expectTaskError(() => convert("empty.dxf", empty, "png"), "CONVERSION_FAILED");
      expect(e.message).toMatch(/draws nothing/);
    },
    scaled(60_000),
  );

  it(
    "a raster over the pixel limit → OVER_BUDGET before it is drawn",
    async () => {
      await expectTaskError(
        () => convert("s.dxf", corpus("cad/tika-testDXF_ascii.dxf"), "png", { pixel_density: 2400 }),
        "OVER_BUDGET",
      );
    },
    scaled(60_000),
  );
});

describe("drawings whose header extents lie (issue 44: an AutoCAD 2000 DWG → png was a blank 2 × 2 image)", () => {
  const fixture = (name: string) => new Uint8Array(readFileSync(`${import.meta.dirname}/../fixtures/cad/${name}`));

  it(
    "LibreDWG's example_2000.dwg (AC1015, stale $EXTMIN/$EXTMAX) → png: a page-sized drawing with ink",
    async () => {
      const r = await convert("example_2000.dwg", fixture("libredwg-example_2000.dwg"), "png");
      const img = identify(saved(dataOf(r.out.files[0]!), "png"));
      expect(img.format).toBe("PNG");
      expect(img.width).toBeGreaterThan(600);
      expect(img.height).toBeGreaterThan(200);
      expect(img.mean).toBeLessThan(0.999); // not blank
    },
    scaled(120_000),
  );

  it(
    "Tux given header extents a million units wide → png: the same drawing as with its true header, not a 2 × 2 pixel",
    async () => {
      const dxf = readFileSync(corpusPath("cad/librecad-tux.dxf"), "latin1");
      // header extents (group 9 variables, points in groups 10/20) claiming a drawing a million units wide, as stale
      // AC1015 headers do; Tux has none, and is about a hundred units across
      const stale = dxf.replace(
        /(\r?\n\s*2\r?\nHEADER\r?\n)/,
        "$1  9\n$EXTMIN\n 10\n0.0\n 20\n0.0\n  9\n$EXTMAX\n 10\n1000000.0\n 20\n1000000.0\n",
      );
      expect(stale).not.toBe(dxf);
      const good = identify(
        saved(dataOf((await convert("tux.dxf", corpus("cad/librecad-tux.dxf"), "png")).out.files[0]!), "png"),
      );
      const r = await convert("tux-stale.dxf", new Uint8Array(Buffer.from(stale, "latin1")), "png");
      const img = identify(saved(dataOf(r.out.files[0]!), "png"));
      expect(img.width).toBeGreaterThan(good.width / 2);
      expect(Math.abs(img.width / img.height - good.width / good.height)).toBeLessThan(0.05);
      expect(img.mean).toBeLessThan(0.999);
    },
    scaled(120_000),
  );
});

describe("drawings streamed to the CAD engine (issue 49)", () => {
  /** Inputs and answers over 512 bytes go framed: the path a drawing over the stream threshold takes. */
  const OVER = 512;
  const streaming = () =>
    testContext({ engines: native.engines({ streamOver: OVER }), settings: { nativeStreamBytes: OVER } as never });
  const SCHEMATIC = "cad/tika-testDXF_ascii.dxf";
  const DWG = "cad/tika-testDWG2004.dwg";

  it(
    `${SCHEMATIC} streamed → pdf: the answer a stream, the schematic's TEXT strings found by pdftotext`,
    async () => {
      const r = await execute(
        "convert",
        { output_format: "pdf" },
        [bytesInput("s.dxf", corpus(SCHEMATIC))],
        streaming(),
      );
      expect(r.engine.name).toBe("inkscape-cad");
      expect(isStreamed(r.out.files[0]!.data)).toBe(true);
      const path = saved(await heldBytes(r.out.files[0]!.data as never), "pdf");
      expect(pdfInfo(path).Pages).toBe("1");
      const text = pdfText(path);
      const words = schematicWords();
      expect(words.filter((w) => text.includes(w)).length / words.length).toBeGreaterThan(0.8);
    },
    scaled(120_000),
  );

  it(
    `${DWG} streamed → dwg is the drawing as it came (the file moved back, byte for byte), → dxf a DXF of it`,
    async () => {
      const dwg = await execute("convert", { output_format: "dwg" }, [bytesInput("d.dwg", corpus(DWG))], streaming());
      expect(dwg.engine.name).toBe("inkscape-cad");
      expect(Buffer.from(await heldBytes(dwg.out.files[0]!.data as never)).equals(Buffer.from(corpus(DWG)))).toBe(true);
      const dxf = await execute("convert", { output_format: "dxf" }, [bytesInput("d.dwg", corpus(DWG))], streaming());
      const text = new TextDecoder().decode(await heldBytes(dxf.out.files[0]!.data as never));
      // the DWG's version (corpus MANIFEST: AC1018, AutoCAD 2004) in the DXF's header
      expect(text).toMatch(/\$ACADVER\s*\r?\n\s*1\s*\r?\n\s*AC1018/);
      expect(entityCounts(text).length).toBeGreaterThan(0);
    },
    scaled(120_000),
  );
});
