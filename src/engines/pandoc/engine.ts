/**
 * pandoc in WebAssembly (row "pandoc-wasm", issue 47): an office-kind engine converting markup and documents —
 * md, rst, tex, html, txt, docx, odt, rtf, epub, fb2 in; docx, odt, html, md, rst, rtf, tex, txt, epub out
 * (formats.ts) — in its own engine Worker (wasm/pandoc) and in the browser build.
 *
 * Safety: pandoc runs with `sandbox: true` (it reads no file but its input, fetches nothing) inside WASI with an
 * in-memory file system that holds only the input, so an include, a linked picture or a URL in the document names
 * nothing it could read (test/engines-heavy/pandoc-wasm.test.ts). Text inputs that are not UTF-8 are read as
 * windows-1252 (as LibreOffice reads such text), with a warning. Work is bounded by budget.ts: the input's size, and
 * the GHC heap, whose overflow drops the instance and hands the task to the native pandoc (OVER_BUDGET).
 *
 * Failures as data: UNSUPPORTED for a pair it does not convert or a trap of the WebAssembly (the next engine
 * decides), OVER_BUDGET over its bounds, CONVERSION_FAILED when pandoc refuses the input (its message kept).
 */
import { TaskError, toFailure } from "../errors";
import { heldDocument, type OfficeEngine, type OfficeRequest } from "../kinds/office";
import { DEFAULT_PANDOC_BUDGET, type PandocBudget } from "./budget";
import { PANDOC_BINARY_INPUTS, PANDOC_WASM_READERS, PANDOC_WASM_WRITERS } from "./formats";
import { PANDOC_WASM_ENGINE } from "./version";
import { PandocExit, startPandoc, type PandocInstance } from "./wasi";

/** How a host provides pandoc.wasm: workerd imports it precompiled, Node and browsers compile the file. */
export interface PandocLoader {
  loadWasm(): Promise<WebAssembly.Module>;
  budget?: Partial<PandocBudget>;
}

const MAX_WARNINGS = 20;

/** The extension of `filename`, lower-case, with CloudConvert's aliases (markdown, htm) folded. */
function formatOf(filename: string): string {
  const ext = (/\.([A-Za-z0-9]+)$/.exec(filename)?.[1] ?? "").toLowerCase();
  return ext === "markdown" ? "md" : ext === "htm" ? "html" : ext;
}

/** `data` as UTF-8: itself when valid, else read as windows-1252 and re-encoded (`recoded` true). */
function asUtf8(data: Uint8Array): { data: Uint8Array; recoded: boolean } {
  try {
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(data);
    return { data, recoded: false };
  } catch {
    return { data: new TextEncoder().encode(new TextDecoder("windows-1252").decode(data)), recoded: true };
  }
}

/**
 * The sum of the uncompressed sizes a zip's central directory declares (APPNOTE.TXT 4.3.12, 4.3.16); Infinity for a
 * ZIP64 container or a size of 0xFFFFFFFF (undeclared here); null when `data` has no readable central directory (not
 * a zip: pandoc says what it is).
 */
export function declaredInflatedBytes(data: Uint8Array): number | null {
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let eocd = -1;
  for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 65535); i--)
    if (v.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  if (eocd < 0) return null;
  const count = v.getUint16(eocd + 10, true);
  let at = v.getUint32(eocd + 16, true);
  if (count === 0xffff || at === 0xffffffff) return Infinity;
  let total = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > data.length || v.getUint32(at, true) !== 0x02014b50) return null;
    const size = v.getUint32(at + 24, true);
    if (size === 0xffffffff) return Infinity;
    total += size;
    at += 46 + v.getUint16(at + 28, true) + v.getUint16(at + 30, true) + v.getUint16(at + 32, true);
  }
  return total;
}

/** Creates the engine; the instance starts on the first call and is replaced after a heap overflow or a trap. */
export function createPandocEngine(loader: PandocLoader): OfficeEngine {
  const budget = { ...DEFAULT_PANDOC_BUDGET, ...loader.budget };
  let instance: Promise<PandocInstance> | undefined;
  const pandoc = () =>
    (instance ??= loader
      .loadWasm()
      .then((m) => startPandoc(m, budget.maxHeapBytes))
      .catch((err: unknown) => {
        instance = undefined;
        throw err;
      }));

  async function convert(req: OfficeRequest) {
    const input = formatOf(req.input.filename);
    const reader = PANDOC_WASM_READERS[input];
    const writer = PANDOC_WASM_WRITERS[req.format];
    if (!reader || !writer)
      throw new TaskError("UNSUPPORTED", `pandoc-wasm does not convert ${input || "this file"} to ${req.format}.`);
    const data = heldDocument(req.input, "pandoc in WebAssembly");
    if (data.byteLength > budget.maxBytes)
      throw new TaskError(
        "OVER_BUDGET",
        `${req.input.filename} is ${data.byteLength} bytes; pandoc in WebAssembly takes up to ${budget.maxBytes}.`,
      );
    const binary = PANDOC_BINARY_INPUTS.has(input);
    const inflated = binary ? declaredInflatedBytes(data) : null;
    if (inflated !== null && inflated > budget.maxInflatedBytes)
      throw new TaskError(
        "OVER_BUDGET",
        `${req.input.filename} would expand to ${inflated === Infinity ? "an undeclared size" : `${Math.round(inflated / 2 ** 20)} MiB`}; ` +
          `pandoc in WebAssembly takes containers of up to ${budget.maxInflatedBytes / 2 ** 20} MiB (a zip bomb is refused unopened).`,
      );
    const text = binary ? { data, recoded: false } : asUtf8(data);
    const inName = `input.${input}`;
    const outName = `output.${req.format}`;
    const p = await pandoc();
    let run;
    try {
      run = p.run(
        {
          from: reader,
          to: writer.writer,
          standalone: writer.standalone,
          sandbox: true,
          "input-files": [inName],
          "output-file": outName,
          // a document's own pictures (its media bag) inside the page; nothing outside it is read (sandbox)
          ...(req.format === "html" ? { "embed-resources": true } : {}),
        },
        { [inName]: text.data },
        outName,
      );
    } catch (err) {
      instance = undefined;
      if (err instanceof PandocExit && err.outOfMemory)
        throw new TaskError(
          "OVER_BUDGET",
          `${req.input.filename} needs more memory than pandoc in WebAssembly has (${budget.maxHeapBytes} bytes of heap).`,
        );
      throw new TaskError("UNSUPPORTED", `pandoc in WebAssembly stopped on ${req.input.filename}: ${String(err)}`);
    }
    if (run.stderr.trim() || (!run.output.byteLength && binary))
      throw new TaskError(
        "CONVERSION_FAILED",
        `pandoc could not convert ${req.input.filename}: ${run.stderr.trim().replace(/^ERROR:\s*/, "") || "no output"}`,
      );
    const warnings = [
      ...(text.recoded ? [`${req.input.filename} is not UTF-8; it was read as windows-1252.`] : []),
      ...new Set(
        run.warnings
          .filter((w) => w.verbosity === "WARNING" || w.verbosity === "ERROR")
          .map((w) => (w.pretty ?? w.type ?? "").replace(/\s+/g, " ").trim())
          .filter(Boolean),
      ),
    ].slice(0, MAX_WARNINGS);
    if (p.memoryBytes() > budget.maxHeapBytes * 2) instance = undefined;
    return {
      data: run.output,
      pages: null,
      fontsSubstituted: [],
      ...(warnings.length ? { warnings } : {}),
    };
  }

  return {
    async convert(req) {
      try {
        return { ok: true, engineVersion: PANDOC_WASM_ENGINE.version, ...(await convert(req)) };
      } catch (err) {
        return { ok: false, error: toFailure(err), engineVersion: PANDOC_WASM_ENGINE.version };
      }
    },
  };
}
