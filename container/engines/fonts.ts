/**
 * Fonts (issue 33): TrueType, OpenType/CFF, WOFF, WOFF2 and EOT in; those and SVG fonts out, by
 * fontTools (Debian's python3-fonttools with python3-brotli for WOFF2) in fonts/font_convert.py,
 * which keeps glyph order, names, metrics and the cmap. Measured against fonteditor-core (npm): it was
 * not installed here and its WOFF2 needs a separate WebAssembly module and loader per host, where
 * fontTools converts every corpus font in 0.3–4 s in one short process (a font is small; the native
 * engine's time and memory limits of container/run.ts apply as to every tool).
 */
import { fileURLToPath } from "node:url";
import { FONT_OUTPUTS, type FontRequest } from "../../native-protocol/font.ts";
import { NativeError, check, get, put, run, tool, why, type NativeCall, type NativeEngineDef } from "./common.ts";

const SCRIPT = fileURLToPath(new URL("./fonts/font_convert.py", import.meta.url));
/** The script's failure codes (its stderr "CODE: message"). */
const CODES = new Set(["OPEN_FAILED", "UNSUPPORTED", "INVALID_CONVERSION_TYPE"]);

async function convert(req: FontRequest, call: NativeCall) {
  if (!(FONT_OUTPUTS as readonly string[]).includes(req.format))
    throw new NativeError("INVALID_CONVERSION_TYPE", `Fonts are not converted to ${req.format}.`);
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
export const fonttools: NativeEngineDef = { tool: "fonttools", methods: { convert } };
