/**
 * Skencil (.sk) and sK1 (.sk1) drawings (issue 33) through the vector operation and the native engine's
 * inkscape row: the engine's own reader (container/engines/sketch/) writes SVG, Inkscape exports it. Fixtures
 * written by others (test/fixtures/vector/README.md): Survex's survexport 1.4.4 Skencil export of Survex's
 * own test survey, and uniconvertor's sK1 probe. Judged outside our code: Python's XML parser counts the
 * SVG's paths and texts against the source's object calls counted by a line rule here (b(), r(), e() lines;
 * txt() with a non-empty string), pdfinfo gives the page size the layout() line names, pdftoppm/identify
 * show ink (and the probe's red), pdftotext finds the station labels, Ghostscript draws the EPS and PS.
 * The hostile cases (a file cut short, a node bomb, deep nesting, a huge coordinate, bitmaps naming local
 * files, NUL bytes, Python that is not a literal) end in coded errors or in a warning, quickly.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TaskErrorCode } from "../../src/engines/errors";
import { execute } from "../../src/runner/execute";
import { epsToPng, identifyFile } from "../support/cad-oracles";
import { pdfInfo, pdfText, saved } from "../support/ebook-oracles";
import { nativeEngineForFile } from "../support/native-engine";
import { bytesInput, dataOf, expectTaskError, testContext } from "../support/pdf-helpers";
import { scaled } from "../support/time-scale";

const native = nativeEngineForFile();

const ctx = () => testContext({ engines: native.engines() });
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/vector/${name}`, import.meta.url)));
const utf8 = (s: string) => new TextEncoder().encode(s);
const convert = (name: string, data: Uint8Array, format: string, extra: Record<string, unknown> = {}) =>
  execute("convert", { output_format: format, ...extra }, [bytesInput(name, data)], ctx());

/** What the source draws, by a line rule: path/rectangle/ellipse calls, non-empty txt() strings, the layout size. */
function sourceFacts(text: string) {
  const lines = text.split("\n");
  const shapes = lines.filter((l) => /^(b|r|e)\(/.test(l)).length;
  const texts = lines.map((l) => /^txt\('([^']+)'/.exec(l)?.[1]).filter((t): t is string => !!t);
  const layout = /^layout\((?:'\w+',)?\(([\d.]+),([\d.]+)\)/m.exec(text)!;
  return { shapes, texts, width: Number(layout[1]), height: Number(layout[2]) };
}

/** Paths and texts (and the texts' strings) of an SVG file, counted by Python's own XML parser. */
function svgCounts(path: string): { paths: number; texts: string[] } {
  const py = [
    "import sys, json, xml.etree.ElementTree as ET",
    "root = ET.parse(sys.argv[1]).getroot()",
    "ns = '{http://www.w3.org/2000/svg}'",
    "print(json.dumps({'paths': len(root.findall('.//' + ns + 'path')),",
    "  'texts': [''.join(t.itertext()) for t in root.iter(ns + 'text')]}))",
  ].join("\n");
  const r = spawnSync("/usr/bin/python3", ["-c", py, path], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

const FIXTURES = [
  { name: "survex-3dexport.sk", labelled: true },
  { name: "probe.sk1", labelled: false },
];

describe("Skencil and sK1 fixtures to svg, pdf, png, eps, ps, emf, wmf, dxf (Python XML, pdfinfo, identify, gs)", () => {
  it("the line rule reads the fixtures: 16 paths and 7 labels; 1 rectangle on A4", () => {
    const sk = sourceFacts(new TextDecoder().decode(fixture("survex-3dexport.sk")));
    expect(sk.shapes).toBe(16);
    expect(sk.texts).toEqual(["6a", "6", "5", "3", "2", "1", "bh"]);
    const sk1 = sourceFacts(new TextDecoder().decode(fixture("probe.sk1")));
    expect(sk1).toMatchObject({ shapes: 1, texts: [], width: 595.276, height: 841.89 });
  });

  for (const { name, labelled } of FIXTURES) {
    const ext = name.split(".").pop()!;
    const facts = () => sourceFacts(new TextDecoder().decode(fixture(name)));

    it(
      `${name} → svg: as many paths as the source's b()/r()/e() calls, its labels as texts`,
      async () => {
        const r = await convert(name, fixture(name), "svg");
        expect(r.engine.name).toBe("inkscape");
        expect(r.out.files[0]!.filename).toBe(name.replace(`.${ext}`, ".svg"));
        const got = svgCounts(saved(dataOf(r.out.files[0]!), "svg"));
        expect(got.paths).toBe(facts().shapes);
        expect(got.texts.sort()).toEqual([...facts().texts].sort());
        expect(r.out.extra?.warnings).toBeUndefined(); // nothing in either fixture is left out
      },
      scaled(120_000),
    );

    it(
      `${name} → pdf: one page of the layout's size with ink${labelled ? " and the labels" : " in red"}`,
      async () => {
        const r = await convert(name, fixture(name), "pdf");
        const path = saved(dataOf(r.out.files[0]!), "pdf");
        const info = pdfInfo(path);
        expect(info.Pages).toBe("1");
        const [w, h] = /([\d.]+) x ([\d.]+) pts/.exec(info["Page size"]!)!.slice(1).map(Number);
        expect(Math.abs(w! - facts().width)).toBeLessThan(1);
        expect(Math.abs(h! - facts().height)).toBeLessThan(1);
        spawnSync("pdftoppm", ["-r", "36", "-png", "-singlefile", path, path]);
        const img = identifyFile(`${path}.png`);
        expect(img.mean).toBeLessThan(0.999);
        // the labels inside the page (bh and 1 sit on its top edge, so survexport draws them above it; 6a and 6
        // overlap, so pdftotext merges them)
        if (labelled)
          expect(pdfText(path).split(/\s+/).filter(Boolean).sort()).toEqual(expect.arrayContaining(["2", "3", "5"]));
        else expect(img.red).toBeGreaterThan(img.green + 0.1); // fp(("CMYK",0,1,1,0)) is red
      },
      scaled(120_000),
    );

    it(
      `${name} → png: the layout's aspect, not blank`,
      async () => {
        const r = await convert(name, fixture(name), "png", { width: 600 });
        const img = identifyFile(saved(dataOf(r.out.files[0]!), "png"));
        expect(img.format).toBe("PNG");
        expect(img.width).toBe(600);
        expect(Math.abs(img.height - (600 * facts().height) / facts().width)).toBeLessThanOrEqual(1);
        // Inkscape's PNG has a transparent background: judged flattened on white
        const flat = saved(dataOf(r.out.files[0]!), "png");
        spawnSync("convert", [flat, "-background", "white", "-flatten", `${flat}.flat.png`]);
        expect(identifyFile(`${flat}.flat.png`).mean).toBeLessThan(0.9999); // thin survey legs: little ink, but ink
      },
      scaled(120_000),
    );

    it(
      `${name} → eps and ps: Ghostscript draws them, not blank`,
      async () => {
        const eps = saved(dataOf((await convert(name, fixture(name), "eps")).out.files[0]!), "eps");
        expect(readFileSync(eps, "latin1").slice(0, 30)).toMatch(/^%!PS-Adobe-3\.0 EPSF-3\.0/);
        expect(identifyFile(epsToPng(eps)).mean).toBeLessThan(0.999);
        const ps = saved(dataOf((await convert(name, fixture(name), "ps")).out.files[0]!), "ps");
        const gs = spawnSync("gs", [
          "-q",
          "-dSAFER",
          "-dBATCH",
          "-dNOPAUSE",
          "-sDEVICE=png16m",
          "-r36",
          `-sOutputFile=${ps}.png`,
          ps,
        ]);
        expect(gs.status, gs.stderr?.toString()).toBe(0);
        expect(identifyFile(`${ps}.png`).mean).toBeLessThan(0.999);
      },
      scaled(120_000),
    );

    it(
      `${name} → emf, wmf, dxf: each format's header (EMR_HEADER " EMF", METAHEADER, DXF ENTITIES with paths)`,
      async () => {
        const emf = dataOf((await convert(name, fixture(name), "emf")).out.files[0]!);
        const v = new DataView(emf.buffer, emf.byteOffset, emf.byteLength);
        expect(v.getUint32(0, true)).toBe(1);
        expect(new TextDecoder().decode(emf.subarray(40, 44))).toBe(" EMF");
        const wmf = dataOf((await convert(name, fixture(name), "wmf")).out.files[0]!);
        const w = new DataView(wmf.buffer, wmf.byteOffset, wmf.byteLength);
        const at = w.getUint32(0, true) === 0x9ac6cdd7 ? 22 : 0;
        expect(w.getUint16(at + 2, true)).toBe(9);
        const dxf = new TextDecoder().decode(dataOf((await convert(name, fixture(name), "dxf")).out.files[0]!));
        expect(dxf).toMatch(/SECTION\s+2\s+ENTITIES/);
        expect(dxf).toMatch(/LWPOLYLINE|POLYLINE|LINE/);
      },
      scaled(180_000),
    );
  }

  it(
    "survexport writes the committed Skencil fixture from the committed survey (provenance)",
    () => {
      const dir = mkdtempSync(join(tmpdir(), "survex-"));
      writeFileSync(join(dir, "survex-3dexport.svx"), fixture("survex-3dexport.svx"));
      expect(spawnSync("cavern", ["survex-3dexport.svx"], { cwd: dir }).status).toBe(0);
      const args = ["--defaults", "--surface-legs", "--splays", "--legs", "--crosses", "--station-names", "--skencil"];
      expect(spawnSync("survexport", [...args, "survex-3dexport.3d", "out.sk"], { cwd: dir }).status).toBe(0);
      expect(readFileSync(`${dir}/out.sk`)).toEqual(Buffer.from(fixture("survex-3dexport.sk")));
    },
    scaled(60_000),
  );
});

describe("the reader's parts on small documents written here (features the fixtures lack)", () => {
  it(
    "an embedded PNG bitmap (bm + base64 + '-', then im) is drawn where im() puts it",
    async () => {
      const red = spawnSync("convert", ["-size", "8x4", "xc:#ff0000", "png:-"]).stdout as Buffer;
      const b64 = red
        .toString("base64")
        .match(/.{1,60}/g)!
        .join("\n");
      const doc = `##Sketch 1 2\ndocument()\nlayout((100,50),0)\nlayer('L',1,1,0,0,(0,0,0))\nbm(7)\n${b64}\n-\nim((12.5,0,0,12.5,0,0),7)\n`;
      const r = await convert("bitmap.sk", utf8(doc), "png", { width: 200 });
      const png = saved(dataOf(r.out.files[0]!), "png");
      const px = (x: number, y: number) =>
        spawnSync("convert", [png, "-background", "white", "-flatten", "-format", `%[pixel:p{${x},${y}}]`, "info:"], {
          encoding: "utf8",
        }).stdout;
      // 8 × 4 px at 12.5 pt a px = 100 × 50 pt: the whole page, red (ImageMagick names the colour)
      expect(px(100, 50)).toMatch(/red|rgba?\(255,0,0/);
      expect(r.out.extra?.warnings).toBeUndefined();
    },
    scaled(60_000),
  );

  it(
    "strings with escapes, keyword arguments, ellipses, rounded rectangles, dashes, groups, an unknown call",
    async () => {
      const doc = [
        "##Sketch 1 2",
        "document()",
        "layout('A5',1)",
        "layer('Ebene \\xe9',1,1,0,0,(0,0,0))",
        "G()",
        "fp((0,0,1))",
        "lw(2)",
        "ld((1,2))",
        "e(50,0,0,30,100,100)",
        "r(80,0,0,40,200,100,0.2,0.2)",
        "e(40,0,0,40,300,200,0,1.5,arc_type=2)",
        "G_()",
        "Fn('Helvetica-Bold')",
        "Fs(18)",
        "txt('caf\\xe9 \\'quoted\\' \\u263a <&>',(50,300),2)",
        "gizmo(1,[2,3],k='v')",
      ].join("\n");
      const r = await convert("feat.sk", utf8(doc), "svg");
      const path = saved(dataOf(r.out.files[0]!), "svg");
      const got = svgCounts(path);
      expect(got.paths).toBe(3);
      expect(got.texts).toEqual(["café 'quoted' \u263a <&>"]);
      expect(readFileSync(path, "utf8")).toMatch(/stroke-dasharray/);
      expect(r.out.extra?.warnings).toEqual(["feat.sk: line 16: gizmo() is not a call this reader knows; skipped"]);
      // A5 landscape: 595.276 × 419.528 pt
      const pdf = saved(dataOf((await convert("feat.sk", utf8(doc), "pdf")).out.files[0]!), "pdf");
      expect(pdfInfo(pdf)["Page size"]).toMatch(/^595\.\d+ x 419\.\d+ pts/);
    },
    scaled(60_000),
  );
});

describe("hostile Skencil/sK1 input: coded errors or warnings, quickly, nothing outside read", () => {
  const head = "##Sketch 1 2\ndocument()\nlayout('A4',0)\nlayer('L',1,1,0,0,(0,0,0))\n";
  const fast = async (name: string, text: string | Uint8Array, code: TaskErrorCode, match: RegExp) => {
    const started = Date.now();
    const e = await expectTaskError(() => convert(name, typeof text === "string" ? utf8(text) : text, "svg"), code);
    expect(e.message).toMatch(match);
    expect(Date.now() - started).toBeLessThan(20_000);
  };

  it(
    "a file cut short inside a call → OPEN_FAILED naming the line",
    async () => {
      const cut = new TextDecoder().decode(fixture("survex-3dexport.sk")).slice(0, 300);
      await fast("cut.sk", cut, "OPEN_FAILED", /line \d+/);
    },
    scaled(60_000),
  );

  it(
    "a bitmap cut short before its end line → OPEN_FAILED",
    async () => {
      await fast("bm.sk", `${head}bm(1)\niVBORw0KGgo=\n`, "OPEN_FAILED", /no end line/);
    },
    scaled(60_000),
  );

  it(
    "1.2 million path nodes → OVER_BUDGET",
    async () => {
      const bomb = `${head}b()\n${"bs(1,2,0)\n".repeat(1_200_000)}`;
      await fast("bomb.sk", bomb, "OVER_BUDGET", /path nodes/);
    },
    scaled(60_000),
  );

  it(
    "2,000,001 style calls (no node among them) → OVER_BUDGET",
    async () => {
      await fast("calls.sk", `${head}${"le()\n".repeat(2_000_001)}`, "OVER_BUDGET", /calls/);
    },
    scaled(60_000),
  );

  it(
    "groups nested 500 deep → OVER_BUDGET",
    async () => {
      await fast("deep.sk", `${head}${"G()\n".repeat(500)}${"G_()\n".repeat(500)}`, "OVER_BUDGET", /nested/);
    },
    scaled(60_000),
  );

  it(
    "a coordinate of 1e300 → OVER_BUDGET",
    async () => {
      await fast("huge.sk", `${head}b()\nbs(0,0,0)\nbs(1e300,0,0)\n`, "OVER_BUDGET", /beyond/);
    },
    scaled(60_000),
  );

  it(
    "a NUL byte, or a NUL escaped in a string → OPEN_FAILED",
    async () => {
      await fast("nul.sk", `${head}txt('a\0b',(1,1))\n`, "OPEN_FAILED", /NUL/);
      await fast("nul2.sk", `${head}txt('a\\x00b',(1,1))\n`, "OPEN_FAILED", /NUL/);
    },
    scaled(60_000),
  );

  it(
    "Python that is not a literal, and a file without the header → OPEN_FAILED",
    async () => {
      await fast("py.sk", `${head}fp(__import__('os').system('id'))\n`, "OPEN_FAILED", /not a literal/);
      await fast("x.sk1", "document()\nb()\n", "OPEN_FAILED", /##sK1 1 N/);
    },
    scaled(60_000),
  );

  it(
    "bitmaps naming /etc/passwd and file:///etc/passwd are not read: converted with a warning",
    async () => {
      const doc =
        `${head}bm(1,'/etc/passwd')\nim((1,0,0,1,0,0),1)\nbm(2,'file:///etc/passwd')\nim((1,0,0,1,5,5),2)\n` +
        `b()\nbs(0,0,0)\nbs(100,100,0)\nfrobnicate(1,2)\n`;
      const r = await convert("ext.sk", utf8(doc), "svg");
      const svg = new TextDecoder().decode(dataOf(r.out.files[0]!));
      expect(svg).not.toMatch(/root:|passwd|<image/);
      expect(svgCounts(saved(dataOf(r.out.files[0]!), "svg")).paths).toBe(1);
      const warnings = (r.out.extra?.warnings ?? []) as string[];
      expect(warnings.filter((w) => /names a file outside the drawing/.test(w))).toHaveLength(2);
      expect(warnings.some((w) => /frobnicate\(\) is not a call this reader knows/.test(w))).toBe(true);
    },
    scaled(60_000),
  );
});
