/**
 * CAD drawings (issue 33): DXF read by Inkscape 1.2's own DXF import (its dxf_input.py extension, run
 * with Debian's python3 and inkex), scaled to fit a page ("auto") and cropped to what it draws, then
 * written by Inkscape's exports (PDF with text as text, SVG, EPS, EMF, WMF, PNG) and ImageMagick for
 * the other raster formats. Measured on the corpus against LibreOffice Draw's DXF import, which drew
 * the LibreCAD Tux at its true size (a dot on an A4 page) and is the office engine's pool; Inkscape
 * took 0.3 s (import) + ~1 s (export) a drawing, layers and text kept (pdftotext finds the R12
 * drawing's labels). DWG: no reader in Debian 12 (no LibreDWG), so it is not offered.
 */
import { existsSync } from "node:fs";
import { CAD_OUTPUTS, CAD_RASTER_OUTPUTS, type CadRequest } from "../../native-protocol/cad.ts";
import { UNO_PYTHON } from "../tools.ts";
import { NativeError, check, get, put, run, tool, why, type NativeCall, type NativeEngineDef } from "./common.ts";

/** Inkscape's DXF import extension (Debian's inkscape package). */
export const DXF_INPUT = "/usr/share/inkscape/extensions/dxf_input.py";
/** Default raster resolution, dpi, when neither width/height nor pixel_density is given. */
const DEFAULT_DPI = 150;
/** The largest raster written: pixels per side and in all. */
const MAX_SIDE = 30_000;
const MAX_PIXELS = 100_000_000;

/** The drawing's extent in CSS px (Inkscape's --query-all first line: id,x,y,width,height). */
async function extent(call: NativeCall, inkscape: string): Promise<{ w: number; h: number }> {
  const r = await run(call, inkscape, ["--query-all", "drawing.svg"]);
  check(
    r,
    "Inkscape",
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

async function convert(req: CadRequest, call: NativeCall) {
  const format = req.format;
  if (!(CAD_OUTPUTS as readonly string[]).includes(format))
    throw new NativeError("INVALID_CONVERSION_TYPE", `DXF drawings are not converted to ${format}.`);
  const inkscape = tool(call, "inkscape-cad").path;
  sniffDxf(req.input.data, req.input.filename);
  await put(call, "in.dxf", req.input.data);
  const imported = await run(call, UNO_PYTHON, [DXF_INPUT, "--scalemethod=auto", "--output=drawing.svg", "in.dxf"], {
    env: { PYTHONPATH: "/usr/share/inkscape/extensions" },
  });
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
  check(
    exported,
    "Inkscape",
    (t) => new NativeError("CONVERSION_FAILED", `Inkscape could not write ${format}: ${why(t, /rror/)}`),
  );
  if (!raster || format === "png") {
    if (!existsSync(`${call.work}/out.${format}`))
      throw new NativeError("CONVERSION_FAILED", `Inkscape wrote no ${format} for ${req.input.filename}.`);
    return { data: await get(call, `out.${format}`) };
  }
  const magick = tool(call, "imagemagick").path;
  const opts = format === "jpg" ? ["-quality", "92"] : format === "gif" ? ["-colors", "256"] : [];
  const conv = await run(call, magick, ["out.png", "-flatten", ...opts, `out.${format}`]);
  check(
    conv,
    "ImageMagick",
    (t) => new NativeError("CONVERSION_FAILED", `ImageMagick could not write ${format}: ${why(t)}`),
  );
  return { data: await get(call, `out.${format}`) };
}

/** The CAD engine (kind cad: convert). */
export const inkscapeCad: NativeEngineDef = { tool: "inkscape-cad", methods: { convert } };
