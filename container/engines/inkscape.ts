/**
 * Inkscape 1.2 (issue 33): vector drawings → svg, pdf, eps, ps, emf, wmf, dxf, and raster images. Each
 * call runs in its own folder with its own HOME (Inkscape writes preferences there), without a display.
 *
 * Inputs, by what reads them:
 * - svg, svgz, ai (PDF-based Illustrator files), emf, wmf, cdr (libcdr), vsd, vsdx (libvisio): Inkscape's
 *   own importers. SVG is made safe first (svg-safe.ts: no DOCTYPE, no external reference), svgz is
 *   inflated with a size cap.
 * - eps, ps: Ghostscript (`-dSAFER`, pdfwrite; eps cropped to its bounding box) → PDF → Inkscape; Inkscape's
 *   own PostScript import needs a display (it aborts headless: "Can't create a GtkStyleContext").
 * - cgm: LibreOffice Draw's CGM import → PDF (a soffice of its own, profile in the call's folder) → Inkscape.
 * - sk, sk1 (Skencil, sK1): no tool in Debian or npm reads them; sketch/svg.ts reads the document into SVG,
 *   which Inkscape exports (what it leaves out or approximates comes back as the task's warnings).
 * Outputs: Inkscape's exporters for the vector formats (svg as plain SVG); png by Inkscape at
 * `pixel_density` (default 96) or width/height; jpg, webp, gif, tiff, bmp, ico, psd from that png by the
 * native ImageMagick (flattened on white where the format has no alpha). `text_to_path` turns text into
 * outlines in vector outputs.
 *
 * Files (issue 49): the engine takes files (`files: true`): a drawing the Worker streams (over the row's `streamOver`)
 * is in the call's folder already and is moved to Inkscape's input name, and every output goes back as a file,
 * streamed from disk on a framed call. What is read into this process is bounded: an SVG's text (made safe here) at
 * most MAX_SVG_BYTES, a Skencil/sK1 document at most its reader's SKETCH_LIMITS.maxBytes.
 */
import { gunzipSync } from "node:zlib";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { LocalFile } from "../../native-protocol/frame.ts";
import type { VectorRequest } from "../../native-protocol/vector.ts";
import { VECTOR_INPUTS, VECTOR_OUTPUTS, VECTOR_RASTER_OUTPUTS } from "../../native-protocol/vector.ts";
import {
  NativeError,
  bytesOf,
  check,
  fileOf,
  get,
  localFile,
  place,
  put,
  run,
  tool,
  why,
  type NativeCall,
  type NativeEngineDef,
} from "./common.ts";
import type { ToolRun } from "../run.ts";
import { safeSvg, svgSize } from "./svg-safe.ts";
import { oddOfDrawing } from "./vector-odd.ts";
import { SketchError } from "./sketch/parse.ts";
import { SKETCH_LIMITS, sketchToSvg } from "./sketch/svg.ts";

/** Largest SVG read into this process (made safe as text), and after inflating an svgz, bytes. */
const MAX_SVG_BYTES = 64 * 1024 * 1024;
/** Largest raster output drawn, width × height in pixels. */
const MAX_PIXELS = 100_000_000;

/** The environment of Inkscape and soffice: a private home in the call's folder, no display, no session bus (also pdf-dxf.ts). */
export function privateEnv(call: NativeCall): Record<string, string> {
  return {
    HOME: call.work,
    XDG_CONFIG_HOME: join(call.work, ".config"),
    XDG_CACHE_HOME: join(call.work, ".cache"),
    XDG_DATA_HOME: join(call.work, ".local"),
    DISPLAY: "",
    WAYLAND_DISPLAY: "",
    DBUS_SESSION_BUS_ADDRESS: "disabled:",
    GIO_USE_VFS: "local",
  };
}

/** The bytes as SVG text made safe (svg-safe.ts); svgz inflated first. @throws NativeError OPEN_FAILED, OVER_BUDGET */
function svgText(data: Uint8Array, format: string, filename: string): string {
  let bytes = data;
  if (format === "svgz" || (data[0] === 0x1f && data[1] === 0x8b)) {
    try {
      bytes = gunzipSync(data, { maxOutputLength: MAX_SVG_BYTES });
    } catch (err) {
      if (err instanceof RangeError || (err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
        throw new NativeError("OVER_BUDGET", `${filename} inflates to more than ${MAX_SVG_BYTES} bytes.`);
      throw new NativeError("OPEN_FAILED", `${filename} is not a gzip-compressed SVG: ${(err as Error).message}`);
    }
  }
  return safeSvg(new TextDecoder().decode(bytes));
}

/** eps/ps → in.pdf with Ghostscript (SAFER). @throws NativeError OPEN_FAILED */
async function postscriptToPdf(call: NativeCall, req: VectorRequest): Promise<string> {
  const gs = tool(call, "ghostscript");
  const src = await place(call, `in.${req.inputFormat}`, inputFile(req));
  const eps = req.inputFormat === "eps" ? ["-dEPSCrop"] : [];
  const r = await run(call, gs.path, [
    "-dSAFER",
    "-dBATCH",
    "-dNOPAUSE",
    "-dQUIET",
    "-sDEVICE=pdfwrite",
    ...eps,
    "-sOutputFile=in.pdf",
    src,
  ]);
  const fail = (t: string) =>
    new NativeError("OPEN_FAILED", `Ghostscript could not read ${req.input.filename}: ${why(t, /Error|error/)}`);
  check(r, "Ghostscript", fail);
  if (/Unrecoverable error|Error:/i.test(`${r.stdout}\n${r.stderr}`) || !existsSync(join(call.work, "in.pdf")))
    throw fail(`${r.stderr}\n${r.stdout}`);
  return join(call.work, "in.pdf");
}

/** cgm → in.pdf with LibreOffice Draw, a soffice of its own. @throws NativeError OPEN_FAILED, ENGINE_UNAVAILABLE */
async function cgmToPdf(call: NativeCall, req: VectorRequest): Promise<string> {
  const soffice = tool(call, "libreoffice");
  const src = await place(call, "in.cgm", inputFile(req));
  const r = await run(
    call,
    soffice.path,
    [
      `-env:UserInstallation=file://${join(call.work, "lo-profile")}`,
      "--headless",
      "--norestore",
      "--nolockcheck",
      "--convert-to",
      "pdf",
      "--outdir",
      join(call.work, "lo-out"),
      src,
    ],
    { env: privateEnv(call) },
  );
  const out = join(call.work, "lo-out", "in.pdf");
  check(
    r,
    "LibreOffice",
    (t) => new NativeError("OPEN_FAILED", `LibreOffice could not read ${req.input.filename}: ${why(t)}`),
  );
  if (!existsSync(out))
    throw new NativeError("OPEN_FAILED", `LibreOffice could not read ${req.input.filename} as a CGM drawing.`);
  return out;
}

/** A Skencil/sK1 document → in.svg (sketch/svg.ts); its warnings pushed to `warnings`. @throws NativeError */
async function sketchInput(call: NativeCall, req: VectorRequest, warnings: string[]): Promise<string> {
  try {
    const r = sketchToSvg(await bytesOf(req.input.data, SKETCH_LIMITS.maxBytes, req.input.filename));
    warnings.push(...r.warnings.map((w) => `${req.input.filename}: ${w}`));
    return await put(call, "in.svg", new TextEncoder().encode(r.svg));
  } catch (err) {
    if (err instanceof SketchError) throw new NativeError(err.code, `${req.input.filename}: ${err.message}`);
    throw err;
  }
}

/** The request's drawing as bytes or a file (a framed call's part). @throws NativeError UNSUPPORTED */
function inputFile(req: VectorRequest): Uint8Array | LocalFile {
  return fileOf(req.input.data, req.input.filename);
}

/** The file Inkscape opens for the request; what an input reader left out is pushed to `warnings`. */
async function inkscapeInput(call: NativeCall, req: VectorRequest, warnings: string[] = []): Promise<string> {
  switch (req.inputFormat) {
    case "sk":
    case "sk1":
      return sketchInput(call, req, warnings);
    case "svg":
    case "svgz":
      return put(
        call,
        "in.svg",
        new TextEncoder().encode(
          svgText(
            await bytesOf(req.input.data, MAX_SVG_BYTES, req.input.filename),
            req.inputFormat,
            req.input.filename,
          ),
        ),
      );
    case "eps":
    case "ps":
      return postscriptToPdf(call, req);
    case "cgm":
      return cgmToPdf(call, req);
    case "ai":
      // Illustrator files since version 9 are PDF files with private data; Inkscape opens them with its PDF import
      return place(call, "in.pdf", inputFile(req));
    default:
      return place(call, `in.${req.inputFormat}`, inputFile(req));
  }
}

const RASTER = new Set<string>(VECTOR_RASTER_OUTPUTS);
const NO_ALPHA = new Set(["jpg", "bmp"]);

/** Checks the pixels of a raster output of an SVG against MAX_PIXELS. @throws NativeError OVER_BUDGET */
function checkRaster(req: VectorRequest, svg: string | undefined): void {
  const o = req.options;
  const size = svg ? svgSize(svg) : undefined;
  if (!size) return;
  const scale = (o.pixel_density ?? 96) / 96;
  let [w, h] = [size.w * scale, size.h * scale];
  if (o.width && o.height) [w, h] = [o.width, o.height];
  else if (o.width) [w, h] = [o.width, (o.width * size.h) / Math.max(size.w, 1e-9)];
  else if (o.height) [w, h] = [(o.height * size.w) / Math.max(size.h, 1e-9), o.height];
  if (w * h > MAX_PIXELS)
    throw new NativeError(
      "OVER_BUDGET",
      `${req.input.filename} would be drawn at ${Math.round(w)} × ${Math.round(h)} pixels; at most ${MAX_PIXELS / 1e6} megapixels. Set a smaller width/height or pixel_density.`,
    );
}

/**
 * Throws for an Inkscape run (also cad.ts, pdf-dxf.ts) that did not exit 0: OVER_BUDGET when it ran out of memory
 * (issue 49: Inkscape holds the whole drawing, ~8–260× its size; past the tool's address-space limit it dies of
 * std::bad_alloc), else as check() does with `fail`.
 * @throws NativeError OVER_BUDGET | TIMEOUT | CONVERSION_FAILED | what `fail` makes
 */
export function checkInkscape(r: ToolRun, what: string, fail: (text: string) => NativeError): void {
  if (!r.killed && (r.signal || r.code !== 0) && /bad_alloc|out of memory|cannot allocate/i.test(r.stderr))
    throw new NativeError(
      "OVER_BUDGET",
      `${what} needs more memory than the native engine's limit for one tool (Inkscape holds the whole drawing): ${why(r.stderr, /bad_alloc|memory|allocat/i)}`,
    );
  check(r, "Inkscape", fail);
}

/** Inkscape's failure: the line that says why, OPEN_FAILED. */
function inkscapeFailure(text: string, filename: string): NativeError {
  return new NativeError(
    "OPEN_FAILED",
    `Inkscape could not convert ${filename}: ${why(text, /cannot be opened|Failed|[Ee]rror|not/)}`,
  );
}

/** The drawing as an odd: Inkscape's plain SVG and 96 dpi PNG of it, packed by vector-odd.ts. @throws NativeError */
async function odd(req: VectorRequest, call: NativeCall, inkscape: string, src: string): Promise<{ data: Uint8Array }> {
  for (const [type, extra] of [
    ["svg", ["--export-plain-svg"]],
    ["png", ["--export-dpi=96"]],
  ] as const) {
    const r = await run(call, inkscape, [`--export-type=${type}`, `--export-filename=odd.${type}`, ...extra, src], {
      env: privateEnv(call),
    });
    checkInkscape(r, req.input.filename, (t) => inkscapeFailure(t, req.input.filename));
    if (!existsSync(join(call.work, `odd.${type}`)))
      throw inkscapeFailure(`${r.stderr}\n${r.stdout}`, req.input.filename);
  }
  const png = await get(call, "odd.png");
  const v = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const cm = (px: number) => Math.max(0.01, (px / 96) * 2.54);
  return { data: oddOfDrawing(await get(call, "odd.svg"), png, cm(v.getUint32(16)), cm(v.getUint32(20))) };
}

/**
 * vector convert: request → {data, warnings}; `data` is the output file in the call's folder (streamed back on a framed
 * call) or, for odd, its bytes. @throws NativeError
 */
async function convert(
  req: VectorRequest,
  call: NativeCall,
): Promise<{ data: Uint8Array | LocalFile; warnings?: string[] }> {
  const warnings: string[] = [];
  const r = await convertDrawing(req, call, warnings);
  return warnings.length ? { ...r, warnings } : r;
}

async function convertDrawing(
  req: VectorRequest,
  call: NativeCall,
  warnings: string[],
): Promise<{ data: Uint8Array | LocalFile }> {
  if (!(VECTOR_INPUTS as readonly string[]).includes(req.inputFormat))
    throw new NativeError("UNSUPPORTED", `Inkscape does not read ${req.inputFormat} here.`);
  const out = req.outputFormat;
  if (out === "odd") return odd(req, call, tool(call, "inkscape").path, await inkscapeInput(call, req, warnings));
  const raster = RASTER.has(out);
  if (!raster && !(VECTOR_OUTPUTS as readonly string[]).includes(out))
    throw new NativeError("UNSUPPORTED", `Inkscape does not write ${out} here.`);
  const inkscape = tool(call, "inkscape");
  const src = await inkscapeInput(call, req, warnings);
  if (raster && src.endsWith("in.svg")) checkRaster(req, new TextDecoder().decode(await get(call, "in.svg")));
  const o = req.options;
  const type = raster ? "png" : out;
  const args = [
    `--export-type=${type}`,
    `--export-filename=out.${type}`,
    ...(out === "svg" ? ["--export-plain-svg"] : []),
    // DXF: the R14 exporter (dxf_outlines) of every object as paths; the default R12 one drops rectangles and text
    ...(out === "dxf"
      ? ["--actions=select-all:all;object-to-path", "--export-extension=org.ekips.output.dxf_outlines"]
      : []),
    ...(o.text_to_path && !raster ? ["--export-text-to-path"] : []),
    ...(raster && o.pixel_density ? [`--export-dpi=${o.pixel_density}`] : []),
    ...(raster && o.width ? [`--export-width=${Math.round(o.width)}`] : []),
    ...(raster && o.height ? [`--export-height=${Math.round(o.height)}`] : []),
    ...(raster && NO_ALPHA.has(out) ? ["--export-background=white", "--export-background-opacity=1"] : []),
    src,
  ];
  const r = await run(call, inkscape.path, args, { env: privateEnv(call) });
  checkInkscape(r, req.input.filename, (t) => inkscapeFailure(t, req.input.filename));
  if (!existsSync(join(call.work, `out.${type}`)))
    throw inkscapeFailure(`${r.stderr}\n${r.stdout}`, req.input.filename);
  if (!raster || out === "png") return { data: await localFile(call, `out.${type}`) };
  const im = tool(call, "imagemagick");
  const flatten = NO_ALPHA.has(out) ? ["-background", "white", "-alpha", "remove", "-alpha", "off"] : [];
  const fit = out === "ico" ? ["-resize", "256x256>"] : [];
  const c = await run(call, im.path, ["out.png", ...flatten, ...fit, `${out === "jpg" ? "jpeg" : out}:out.${out}`]);
  check(c, "ImageMagick", (t) => new NativeError("CONVERSION_FAILED", `ImageMagick could not write ${out}: ${why(t)}`));
  return { data: await localFile(call, `out.${out}`) };
}

/**
 * The Inkscape engine (kind vector: convert). It takes files (issue 49): a framed call's drawing reaches it as a
 * LocalFile in the call's folder, and its output goes back as a file.
 */
export const inkscape = { kind: "vector", methods: { convert }, files: true } satisfies NativeEngineDef<"vector">;

export default inkscape;
