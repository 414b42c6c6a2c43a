/**
 * The JavaScript font engine (issue 47): fonteditor-core 2.6.3 (MIT, pure JavaScript) converts fonts in
 * the api Worker, the browser and Node, before the native fontTools row. It takes TrueType, OpenType/CFF,
 * WOFF 1.0 and uncompressed EOT in; TrueType, WOFF, EOT and SVG fonts out, and OpenType/CFF out where the
 * input already has CFF outlines (fonteditor-core writes no CFF).
 *
 * Two paths (measured in shared/reference/wasm-candidates.md, "fonteditor-core 2.6.3"):
 * - containers re-wrapped table by table, which keeps every table (GSUB, GPOS, hinting): WOFF ↔ sfnt
 *   (`woff2ttf`/`ttf2woff` with fflate's zlib), EOT ↔ TrueType (`eot2ttf`/`ttf2eot`), sfnt → the same sfnt;
 * - the font object model (`Font.create().write()`) where outlines change form: CFF → TrueType (cubic →
 *   quadratic; GSUB/GDEF are not carried, the glyphs, cmap, names and metrics are) and any → SVG font.
 *
 * Not here, handed to the next row (fontTools) with UNSUPPORTED: WOFF2 in or out (fonteditor-core's WOFF2
 * is an embind build whose glue calls `new Function`, which workerd forbids), TrueType → OpenType/CFF,
 * SVG in (FontForge's icon fonts), MTX-compressed EOT. Inputs are checked first (containers.ts), then
 * the library's own failures are mapped: reading → OPEN_FAILED, writing → CONVERSION_FAILED.
 */
import fonteditor from "fonteditor-core";
import { Unzlib, zlibSync } from "fflate";
import { TaskError, toFailure, type EngineResult } from "../errors";
import type { FontEngine, FontRequest } from "../kinds/font";
import { DEFAULT_FONT_BUDGET, type FontBudget } from "./budget";
import { FONTEDITOR_ENGINE } from "./version";
import { checkEot, checkSfnt, checkWoff, sniffFont, type SfntFacts } from "./containers";

const { Font, eot2ttf, ttf2eot, ttf2woff, woff2ttf } = fonteditor;

const toArrayBuffer = (d: Uint8Array): ArrayBuffer => d.slice().buffer as ArrayBuffer;
const bytes = (b: ArrayBuffer | Uint8Array | string): Uint8Array =>
  typeof b === "string" ? new TextEncoder().encode(b) : b instanceof Uint8Array ? b : new Uint8Array(b);

/** Runs a fonteditor-core step; its Errors (and RangeErrors of its DataView reader) become `code`. */
function step<T>(code: "OPEN_FAILED" | "CONVERSION_FAILED", what: string, f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof TaskError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new TaskError(
      code,
      `${what}: ${code === "OPEN_FAILED" ? "the font could not be read" : "the font could not be written"} (${message}).`,
    );
  }
}

/**
 * A zlib stream inflated in 4 KiB input steps, stopped once its output passes `limit` bytes: a table whose
 * stated origLength is small but whose stream inflates to gigabytes (a zlib bomb) ends OVER_BUDGET
 * after at most ~4 MiB more than the limit, never in one unbounded allocation.
 * @throws TaskError OVER_BUDGET
 */
function boundedUnzlib(d: Uint8Array, limit: number, name: string): number[] {
  const parts: Uint8Array[] = [];
  let total = 0;
  const z = new Unzlib((chunk) => {
    total += chunk.byteLength;
    if (total > limit)
      throw new TaskError("OVER_BUDGET", `${name}: a WOFF table inflates past ${limit} bytes; the file is refused.`);
    parts.push(chunk);
  });
  for (let at = 0; at < d.byteLength; at += 4096) z.push(d.subarray(at, at + 4096), at + 4096 >= d.byteLength);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.byteLength));
  // fonteditor-core's Writer copies any indexable of bytes
  return out as unknown as number[];
}

/** The sfnt inside `data` (a TrueType/OpenType file, a WOFF or an EOT), checked. */
function unpack(data: Uint8Array, name: string, budget: FontBudget): { sfnt: Uint8Array; facts: SfntFacts } {
  const container = sniffFont(data);
  let sfnt: Uint8Array;
  switch (container) {
    case "ttf":
    case "otf":
      sfnt = data;
      break;
    case "woff":
      checkWoff(data, budget, name);
      sfnt = bytes(
        step("OPEN_FAILED", name, () =>
          woff2ttf(toArrayBuffer(data), {
            inflate: (d: number[] | Uint8Array) => boundedUnzlib(Uint8Array.from(d), budget.maxSfntBytes, name),
          }),
        ),
      );
      break;
    case "eot": {
      const { xor } = checkEot(data, budget, name);
      sfnt = bytes(step("OPEN_FAILED", name, () => eot2ttf(toArrayBuffer(data))));
      if (xor) sfnt = sfnt.map((b) => b ^ 0x50);
      break;
    }
    case "woff2":
      throw new TaskError("UNSUPPORTED", `${name}: WOFF2 is not read by this engine.`);
    case "svg":
      throw new TaskError("UNSUPPORTED", `${name}: SVG is not converted to a font by this engine.`);
    default:
      throw new TaskError("OPEN_FAILED", `${name}: not a TrueType, OpenType, WOFF or EOT font.`);
  }
  return { sfnt, facts: checkSfnt(sfnt, budget, name) };
}

/** A TrueType sfnt of the font: itself, or CFF outlines converted to quadratics by the object model. */
function trueType(sfnt: Uint8Array, facts: SfntFacts, name: string): Uint8Array {
  if (facts.flavour === "truetype") return sfnt;
  const font = step("OPEN_FAILED", name, () => Font.create(toArrayBuffer(sfnt), { type: "otf", kerning: true }));
  return bytes(
    step("CONVERSION_FAILED", name, () => font.write({ type: "ttf", kerning: true, toBuffer: false }) as ArrayBuffer),
  );
}

/** WOFF 1.0 around an sfnt, every table kept; the flavour says CFF for an OpenType/CFF font (WOFF §3). */
function toWoff(sfnt: Uint8Array, facts: SfntFacts, name: string): Uint8Array {
  const woff = bytes(
    step("CONVERSION_FAILED", name, () =>
      ttf2woff(toArrayBuffer(sfnt), {
        metadata: undefined,
        deflate: (d: number[] | Uint8Array) => zlibSync(Uint8Array.from(d)) as unknown as number[],
      }),
    ),
  ).slice();
  // fonteditor-core writes the TrueType flavour 0x00010000 whatever the sfnt's is
  woff.set(sfnt.subarray(0, 4), 4);
  return woff;
}

function convertFont(req: FontRequest, budget: FontBudget): Uint8Array {
  const name = req.input.filename;
  if (req.input.data.byteLength > budget.maxBytes)
    throw new TaskError(
      "OVER_BUDGET",
      `${name}: ${req.input.data.byteLength} bytes; at most ${budget.maxBytes} are converted here.`,
    );
  const { sfnt, facts } = unpack(req.input.data, name, budget);
  switch (req.format) {
    case "ttf":
      return trueType(sfnt, facts, name);
    case "otf":
      if (facts.flavour !== "cff")
        throw new TaskError("UNSUPPORTED", `${name}: TrueType outlines are not converted to CFF by this engine.`);
      return sfnt;
    case "woff":
      return toWoff(sfnt, facts, name);
    case "eot": {
      const ttf = trueType(sfnt, facts, name);
      return bytes(step("CONVERSION_FAILED", name, () => ttf2eot(toArrayBuffer(ttf))));
    }
    case "svg": {
      const type = facts.flavour === "cff" ? "otf" : "ttf";
      const font = step("OPEN_FAILED", name, () => Font.create(toArrayBuffer(sfnt), { type, compound2simple: true }));
      return bytes(step("CONVERSION_FAILED", name, () => font.write({ type: "svg" }) as string));
    }
    default:
      throw new TaskError("UNSUPPORTED", `${name}: ${String(req.format)} is not written by this engine.`);
  }
}

/** Options of {@link createFontEditorEngine}. */
export interface FontEditorOptions {
  budget?: Partial<FontBudget>;
}

/** The fonteditor-core engine (kind font). Nothing to load: the same object serves every host. */
export function createFontEditorEngine(options: FontEditorOptions = {}): FontEngine {
  const budget = { ...DEFAULT_FONT_BUDGET, ...options.budget };
  return {
    async convert(req: FontRequest): Promise<EngineResult<{ data: Uint8Array }>> {
      try {
        return { ok: true, data: convertFont(req, budget), engineVersion: FONTEDITOR_ENGINE.version };
      } catch (err) {
        return { ok: false, error: toFailure(err), engineVersion: FONTEDITOR_ENGINE.version };
      }
    },
  };
}
