/**
 * The dxf engine (issue 47: CAD at the edge and in the browser) through the convert operation with the Node engines
 * (dxf, then resvg and ImageMagick for rasters), on the corpus's DXF drawings, written by others: FreeCAD 0.19's R12
 * schematic (tika-testDXF_ascii.dxf: POLYLINE 654, TEXT 376, LINE 189, CIRCLE 9, SOLID 6 by ezdxf, facts.json) and
 * LibreCAD's Tux (librecad-tux.dxf: AutoCAD 2000, which the library cannot parse). Oracles outside our code:
 * Python's ElementTree parsing the SVG, a small DXF reader here (the extent of the drawn entities from their group
 * codes, bulged polyline segments sampled on their arcs), ezdxf's entity counts in facts.json, Inkscape's own DXF
 * import (dxf_input.py, run directly) drawing the same paths, ImageMagick's identify (format, size, ink), pdfinfo
 * nowhere (pdf is not this engine's: Inkscape's). Hostile inputs: truncated, garbage, binary DXF, a million entities,
 * a block inserted a million times, a block inserting itself, absurd coordinates and extents, IMAGE/XREF references.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_DXF_BUDGET } from "../../src/engines/dxf/budget";
import { createDxfEngine } from "../../src/engines/dxf/engine";
import type { CadEngine } from "../../src/engines/kinds/cad";
import { engineRow } from "../../src/engines/registry";
import { enginesFor } from "../../src/engines/routing";
import { execute } from "../../src/runner/execute";
import { nodeEngines } from "../../src/runtime/node/engines";
import { identifyFile } from "../support/cad-oracles";
import { corpusPath, fact } from "../support/corpus";
import { tempFile } from "../support/native";

/** `data` written to a file of its own named x.`ext`; its path. */
const tmp = (data: Uint8Array, ext: string) => tempFile(`x.${ext}`, data);
import { bytesInput, dataOf, testContext } from "../support/pdf-helpers";

const TIKA = "cad/tika-testDXF_ascii.dxf";
const TUX = "cad/librecad-tux.dxf";
const ctx = () => testContext({ engines: nodeEngines(["cloudflare", "dxf", "resvg", "imagemagick"]) });
const corpus = (rel: string) => new Uint8Array(readFileSync(corpusPath(rel)));
const convert = (name: string, data: Uint8Array, format: string, extra: Record<string, unknown> = {}) =>
  execute("convert", { output_format: format, ...extra }, [bytesInput(name, data)], ctx());
const engine = createDxfEngine();
const dxfText = (s: string) => new TextEncoder().encode(s);
const warningsOf = (r: { out: { extra?: Record<string, unknown> } }) =>
  ((r.out.extra?.warnings as string[] | undefined) ?? []).join(" ");

/** Element counts of an SVG by tag, and its root's attributes, as Python's ElementTree parses it (throws on bad XML). */
function parseSvg(svg: Uint8Array): { tags: Record<string, number>; root: Record<string, string>; rootTag: string } {
  const py = `import json, sys, collections, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
tags = collections.Counter(e.tag.split('}')[-1] for e in root.iter())
print(json.dumps({"tags": tags, "root": root.attrib, "rootTag": root.tag}))`;
  const r = spawnSync("python3", ["-c", py, tmp(svg, "svg")], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`ElementTree: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/**
 * The extent (min x, min y, max x, max y) of the entities the engine draws in a DXF's ENTITIES section: LINE ends,
 * CIRCLE centre ± radius, POLYLINE/VERTEX and LWPOLYLINE vertices, each bulged segment sampled on its arc (DXF
 * reference: bulge = tan(sweep / 4), positive counter-clockwise). Code/value line pairs, read here independently.
 */
function drawnExtent(text: string): [number, number, number, number] {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const pts: [number, number][] = [];
  let type = "";
  let section = "";
  let f: Record<string, number> = {};
  let poly: { x: number; y: number; b: number }[] = [];
  let closed = false;
  const arc = (p: { x: number; y: number; b: number }, q: { x: number; y: number }) => {
    pts.push([p.x, p.y], [q.x, q.y]);
    if (!p.b) return;
    const theta = 4 * Math.atan(p.b);
    const [dx, dy] = [q.x - p.x, q.y - p.y];
    const c = Math.hypot(dx, dy);
    const r = c / (2 * Math.abs(Math.sin(theta / 2)));
    // the centre: on the chord's perpendicular bisector, to the left of p → q for a counter-clockwise arc
    const d = Math.sqrt(Math.max(0, r * r - (c / 2) ** 2)) * (Math.abs(theta) > Math.PI ? -1 : 1);
    const s = Math.sign(p.b);
    const [cx, cy] = [(p.x + q.x) / 2 - (s * d * dy) / c, (p.y + q.y) / 2 + (s * d * dx) / c];
    const a0 = Math.atan2(p.y - cy, p.x - cx);
    for (let i = 1; i < 2000; i++) {
      const a = a0 + (theta * i) / 2000;
      pts.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
    }
  };
  const endPoly = () => {
    for (let i = 0; i + 1 < poly.length; i++) arc(poly[i]!, poly[i + 1]!);
    if (closed && poly.length > 1) arc(poly[poly.length - 1]!, poly[0]!);
    poly = [];
  };
  const endEntity = () => {
    if (type === "LINE") pts.push([f[10]!, f[20]!], [f[11]!, f[21]!]);
    if (type === "CIRCLE") pts.push([f[10]! - f[40]!, f[20]! - f[40]!], [f[10]! + f[40]!, f[20]! + f[40]!]);
    if (type === "VERTEX") poly.push({ x: f[10]!, y: f[20]!, b: f[42] ?? 0 });
    if (type === "POLYLINE") closed = ((f[70] ?? 0) & 1) === 1;
  };
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const [code, value] = [Number(lines[i]), lines[i + 1]!];
    if (code === 0) {
      if (section === "ENTITIES") endEntity();
      if (value === "SEQEND") endPoly();
      if (value === "ENDSEC") section = "";
      type = value;
      f = {};
    } else if (code === 2 && type === "SECTION") section = value;
    else f[code] = Number(value);
  }
  return pts.reduce<[number, number, number, number]>(
    (b, [x, y]) => [Math.min(b[0], x), Math.min(b[1], y), Math.max(b[2], x), Math.max(b[3], y)],
    [Infinity, Infinity, -Infinity, -Infinity],
  );
}

/** Paths Inkscape's DXF import (dxf_input.py, run directly by Debian's python3) draws from `path`, outside <defs>. */
function inkscapePaths(path: string): number {
  const svg = tmp(new Uint8Array(), "svg");
  const r = spawnSync(
    "/usr/bin/python3",
    ["/usr/share/inkscape/extensions/dxf_input.py", "--scalemethod=auto", `--output=${svg}`, path],
    { env: { ...process.env, PYTHONPATH: "/usr/share/inkscape/extensions" } },
  );
  expect(r.status, r.stderr?.toString()).toBe(0);
  const text = readFileSync(svg, "utf8").replace(/<defs[\s\S]*?<\/defs>/g, "");
  return text.split("<path").length - 1;
}

/** ImageMagick's mean brightness of an image (0 black … 1 white). */
const meanOf = (data: Uint8Array, ext: string) =>
  Number(spawnSync("convert", [tmp(data, ext), "-format", "%[fx:mean]", "info:"], { encoding: "utf8" }).stdout);

describe("the dxf row", () => {
  it("comes after Inkscape for DXF: the native engine stays first, dxf is the fallback; no pdf (Inkscape's vectors)", () => {
    const names = (output: string) =>
      enginesFor({ kind: "cad", operation: "convert", input: "dxf", output }).map((r) => r.name);
    for (const output of ["svg", "png", "jpg", "gif", "bmp", "tiff"])
      expect(names(output)).toEqual(["inkscape-cad", "dxf"]);
    for (const output of ["pdf", "eps", "emf", "dxf"]) expect(names(output)).toEqual(["inkscape-cad"]);
    expect(enginesFor({ kind: "cad", operation: "convert", input: "dwg", output: "svg" }).map((r) => r.name)).toEqual([
      "inkscape-cad",
    ]);
    expect(engineRow("dxf")).toMatchObject({
      kind: "cad",
      placement: "in-worker",
      budget: { maxBytes: DEFAULT_DXF_BUDGET.maxBytes },
    });
  });
});

describe("dxf engine on the corpus", () => {
  const text = readFileSync(corpusPath(TIKA), "latin1");
  const types = fact(TIKA).modelspace_entity_types as Record<string, number>;
  const [x0, y0, x1, y1] = drawnExtent(text);

  it("dxf → svg: XML, the drawn extent as viewBox, one path per LINE/POLYLINE and a circle per CIRCLE (ezdxf's counts), as many as Inkscape draws less the SOLIDs; TEXT counted in warnings", async () => {
    const r = await convert("tika.dxf", corpus(TIKA), "svg");
    expect(r.engine.name).toBe("dxf");
    const svg = dataOf(r.out.files[0]!);
    const { tags, root, rootTag } = parseSvg(svg);
    expect(rootTag).toBe("{http://www.w3.org/2000/svg}svg");
    const [vx, vy, vw, vh] = root.viewBox!.split(" ").map(Number) as [number, number, number, number];
    // y is flipped (SVG's y down): the viewBox's top is -max y
    const tol = 0.002 * Math.max(x1 - x0, y1 - y0);
    expect(Math.abs(vx - x0)).toBeLessThan(tol);
    expect(Math.abs(vy + y1)).toBeLessThan(tol);
    expect(Math.abs(vx + vw - x1)).toBeLessThan(tol);
    expect(Math.abs(vy + vh + y0)).toBeLessThan(tol);
    // 210 mm wide, as the native engine fits a drawing; height in proportion
    expect(root.width).toBe("210mm");
    expect(parseFloat(root.height!)).toBeCloseTo((210 * vh) / vw, 3);
    expect(tags.path).toBe(types.LINE! + types.POLYLINE!);
    expect(tags.circle).toBe(types.CIRCLE);
    expect(tags.text ?? 0).toBe(0);
    expect(tags.path! + tags.circle!).toBe(inkscapePaths(corpusPath(TIKA)) - types.SOLID!);
    const warnings = warningsOf(r);
    expect(warnings).toContain(`this drawing has ${types.TEXT} (${types.TEXT} TEXT)`);
    expect(warnings).toContain(`${types.SOLID} SOLID`);
  });

  it("dxf → png: the native engine's size rule (210 mm at 150 dpi, height in proportion), white sheet with ink", async () => {
    const r = await convert("tika.dxf", corpus(TIKA), "png");
    expect(r.engine.name).toBe("dxf");
    const png = dataOf(r.out.files[0]!);
    const id = identifyFile(tmp(png, "png"));
    const width = Math.round((210 / 25.4) * 150);
    expect(id).toMatchObject({ format: "PNG", width, height: Math.round((width * (y1 - y0)) / (x1 - x0)) });
    expect(id.mean).toBeGreaterThan(0.8); // a white sheet…
    expect(id.mean).toBeLessThan(0.995); // …with lines on it
    expect(warningsOf(r)).toContain("376 TEXT");
  });

  it("dxf → jpg, gif, bmp, tiff: the same picture in each format; width/pixel_density size it", async () => {
    for (const [format, magick] of [
      ["jpg", "JPEG"],
      ["gif", "GIF"],
      ["bmp", "BMP"],
      ["tiff", "TIFF"],
    ] as const) {
      const r = await convert("tika.dxf", corpus(TIKA), format);
      const data = dataOf(r.out.files[0]!);
      expect(identifyFile(tmp(data, format))).toMatchObject({ format: magick, width: 1240 });
      expect(meanOf(data, format)).toBeLessThan(0.995);
    }
    const small = await convert("tika.dxf", corpus(TIKA), "png", { width: 400 });
    expect(identifyFile(tmp(dataOf(small.out.files[0]!), "png")).width).toBe(400);
    const box = await convert("tika.dxf", corpus(TIKA), "png", { width: 500, height: 500 });
    expect(identifyFile(tmp(dataOf(box.out.files[0]!), "png"))).toMatchObject({ width: 500, height: 500 });
    const low = await convert("tika.dxf", corpus(TIKA), "png", { pixel_density: 75 });
    expect(identifyFile(tmp(dataOf(low.out.files[0]!), "png")).width).toBe(620);
  });

  it("the native row first; when it answers ENGINE_UNAVAILABLE (no container), the task hands on to dxf", async () => {
    const calls: string[] = [];
    const down: CadEngine = {
      convert: async (req) => (
        calls.push(req.format),
        {
          ok: false,
          error: { code: "ENGINE_UNAVAILABLE", message: "The native engine is not reachable.", retryable: true },
          engineVersion: "1.2",
        }
      ),
    };
    const engines = { ...nodeEngines(["cloudflare", "dxf", "resvg", "imagemagick"]), "inkscape-cad": down };
    const r = await execute(
      "convert",
      { output_format: "png" },
      [bytesInput("t.dxf", corpus(TIKA))],
      testContext({ engines }),
    );
    expect(calls).toEqual(["png"]);
    expect(r.engine.name).toBe("dxf");
    expect(identifyFile(tmp(dataOf(r.out.files[0]!), "png")).width).toBe(1240);
  });

  it("LibreCAD's Tux, which the library cannot parse (a TypeError), is handed on UNSUPPORTED, never a crash", async () => {
    const r = await engine.convert({ input: { data: corpus(TUX), filename: "tux.dxf" }, format: "svg" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe("UNSUPPORTED");
    await expect(convert("tux.dxf", corpus(TUX), "png")).rejects.toMatchObject({ code: "UNSUPPORTED" });
  });
});

/** A DXF of `entities` (group code/value text) in an ENTITIES section, after a BLOCKS section of `blocks`. */
const dxf = (entities: string, blocks = "") =>
  `0\nSECTION\n2\nBLOCKS\n${blocks}0\nENDSEC\n0\nSECTION\n2\nENTITIES\n${entities}0\nENDSEC\n0\nEOF\n`;
const line = (a: [number, number], b: [number, number]) =>
  `0\nLINE\n8\n0\n10\n${a[0]}\n20\n${a[1]}\n30\n0\n11\n${b[0]}\n21\n${b[1]}\n31\n0\n`;

describe("dxf engine: hostile and odd drawings", () => {
  const run = (s: string | Uint8Array, format: "svg" | "png" = "svg", budget = DEFAULT_DXF_BUDGET) =>
    createDxfEngine(budget).convert({
      input: { data: typeof s === "string" ? dxfText(s) : s, filename: "x.dxf" },
      format,
    });
  const codeOf = async (p: ReturnType<typeof run>) => {
    const r = await p;
    return r.ok ? "ok" : r.error.code;
  };

  it("truncated, garbage, binary DXF and DWG: a drawing of what is there or UNSUPPORTED, never INTERNAL_ERROR", async () => {
    const tika = corpus(TIKA);
    for (const cut of [0.1, 0.5, 0.9]) {
      expect(["ok", "UNSUPPORTED"]).toContain(await codeOf(run(tika.subarray(0, Math.floor(tika.length * cut)))));
    }
    const garbage = new Uint8Array(65536).map((_, i) => (i * 2654435761) >>> 24);
    expect(await codeOf(run(garbage))).toBe("UNSUPPORTED");
    expect(await codeOf(run("AutoCAD Binary DXF\r\n\x1a\0" + "\0".repeat(100)))).toBe("UNSUPPORTED");
    expect(await codeOf(run(new Uint8Array(readFileSync(corpusPath("cad/tika-testDWG2004.dwg")))))).toBe("UNSUPPORTED");
    // a drawing of text only: nothing this engine draws, so Inkscape's (UNSUPPORTED hands on), never an empty picture
    expect(await codeOf(run(dxf("0\nTEXT\n8\n0\n10\n0\n20\n0\n40\n1\n1\nhello\n")))).toBe("UNSUPPORTED");
  });

  it("a million entities, a block inserted a million times, a block inserting itself: bounded before drawing", async () => {
    const million = "0\nLINE\n".repeat(1_000_000);
    expect(await codeOf(run(dxf(million)))).toBe("OVER_BUDGET"); // 7 MB: over the byte budget
    expect(await codeOf(run(dxf(million), "svg", { ...DEFAULT_DXF_BUDGET, maxBytes: 64 << 20 }))).toBe("OVER_BUDGET");
    const block = `0\nBLOCK\n2\nB\n10\n0\n20\n0\n${line([0, 0], [1, 1])}0\nENDBLK\n`;
    const insert = `0\nINSERT\n8\n0\n2\nB\n10\n0\n20\n0\n70\n1000\n71\n1000\n44\n2\n45\n2\n`;
    const started = performance.now();
    expect(await codeOf(run(dxf(insert, block)))).toBe("OVER_BUDGET");
    expect(performance.now() - started).toBeLessThan(2000);
    const loop = `0\nBLOCK\n2\nL\n10\n0\n20\n0\n${line([0, 0], [1, 1])}0\nINSERT\n8\n0\n2\nL\n10\n1\n20\n1\n0\nENDBLK\n`;
    expect(await codeOf(run(dxf(`0\nINSERT\n8\n0\n2\nL\n10\n0\n20\n0\n`, loop)))).toBe("UNSUPPORTED");
  });

  it("absurd coordinates and extents give a bounded raster, or UNSUPPORTED/OVER_BUDGET", async () => {
    const size = async (s: string, options: Record<string, number> = {}) => {
      const r = await convert("x.dxf", dxfText(s), "png", options);
      return identifyFile(tmp(dataOf(r.out.files[0]!), "png"));
    };
    // a drawing spanning 2e12 units: 210 mm at 150 dpi, like any other
    expect(await size(dxf(line([-1e12, -1e12], [1e12, 1e12]) + line([0, 0], [1, 0])))).toMatchObject({
      width: 1240,
      height: 1240,
    });
    // a horizontal line: no height, drawn on a sheet 1% of its length high
    expect(await size(dxf(line([0, 0], [1e9, 0])))).toMatchObject({ width: 1240, height: 12 });
    // a drawing 10^7 times taller than wide: over the raster budget unless sized down
    expect(await codeOf(run(dxf(line([0, 0], [1, 1e7])), "png"))).toBe("OVER_BUDGET");
    // coordinates beyond single precision's reach (1e300, Infinity): not drawn
    expect(await codeOf(run(dxf(line([0, 0], [1e300, 1]))))).toBe("UNSUPPORTED");
    expect(await codeOf(run(dxf(line([0, 0], [1e400, 1]))))).toBe("UNSUPPORTED");
    // a width over the budget's side
    expect(
      await codeOf(
        createDxfEngine().convert({
          input: { data: dxfText(dxf(line([0, 0], [1, 1]))), filename: "x.dxf" },
          format: "png",
          raster: { width: 30_001 },
        }),
      ),
    ).toBe("OVER_BUDGET");
  });

  it("a drawing sent as a stream (issue 49: the native row's) is UNSUPPORTED here, handed on", async () => {
    const data = dxfText(dxf(line([0, 0], [1, 1])));
    const r = await createDxfEngine().convert({
      input: { data: { stream: new Blob([data]).stream(), length: data.length }, filename: "x.dxf" },
      format: "svg",
    });
    expect(await codeOf(Promise.resolve(r))).toBe("UNSUPPORTED");
  });

  it("IMAGE entities and XREF blocks are not followed: nothing of the named files reaches the SVG", async () => {
    const xref = `0\nBLOCK\n2\nX\n70\n4\n10\n0\n20\n0\n1\n/etc/passwd\n0\nENDBLK\n`;
    const image = `0\nIMAGE\n8\n0\n10\n0\n20\n0\n340\n1F\n1\nfile:///etc/passwd\n`;
    const s = dxf(`${line([0, 0], [10, 10])}${image}0\nINSERT\n8\n0\n2\nX\n10\n0\n20\n0\n`, xref);
    const r = await run(s);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const svg = new TextDecoder().decode(r.data);
    expect(svg).not.toMatch(/passwd|<image|href=/);
    expect(parseSvg(r.data).tags.path).toBe(1);
  });
});
