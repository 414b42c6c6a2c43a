/**
 * CAD drawings (issue 33): DXF read by Inkscape 1.2's own DXF import (its dxf_input.py extension, run
 * with Debian's python3 and inkex), scaled to fit a page ("auto") and cropped to what it draws, then
 * written by Inkscape's exports (PDF with text as text, SVG, EPS, EMF, WMF, PNG) and ImageMagick for
 * the other raster formats. Measured on the corpus against LibreOffice Draw's DXF import, which drew
 * the LibreCAD Tux at its true size (a dot on an A4 page) and is the office engine's pool; Inkscape
 * took 0.3 s (import) + ~1 s (export) a drawing, layers and text kept (pdftotext finds the R12
 * drawing's labels). DWG (R13 to 2018): Debian 12 has no DWG reader, so LibreDWG 0.13 compiled to
 * WebAssembly (npm @mlightcad/libredwg-web, GPL-3.0, run as its own Node process: cad/dwg_to_dxf.ts) writes
 * the drawing as DXF first, which then takes the DXF path; dwg → dxf is that DXF, dwg → dwg the drawing as
 * it came once LibreDWG has read it (the build writes no DWG, so dxf → dwg is not offered). dxf → dxf: the
 * drawing read and written again by ezdxf (Debian's python3-ezdxf, cad/dxf_resave.py; LibreDWG's WebAssembly
 * build has no DXF reader), in the DXF version it came in.
 *
 * Files (issue 49): the engine takes files (`files: true`): a drawing the Worker streams (over the row's `streamOver`)
 * is in the call's folder already and is moved to in.dxf / in.dwg (only its first bytes are read here, to tell DXF
 * from DWG), and every output goes back as a file, streamed from disk on a framed call.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  CAD_OUTPUTS,
  CAD_RASTER_OUTPUTS,
  DWG_EXTRA_OUTPUTS,
  DXF_EXTRA_OUTPUTS,
  type CadRequest,
} from "../../native-protocol/cad.ts";
import type { LocalFile } from "../../native-protocol/frame.ts";
import { UNO_PYTHON, which } from "../tools.ts";
import {
  NativeError,
  check,
  fileOf,
  head,
  localFile,
  place,
  run,
  tool,
  why,
  type NativeCall,
  type NativeEngineDef,
} from "./common.ts";
import { checkInkscape } from "./inkscape.ts";

/** Inkscape's DXF import extension (Debian's inkscape package). */
export const DXF_INPUT = "/usr/share/inkscape/extensions/dxf_input.py";
/** The DWG → DXF program (LibreDWG in WebAssembly), run by the server's own Node. */
export const DWG_TO_DXF = fileURLToPath(new URL("./cad/dwg_to_dxf.ts", import.meta.url));
/** The DXF → DXF program (ezdxf), run by Debian's python3. */
export const DXF_RESAVE = fileURLToPath(new URL("./cad/dxf_resave.py", import.meta.url));
/** The drawing's scale from its entities' extents (ezdxf), for Inkscape's DXF import. */
export const DXF_EXTENTS = fileURLToPath(new URL("./cad/dxf_extents.py", import.meta.url));
/** Codes dwg_to_dxf.ts prints as "CODE: message" on stderr. */
const DWG_CODES = new Set(["OPEN_FAILED", "UNSUPPORTED"]);
/** Node's own JavaScript heap for dwg_to_dxf.ts, MB (the drawing lives in the WebAssembly memory). */
const DWG_JS_HEAP_MB = 256;
/** Default raster resolution, dpi, when neither width/height nor pixel_density is given. */
const DEFAULT_DPI = 150;
/** The largest raster written: pixels per side and in all. */
const MAX_SIDE = 30_000;
const MAX_PIXELS = 100_000_000;

/** The drawing's extent in CSS px (Inkscape's --query-all first line: id,x,y,width,height). */
async function extent(call: NativeCall, inkscape: string): Promise<{ w: number; h: number }> {
  const r = await run(call, inkscape, ["--query-all", "drawing.svg"]);
  checkInkscape(
    r,
    "The drawing",
    (t) => new NativeError("CONVERSION_FAILED", `Inkscape could not measure the drawing: ${why(t)}`),
  );
  const first = r.stdout.split("\n")[0]?.split(",") ?? [];
  return { w: Number(first[3] ?? 0), h: Number(first[4] ?? 0) };
}

/** The raster's width/height in pixels for `req` and the drawing's extent. @throws NativeError OVER_BUDGET */
function rasterSize(req: CadRequest, e: { w: number; h: number }): { width: number; height: number } {
  const o = req.raster ?? {};
  let width: number;
  let height: number;
  if (o.width && o.height) [width, height] = [o.width, o.height];
  else if (o.width) [width, height] = [o.width, Math.max(1, Math.round((o.width * e.h) / e.w))];
  else if (o.height) [width, height] = [Math.max(1, Math.round((o.height * e.w) / e.h)), o.height];
  else {
    const scale = (o.pixel_density ?? DEFAULT_DPI) / 96;
    [width, height] = [Math.max(1, Math.round(e.w * scale)), Math.max(1, Math.round(e.h * scale))];
  }
  if (width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS)
    throw new NativeError(
      "OVER_BUDGET",
      `The drawing would be ${width} × ${height} px; the CAD engine writes at most ${MAX_SIDE} px a side and ${MAX_PIXELS / 1e6} Mpx. Ask for a smaller width, height or pixel_density.`,
    );
  return { width, height };
}

/**
 * Checks `data` is an ASCII DXF (group code 0 then SECTION near its start, after any 999 comments).
 * @throws NativeError UNSUPPORTED for a binary DXF, OPEN_FAILED for anything else
 */
export function sniffDxf(data: Uint8Array, filename: string): void {
  const head = new TextDecoder("latin1").decode(data.subarray(0, 4096));
  if (head.startsWith("AutoCAD Binary DXF"))
    throw new NativeError("UNSUPPORTED", `${filename} is a binary DXF; save it as an ASCII DXF.`);
  if (!/^(?:\s*999\s*\r?\n[^\n]*\n)*\s*0\s*\r?\n\s*SECTION\s*\r?\n/.test(head))
    throw new NativeError("OPEN_FAILED", `${filename} is not a DXF drawing (no SECTION at its start).`);
}

/** Whether `data` starts with a DWG version string ("AC1018", "AC2.10", "MC0.0"…), as AutoCAD writes it. */
export function isDwg(data: Uint8Array): boolean {
  const head = new TextDecoder("latin1").decode(data.subarray(0, 6));
  return /^AC[0-9.]{4}$/.test(head) || head.startsWith("MC0.0");
}

/**
 * Writes the DWG `data` (bytes, or a file of the call's folder) as in.dxf through LibreDWG (cad/dwg_to_dxf.ts) under the call's time limit and a
 * data-segment limit of the call's memory (RLIMIT_DATA, as for calibre: an address-space limit would stop
 * V8 reserving the WebAssembly memory at all).
 * @throws NativeError OPEN_FAILED (damaged DWG), UNSUPPORTED (a version LibreDWG does not read), TIMEOUT
 */
async function dwgToDxf(call: NativeCall, data: Uint8Array | LocalFile, filename: string): Promise<void> {
  const node = tool(call, "libredwg").path;
  await place(call, "in.dwg", data);
  // Liftoff only: TurboFan's tier-up of the 9.5 MB module took a minute and over 2 GB on a loaded host
  // (measured: "Fatal process out of memory: Zone" under RLIMIT_DATA 2 GiB); Liftoff alone converts a corpus
  // drawing in 0.6 s and 150 MB
  const args = [`--max-old-space-size=${DWG_JS_HEAP_MB}`, "--liftoff-only", DWG_TO_DXF, "in.dwg", "in.dxf"];
  const prlimit = which("prlimit");
  const r = prlimit
    ? await run(call, prlimit, [`--data=${call.memoryBytes}`, "--", node, ...args], { memoryBytes: 0 })
    : await run(call, node, args);
  check(r, "LibreDWG", (text) => {
    const m = /^([A-Z_]+): (.*)$/m.exec(text);
    if (m && DWG_CODES.has(m[1]!)) return new NativeError(m[1]!, `${filename}: ${m[2]}`);
    return new NativeError("OPEN_FAILED", `LibreDWG could not read ${filename}: ${why(text)}`);
  });
  if (!existsSync(`${call.work}/in.dxf`))
    throw new NativeError("OPEN_FAILED", `LibreDWG wrote no DXF for ${filename}.`);
}

/**
 * DXF → DXF: in.dxf read and written again as out.dxf by ezdxf (cad/dxf_resave.py) under the call's limits.
 * @throws NativeError OPEN_FAILED (a DXF ezdxf cannot read or repair), TIMEOUT, ENGINE_UNAVAILABLE (no ezdxf)
 */
async function resaveDxf(call: NativeCall, filename: string): Promise<LocalFile> {
  const python = tool(call, "ezdxf").path;
  const r = await run(call, python, [DXF_RESAVE, "in.dxf", "out.dxf"]);
  check(r, "ezdxf", (text) => {
    const m = /^OPEN_FAILED: (.*)$/m.exec(text);
    return new NativeError("OPEN_FAILED", `ezdxf could not read ${filename}: ${m ? m[1] : why(text)}`);
  });
  if (!existsSync(`${call.work}/out.dxf`)) throw new NativeError("OPEN_FAILED", `ezdxf wrote no DXF for ${filename}.`);
  return localFile(call, "out.dxf");
}

/**
 * The scale arguments of Inkscape's DXF import for in.dxf (issue 44: an AutoCAD 2000 DWG → png came out a blank 2 × 2
 * image). `--scalemethod=auto` fits the header's $EXTMIN/$EXTMAX width to 210 mm, and AC1015 headers are often stale
 * (far wider than what is drawn: the drawing shrinks to a pixel) or ±1e20 (every coordinate lost); the import's own
 * ellipse code also misplaces axes when it shifts by a non-zero xmin at a scale ≠ 1. So the same rule is applied to
 * what the entities cover, measured by ezdxf (cad/dxf_extents.py), with no shift (`--export-area-drawing` crops to the
 * drawing anyway). Where ezdxf is missing or cannot measure the drawing, auto as before.
 */
async function importScale(call: NativeCall): Promise<string[]> {
  const auto = ["--scalemethod=auto"];
  let python: string;
  try {
    python = tool(call, "ezdxf").path;
  } catch {
    return auto;
  }
  const r = await run(call, python, [DXF_EXTENTS, "in.dxf"]);
  const scale = Number(r.stdout.trim());
  return r.code === 0 && Number.isFinite(scale) && scale > 0
    ? ["--scalemethod=manual", `--scale=${scale}`, "--xmin=0", "--ymin=0"]
    : auto;
}

/**
 * One drawing → `req.format`, answered as a file of the call's folder (streamed back on a framed call).
 * @throws NativeError INVALID_CONVERSION_TYPE | UNSUPPORTED (binary DXF, a DWG version LibreDWG does not read) |
 *   OPEN_FAILED | OVER_BUDGET (a raster over MAX_PIXELS) | CONVERSION_FAILED | TIMEOUT
 */
async function convert(req: CadRequest, call: NativeCall): Promise<{ data: LocalFile }> {
  const format = req.format;
  const input = fileOf(req.input.data, req.input.filename);
  // the first bytes tell DWG from DXF, and show a DXF's first SECTION: a large drawing is not read here
  const first = await head(input, 4096);
  const dwg = isDwg(first);
  const offered = [...CAD_OUTPUTS, ...(dwg ? DWG_EXTRA_OUTPUTS : DXF_EXTRA_OUTPUTS)] as readonly string[];
  if (!offered.includes(format))
    throw new NativeError("INVALID_CONVERSION_TYPE", `${dwg ? "DWG" : "DXF"} drawings are not converted to ${format}.`);
  if (dwg) {
    await dwgToDxf(call, input, req.input.filename);
    if (format === "dxf") return { data: await localFile(call, "in.dxf") };
    if (format === "dwg") return { data: await localFile(call, "in.dwg") };
  } else {
    sniffDxf(first, req.input.filename);
    await place(call, "in.dxf", input);
    if (format === "dxf") return { data: await resaveDxf(call, req.input.filename) };
  }
  const inkscape = tool(call, "inkscape-cad").path;
  const imported = await run(
    call,
    UNO_PYTHON,
    [DXF_INPUT, ...(await importScale(call)), "--output=drawing.svg", "in.dxf"],
    {
      env: { PYTHONPATH: "/usr/share/inkscape/extensions" },
    },
  );
  check(
    imported,
    "Inkscape's DXF import",
    (t) =>
      new NativeError(
        "OPEN_FAILED",
        `${req.input.filename} is not a DXF drawing Inkscape reads: ${why(t, /Error|error/)}`,
      ),
  );
  const e = await extent(call, inkscape);
  if (!(e.w > 0 && e.h > 0))
    throw new NativeError(
      "CONVERSION_FAILED",
      `${req.input.filename} draws nothing Inkscape can render (no entities in model space).`,
    );
  const raster = (CAD_RASTER_OUTPUTS as readonly string[]).includes(format);
  const args = ["drawing.svg", "--export-area-drawing"];
  if (raster) {
    const { width, height } = rasterSize(req, e);
    args.push(
      "--export-type=png",
      `--export-width=${width}`,
      `--export-height=${height}`,
      "--export-background=white",
      "--export-background-opacity=1",
      "--export-filename=out.png",
    );
  } else {
    args.push(`--export-type=${format}`, `--export-filename=out.${format}`);
  }
  const exported = await run(call, inkscape, args);
  checkInkscape(
    exported,
    req.input.filename,
    (t) => new NativeError("CONVERSION_FAILED", `Inkscape could not write ${format}: ${why(t, /rror/)}`),
  );
  if (!raster || format === "png") {
    if (!existsSync(`${call.work}/out.${format}`))
      throw new NativeError("CONVERSION_FAILED", `Inkscape wrote no ${format} for ${req.input.filename}.`);
    return { data: await localFile(call, `out.${format}`) };
  }
  const magick = tool(call, "imagemagick").path;
  const opts = format === "jpg" ? ["-quality", "92"] : format === "gif" ? ["-colors", "256"] : [];
  const conv = await run(call, magick, ["out.png", "-flatten", ...opts, `out.${format}`]);
  check(
    conv,
    "ImageMagick",
    (t) => new NativeError("CONVERSION_FAILED", `ImageMagick could not write ${format}: ${why(t)}`),
  );
  return { data: await localFile(call, `out.${format}`) };
}

/**
 * The CAD engine (kind cad: convert). It takes files (issue 49): a framed call's drawing reaches it as a LocalFile in
 * the call's folder, and its output goes back as a file.
 */
export const inkscapeCad = { kind: "cad", methods: { convert }, files: true } satisfies NativeEngineDef<"cad">;

export default inkscapeCad;
