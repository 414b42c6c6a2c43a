/**
 * Fonts (issue 33): TrueType, OpenType/CFF, WOFF, WOFF2 and EOT in; those and SVG fonts out, by
 * fontTools (Debian's python3-fonttools with python3-brotli for WOFF2) in fonts/font_convert.py,
 * which keeps glyph order, names, metrics and the cmap. Measured against fonteditor-core (npm): it was
 * not installed here and its WOFF2 needs a separate WebAssembly module and loader per host, where
 * fontTools converts every corpus font in 0.3–4 s in one short process (a font is small; the native
 * engine's time and memory limits of container/run.ts apply as to every tool).
 *
 * SVG in (→ ttf, otf, woff, woff2, eot): FontForge's Python module (fonts/svg_font.py) on the SVG made safe
 * first (svg-safe.ts: no DOCTYPE or entities, no external references): an SVG font (<font> with <glyph>s)
 * converts as the font it is, any other SVG becomes an icon font of one glyph at U+E000 (the first
 * Private Use Area code point) named after the file; woff, woff2 and eot are fontTools' from FontForge's TrueType.
 */
import { fileURLToPath } from "node:url";
import { FONT_OUTPUTS, SVG_FONT_OUTPUTS, type FontRequest } from "../../native-protocol/font.ts";
import { safeSvg } from "./svg-safe.ts";
import { NativeError, check, get, put, run, tool, why, type NativeCall, type NativeEngineDef } from "./common.ts";

const SCRIPT = fileURLToPath(new URL("./fonts/font_convert.py", import.meta.url));
/** The script's failure codes (its stderr "CODE: message"). */
const CODES = new Set(["OPEN_FAILED", "UNSUPPORTED", "INVALID_CONVERSION_TYPE", "CONVERSION_FAILED"]);
const SVG_SCRIPT = fileURLToPath(new URL("./fonts/svg_font.py", import.meta.url));

/** Whether `data` is an SVG document (an XML text whose first element is svg). */
export function isSvg(data: Uint8Array): boolean {
  const head = new TextDecoder().decode(data.subarray(0, 4096)).replace(/^\uFEFF/, "");
  return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>\s*)*<(\w+:)?svg[\s>]/i.test(
    head,
  );
}

/** The font's family for an icon font: the file's base name without its extension, printable ASCII. */
const familyOf = (filename: string) =>
  (
    filename
      .replace(/^.*\//, "")
      .replace(/\.[^.]*$/, "")
      .replace(/[^\x20-\x7e]/g, "")
      .trim() || "Icon"
  ).slice(0, 60);

/** Runs a font script; its "CODE: message" failures become NativeErrors naming `filename`. */
async function script(call: NativeCall, what: string, py: string, args: string[], filename: string) {
  const r = await run(call, tool(call, what === "FontForge" ? "fontforge" : "fonttools").path, [py, ...args]);
  check(r, what, (text) => {
    const m = /^([A-Z_]+): (.*)$/m.exec(text);
    if (m && CODES.has(m[1]!)) return new NativeError(m[1]!, `${filename}: ${m[2]}`);
    return new NativeError("CONVERSION_FAILED", `${what} could not convert ${filename}: ${why(text)}`);
  });
}

/** SVG (font or drawing) → `req.format` through FontForge, then fontTools for woff/woff2/eot. */
async function fromSvg(req: FontRequest, call: NativeCall) {
  if (!(SVG_FONT_OUTPUTS as readonly string[]).includes(req.format))
    throw new NativeError("INVALID_CONVERSION_TYPE", `SVG is not converted to ${req.format} as a font.`);
  const svg = safeSvg(new TextDecoder().decode(req.input.data));
  await put(call, "in.svg", new TextEncoder().encode(svg));
  const sfnt = req.format === "otf" ? "otf" : "ttf";
  await script(
    call,
    "FontForge",
    SVG_SCRIPT,
    ["in.svg", `ff.${sfnt}`, familyOf(req.input.filename)],
    req.input.filename,
  );
  if (req.format === sfnt) return { data: await get(call, `ff.${sfnt}`) };
  await script(call, "fontTools", SCRIPT, ["ff.ttf", `out.${req.format}`, req.format], req.input.filename);
  return { data: await get(call, `out.${req.format}`) };
}

async function convert(req: FontRequest, call: NativeCall) {
  if (!(FONT_OUTPUTS as readonly string[]).includes(req.format))
    throw new NativeError("INVALID_CONVERSION_TYPE", `Fonts are not converted to ${req.format}.`);
  if (isSvg(req.input.data)) return fromSvg(req, call);
  await put(call, "in.font", req.input.data);
  const r = await run(call, tool(call, "fonttools").path, [SCRIPT, "in.font", `out.${req.format}`, req.format]);
  check(r, "fontTools", (text) => {
    const m = /^([A-Z_]+): (.*)$/m.exec(text);
    if (m && CODES.has(m[1]!)) return new NativeError(m[1]!, `${req.input.filename}: ${m[2]}`);
    return new NativeError("CONVERSION_FAILED", `fontTools could not convert ${req.input.filename}: ${why(text)}`);
  });
  return { data: await get(call, `out.${req.format}`) };
}

/** The fontTools engine (kind font: convert). */
export const fonttools = { kind: "font", methods: { convert } } satisfies NativeEngineDef<"font">;

export default fonttools;
