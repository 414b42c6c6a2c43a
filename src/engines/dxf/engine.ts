/**
 * The DXF engine (issue 47): DXF drawings drawn as SVG in JavaScript by the npm package `dxf` (5.3.1, MIT) — a
 * cad-kind engine (kinds/cad.ts) in the api Worker and in the browser build, AFTER Inkscape (row "inkscape-cad"),
 * because it draws no text: Inkscape stays the default, and this row takes DXF → svg and → png, jpg, gif, bmp, tiff
 * where the native engine is unavailable (no container, a browser page).
 *
 * What it draws: LINE, POLYLINE, LWPOLYLINE, CIRCLE, ARC, ELLIPSE and SPLINE, through INSERTed blocks, in their
 * layer's or own colour (ACI 7, white, drawn black as on a CAD screen's white sheet). What it does not: TEXT, MTEXT,
 * ATTRIB, ATTDEF (counted and reported in `warnings`), nor SOLID, HATCH, POINT, DIMENSION, 3DFACE (reported too),
 * nor the entities the library does not parse (IMAGE, WIPEOUT, 3DSOLID…). Nothing outside the file is read: the
 * library fetches nothing, an IMAGE entity's file and an XREF block's path are never opened (an XREF block draws
 * its own entities only, which an external reference does not have).
 *
 * Sizes follow the native engine's rule (container/engines/cad.ts): the drawing cropped to what it draws, 210 mm
 * wide; a raster at `pixel_density` dpi (default 150) or `width`/`height` px. A raster is answered as an SVG sized in
 * pixels on a white sheet (`format: "svg"`), which the cad operation draws with the image engine (resvg), so the
 * same renderer that draws every SVG at the edge draws this one.
 *
 * Failures as data: UNSUPPORTED for a file the library cannot read (it throws; or no SECTION, a binary DXF, a DWG),
 * for a drawing with nothing it draws and for coordinates beyond ±1e15; OVER_BUDGET over budget.ts. Both hand the
 * task on (routing.ts HAND_OFF_CODES).
 */
import { parseString, toSVG, type DxfBlock, type DxfEntity, type DxfParsed } from "dxf";
import { CAD_RASTER_OUTPUTS } from "../../../native-protocol/cad";
import { TaskError, toFailure } from "../errors";
import type { CadEngine, CadRequest } from "../kinds/cad";
import { DEFAULT_DXF_BUDGET, type DxfBudget } from "./budget";
import { DXF_ENGINE } from "./version";

/** Entity types the library's toSVG draws. */
const DRAWN = new Set(["LINE", "POLYLINE", "LWPOLYLINE", "CIRCLE", "ARC", "ELLIPSE", "SPLINE"]);
/** Text entity types it parses but never draws. */
export const TEXT_TYPES = ["TEXT", "MTEXT", "ATTRIB", "ATTDEF"] as const;
/** Other entity types it parses but never draws (VIEWPORT and OLE2FRAME draw nothing in model space anyway). */
const UNDRAWN = ["SOLID", "HATCH", "POINT", "DIMENSION", "3DFACE"] as const;
/** Coordinates beyond this (drawing units) are refused: resvg draws in single precision. */
const MAX_COORDINATE = 1e15;
/** Default raster resolution, dpi (the native engine's). */
const DEFAULT_DPI = 150;
/** The width a drawing is fitted to (Inkscape's DXF import "auto", container/engines/cad.ts): 210 mm, in CSS px. */
const PAGE_WIDTH_PX = (210 / 25.4) * 96;

/** Entities by type and points drawn, once every INSERT is expanded. */
interface Expanded {
  types: Map<string, number>;
  points: number;
}

/** The raster options of a request, as kinds/cad.ts `CadRequest.raster` carries them (px, dpi). */
type RasterOptions = NonNullable<CadRequest["raster"]>;

/**
 * The DXF engine for the cad kind: `convert` takes dxf → svg and dxf → png, jpg, gif, bmp, tiff (answered as an SVG
 * sized for the raster, `format: "svg"`, for the operation's image engine), with `warnings` naming the entities it did
 * not draw. Any other output answers UNSUPPORTED.
 * @param budget bounds of one conversion (budget.ts)
 */
export function createDxfEngine(budget: DxfBudget = DEFAULT_DXF_BUDGET): CadEngine<Uint8Array> {
  return {
    async convert(req) {
      try {
        return { ok: true, engineVersion: DXF_ENGINE.version, ...convertDxf(req, budget) };
      } catch (err) {
        return { ok: false, error: toFailure(err), engineVersion: DXF_ENGINE.version };
      }
    },
  };
}

/** UTF-8 decoding, replacing what is not UTF-8: only the text entities' strings may be other bytes, and none is drawn. */
const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false });

function convertDxf(req: CadRequest, budget: DxfBudget): { data: Uint8Array; format?: "svg"; warnings?: string[] } {
  const name = req.input.filename;
  const raster = (CAD_RASTER_OUTPUTS as readonly string[]).includes(req.format);
  if (req.format !== "svg" && !raster)
    throw new TaskError("UNSUPPORTED", `The dxf engine writes SVG and raster images, not ${req.format}.`);
  const data = req.input.data;
  // issue 49: streams are the native row's (its `streamOver`); here a stream is handed on
  if (!(data instanceof Uint8Array))
    throw new TaskError("UNSUPPORTED", `The dxf engine takes ${name} as bytes, not as a stream.`);
  if (data.length > budget.maxBytes)
    throw new TaskError(
      "OVER_BUDGET",
      `${name} is ${data.length} bytes; the dxf engine reads at most ${budget.maxBytes}.`,
    );
  const text = decoder.decode(data);
  sniff(text, name);
  const objects = countObjects(text, budget.maxObjects);
  if (objects > budget.maxObjects)
    throw new TaskError("OVER_BUDGET", `${name} holds over ${budget.maxObjects} objects; the dxf engine reads fewer.`);
  let parsed: DxfParsed;
  try {
    parsed = parseString(text);
  } catch (err) {
    throw new TaskError("UNSUPPORTED", `The dxf engine cannot read ${name}: ${message(err)}`, { cause: err });
  }
  if (!Array.isArray(parsed?.entities))
    throw new TaskError("UNSUPPORTED", `The dxf engine found no ENTITIES section in ${name}.`);
  const expanded = expand(parsed, name);
  if (expanded.points > budget.maxPoints)
    throw new TaskError(
      "OVER_BUDGET",
      `${name} expands to ${expanded.points} points once its blocks are inserted; the dxf engine draws at most ${budget.maxPoints}.`,
    );
  const drawn = [...expanded.types].reduce((n, [t, c]) => n + (DRAWN.has(t) ? c : 0), 0);
  if (drawn === 0)
    throw new TaskError(
      "UNSUPPORTED",
      `${name} has no entity the dxf engine draws (lines, polylines, circles, arcs, ellipses, splines).`,
    );
  let svg: string;
  try {
    svg = toSVG(parsed);
  } catch (err) {
    throw new TaskError("UNSUPPORTED", `The dxf engine cannot draw ${name}: ${message(err)}`, { cause: err });
  }
  if (svg.length > budget.maxSvgBytes)
    throw new TaskError(
      "OVER_BUDGET",
      `${name} draws to an SVG over ${budget.maxSvgBytes} bytes; the dxf engine writes less.`,
    );
  const out = sized(svg, name, raster ? (req.raster ?? {}) : undefined, budget);
  const warnings = undrawn(expanded.types);
  return {
    data: new TextEncoder().encode(out),
    ...(raster ? { format: "svg" as const } : {}),
    ...(warnings.length ? { warnings } : {}),
  };
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Checks `text` is an ASCII DXF (group code 0 then SECTION near its start, after any 999 comments), as the native
 * engine's sniffDxf does. @throws TaskError UNSUPPORTED for a binary DXF, a DWG, or anything else
 */
function sniff(text: string, name: string): void {
  const head = text.slice(0, 4096);
  if (head.startsWith("AutoCAD Binary DXF"))
    throw new TaskError("UNSUPPORTED", `${name} is a binary DXF, which the dxf engine does not read.`);
  if (!/^\uFEFF?(?:\s*999\s*\r?\n[^\n]*\n)*\s*0\s*\r?\n\s*SECTION\s*\r?\n/.test(head))
    throw new TaskError("UNSUPPORTED", `${name} is not an ASCII DXF drawing (no SECTION at its start).`);
}

/** The objects of DXF `text` (code lines "0", every other line from the first), counting no further than `cap` + 1. */
export function countObjects(text: string, cap: number): number {
  let n = 0;
  let pos = 0;
  let code = true;
  while (pos < text.length) {
    let end = text.indexOf("\n", pos);
    if (end < 0) end = text.length;
    if (code && text.slice(pos, end).trim() === "0" && ++n > cap) return n;
    code = !code;
    pos = end + 1;
  }
  return n;
}

/** Points an entity adds to the drawing (the SVG's size follows them). */
function pointsOf(e: DxfEntity): number {
  if (e.type === "LINE") return 2;
  if (Array.isArray(e.vertices)) return Math.max(1, e.vertices.length);
  // a SPLINE of degree other than 2 or 3 is interpolated: more points than control points
  if (Array.isArray(e.controlPoints)) return Math.max(1, e.controlPoints.length * 8);
  return 1;
}

/**
 * The entities of model space by type, and their points, with every INSERT replaced by its block's content times its
 * array (rows × columns), computed without expanding anything (a block inserted 1,000 times in a block inserted 1,000
 * times is counted, not made). An INSERT of a missing block adds nothing, as the library draws it.
 * @throws TaskError UNSUPPORTED when a block inserts itself (the library would recurse without end)
 */
function expand(parsed: DxfParsed, name: string): Expanded {
  const blocks = new Map<string, DxfBlock>((parsed.blocks ?? []).map((b) => [b.name, b]));
  const memo = new Map<string, Expanded>();
  const open = new Set<string>();
  const ofBlock = (block: string): Expanded | undefined => {
    const b = blocks.get(block);
    if (!b) return undefined;
    const known = memo.get(block);
    if (known) return known;
    if (open.has(block)) throw new TaskError("UNSUPPORTED", `${name}: block "${block}" inserts itself.`);
    open.add(block);
    const r = ofEntities(b.entities ?? []);
    open.delete(block);
    memo.set(block, r);
    return r;
  };
  const ofEntities = (entities: DxfEntity[]): Expanded => {
    const r: Expanded = { types: new Map(), points: 0 };
    for (const e of entities) {
      if (e.type === "INSERT") {
        const inner = e.block === undefined ? undefined : ofBlock(e.block);
        if (!inner) continue;
        const times = Math.max(0, e.rowCount ?? 1) * Math.max(0, e.columnCount ?? 1);
        for (const [t, n] of inner.types) r.types.set(t, (r.types.get(t) ?? 0) + n * times);
        r.points += inner.points * times;
      } else {
        r.types.set(e.type, (r.types.get(e.type) ?? 0) + 1);
        r.points += pointsOf(e);
      }
    }
    return r;
  };
  return ofEntities(parsed.entities);
}

/** The warnings of a drawing: its text entities, then its other undrawn entities, by type with their counts. */
function undrawn(types: Map<string, number>): string[] {
  const list = (names: readonly string[]) =>
    names
      .filter((t) => (types.get(t) ?? 0) > 0)
      .map((t) => `${types.get(t)} ${t}`)
      .join(", ");
  const textCount = TEXT_TYPES.reduce((n, t) => n + (types.get(t) ?? 0), 0);
  const out: string[] = [];
  if (textCount > 0)
    out.push(
      `Text was not drawn: the dxf engine draws no text entities, and this drawing has ${textCount} (${list(TEXT_TYPES)}).`,
    );
  const other = list(UNDRAWN);
  if (other) out.push(`Not drawn by the dxf engine: ${other}.`);
  return out;
}

/**
 * The library's SVG made a document of a definite size: its viewBox (the drawn extent) kept, widened where the
 * drawing is a line (zero width or height); 210 mm wide for the svg output; for a raster (`raster` given) sized in
 * pixels by the native engine's rule on a white sheet. ACI colour 7 (white) is drawn black.
 * @throws TaskError UNSUPPORTED (no drawn extent, coordinates beyond ±1e15), OVER_BUDGET (a raster over the budget)
 */
function sized(svg: string, name: string, raster: RasterOptions | undefined, budget: DxfBudget): string {
  const m = /viewBox="([^"]*)"/.exec(svg.slice(0, 2000));
  let [x, y, w, h] = (m?.[1] ?? "").split(/\s+/).map(Number) as [number, number, number, number];
  if (![x, y, w, h].every(Number.isFinite) || !(w > 0 || h > 0))
    throw new TaskError(
      "UNSUPPORTED",
      `${name} draws nothing the dxf engine can size (its extent is ${m?.[1] ?? "none"}).`,
    );
  if ([x, y, x + w, y + h].some((v) => Math.abs(v) > MAX_COORDINATE))
    throw new TaskError(
      "UNSUPPORTED",
      `${name} has coordinates beyond ±${MAX_COORDINATE}, which the dxf engine does not draw.`,
    );
  // a drawing that is one straight line: 1% of its length across, so it has an area to draw
  if (!(w > 0)) [x, w] = [x - h / 200, h / 100];
  if (!(h > 0)) [y, h] = [y - w / 200, w / 100];
  const viewBox = `viewBox="${x} ${y} ${w} ${h}"`;
  let size: string;
  let sheet = "";
  if (raster) {
    const px = rasterSize(raster, { w: PAGE_WIDTH_PX, h: (PAGE_WIDTH_PX * h) / w }, name, budget);
    const stretch = raster.width && raster.height ? ` preserveAspectRatio="none"` : "";
    size = `width="${px.width}" height="${px.height}"${stretch}`;
    sheet = `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#ffffff"/>\n  `;
  } else {
    size = `width="210mm" height="${+((210 * h) / w).toPrecision(12)}mm"`;
  }
  let out = svg
    .replace(/viewBox="[^"]*"/, viewBox)
    .replace(/width="100%" height="100%"/, size)
    .replaceAll(`stroke="rgb(255, 255, 255)"`, `stroke="rgb(0, 0, 0)"`);
  if (raster?.width && raster.height) out = out.replace(/preserveAspectRatio="[^"]*"/, "");
  if (sheet) out = out.replace(/(<svg[^>]*>\s*)/, `$1${sheet}`);
  return out;
}

/**
 * A raster's width/height in pixels for `o` and the drawing's extent `e` (CSS px): both given, one given (the other
 * follows the drawing), or `pixel_density` dpi (default 150) of the extent. @throws TaskError OVER_BUDGET
 */
function rasterSize(
  o: RasterOptions,
  e: { w: number; h: number },
  name: string,
  budget: DxfBudget,
): { width: number; height: number } {
  let width: number;
  let height: number;
  if (o.width && o.height) [width, height] = [o.width, o.height];
  else if (o.width) [width, height] = [o.width, Math.max(1, Math.round((o.width * e.h) / e.w))];
  else if (o.height) [width, height] = [Math.max(1, Math.round((o.height * e.w) / e.h)), o.height];
  else {
    const scale = (o.pixel_density ?? DEFAULT_DPI) / 96;
    [width, height] = [Math.max(1, Math.round(e.w * scale)), Math.max(1, Math.round(e.h * scale))];
  }
  if (width > budget.maxSide || height > budget.maxSide || width * height > budget.maxPixels)
    throw new TaskError(
      "OVER_BUDGET",
      `${name} would be drawn at ${width} × ${height} px; the dxf engine draws at most ${budget.maxSide} px a side and ${budget.maxPixels / 1e6} Mpx. Ask for a smaller width, height or pixel_density.`,
    );
  return { width, height };
}
