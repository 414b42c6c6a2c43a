/**
 * The WebAssembly SVG renderer (issue 33): resvg (`@resvg/resvg-wasm`, 2.4 MB of WebAssembly, no
 * eval) draws svg → png for convert and thumbnail, with the shipped DejaVu and Noto faces for its
 * text (fonts.ts). Other raster outputs (jpg, webp, gif, tiff, …), an exact `fit: scale`/`crop` box
 * and a recorded `pixel_density` go on to an encoder, an image engine of its own (ImageMagick in
 * WebAssembly: in-process in Node and the browser, its engine Worker over a service binding in
 * workerd), which re-encodes the PNG. The same code serves Node, the engine Worker (wasm/resvg) and
 * the browser build; only `loadWasm`, `fonts` and `encoder` differ per host.
 *
 * Safety: resvg fetches nothing (an `<image>` or `<use>` href to http:, file: or a path is left
 * undrawn: this engine never resolves `imagesToResolve()`); roxmltree refuses external entities and
 * entity loops; the picture's size is checked against the budget after the parse and before
 * drawing (budget.ts). An svgz (issue 47) arrives as "svg" (kinds/image.ts aliases it) and is inflated
 * by its gzip magic, at most `maxBytes` of SVG: a gzip bomb ends OVER_BUDGET after that many bytes,
 * never holding more (maybeGunzip). Failures come back as data: OPEN_FAILED for an SVG resvg cannot parse,
 * OVER_BUDGET, UNSUPPORTED for requests that are not svg → a raster image.
 */
import { TaskError, toFailure } from "../errors";
import type { ImageEngine, ImageFormat, ImageRunOutput, ImageRunRequest, ImageRunResult } from "../kinds/image";
import type { FontSource } from "../text/faces";
import { planResize, plannedSize } from "../imagemagick/geometry";
import { checkPixels, DEFAULT_SVG_BUDGET, type SvgBudget } from "./budget";
import { GENERIC_FAMILIES, hasText, prepareSvgText } from "./fonts";
import { RESVG_OUTPUTS } from "./formats";
import { RESVG_ENGINE } from "./version";

const THUMBNAIL_OUTPUTS: readonly ImageFormat[] = ["png", "jpg", "webp"];

/** How a host obtains the module, the faces and the encoder. */
export interface ResvgLoader {
  /** The compiled module (workerd, browser) or its bytes (Node). */
  loadWasm(): Promise<WebAssembly.Module | Uint8Array>;
  /** The shipped faces (engines/text/faces.ts); without it, an SVG with text ends UNSUPPORTED. */
  fonts?: FontSource;
  /** The image engine that re-encodes the PNG (outputs other than PNG, exact boxes, densities). */
  encoder?: ImageEngine<Uint8Array>;
  budget?: Partial<SvgBudget>;
}

type ResvgModule = typeof import("@resvg/resvg-wasm");

// resvg-wasm keeps its instance in module state and initialises once per module load
let ready: Promise<ResvgModule> | undefined;
/** The instance's linear memory, caught at instantiation (the glue does not export it); for wasmMemoryBytes. */
let memory: WebAssembly.Memory | undefined;
function resvgModule(loader: ResvgLoader): Promise<ResvgModule> {
  ready ??= (async () => {
    const mod = await import("@resvg/resvg-wasm");
    const wasm = await loader.loadWasm();
    await withInstanceSpy(() => mod.initWasm(wasm));
    return mod;
  })().catch((err) => {
    ready = undefined;
    throw err;
  });
  return ready;
}

/**
 * Runs `init` with WebAssembly.instantiate watched, keeping the memory of the instance that exports
 * resvg's own functions (`resvg_render`), so `wasmMemoryBytes` reports the real linear memory as the
 * other WASM engines do (reliability budgets read it). wasm-bindgen's glue keeps its instance private.
 */
async function withInstanceSpy(init: () => Promise<void>): Promise<void> {
  const original = WebAssembly.instantiate;
  const spy = async (...args: Parameters<typeof original>) => {
    const r = await (original as (...a: unknown[]) => Promise<unknown>)(...args);
    const inst = r instanceof WebAssembly.Instance ? r : (r as { instance?: WebAssembly.Instance }).instance;
    const exp = inst?.exports as Record<string, unknown> | undefined;
    if (exp && "resvg_render" in exp && exp.memory instanceof WebAssembly.Memory) memory = exp.memory;
    return r;
  };
  try {
    (WebAssembly as { instantiate: unknown }).instantiate = spy;
    await init();
  } finally {
    (WebAssembly as { instantiate: unknown }).instantiate = original;
  }
}

/** Bytes of resvg's linear memory now (it never shrinks, so this is the peak so far); 0 before the first load. */
const wasmMemoryBytes = () => memory?.buffer.byteLength ?? 0;

/** gzip magic (svgz): inflated with the platform's DecompressionStream, at most `max` bytes. */
async function maybeGunzip(b: Uint8Array, max: number): Promise<Uint8Array> {
  if (b[0] !== 0x1f || b[1] !== 0x8b) return b;
  const reader = new Response(b as BufferSource).body!.pipeThrough(new DecompressionStream("gzip")).getReader();
  const parts: Uint8Array[] = [];
  let n = 0;
  for (let c = await reader.read(); !c.done; c = await reader.read()) {
    n += c.value.byteLength;
    if (n > max) {
      await reader.cancel();
      throw new TaskError("OVER_BUDGET", `The compressed SVG inflates to more than ${max} bytes.`);
    }
    parts.push(c.value);
  }
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) out.set(p, (o += p.byteLength) - p.byteLength);
  return out;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** resvg's refusals (a string or an Error) → OPEN_FAILED naming the cause. */
function parseFailure(err: unknown): TaskError {
  return new TaskError("OPEN_FAILED", `The SVG could not be read: ${message(err)}`, { cause: err });
}

/**
 * The SVG as resvg is to read it and the faces of its text (fonts.ts). Without faces an SVG with
 * text is not drawn here: UNSUPPORTED hands it to the next engine rather than drawing it without words.
 * @throws TaskError UNSUPPORTED
 */
async function facesFor(svg: string, fonts: FontSource | undefined): Promise<{ svg: string; faces: Uint8Array[] }> {
  if (!hasText(svg)) return { svg, faces: [] };
  if (!fonts) throw new TaskError("UNSUPPORTED", "The SVG has text and no fonts are available to resvg here.");
  try {
    return await prepareSvgText(svg, fonts);
  } catch (err) {
    throw new TaskError("UNSUPPORTED", `The fonts for the SVG's text could not be loaded: ${message(err)}`, {
      cause: err,
    });
  }
}

/** Creates the engine. Nothing is loaded until the first call. */
export function createResvgEngine(loader: ResvgLoader): ImageEngine<Uint8Array> {
  const budget: SvgBudget = { ...DEFAULT_SVG_BUDGET, ...loader.budget };
  const version = RESVG_ENGINE.version;

  async function render(req: ImageRunRequest): Promise<ImageRunOutput<Uint8Array>> {
    if (req.inputFormat !== "svg") throw new TaskError("UNSUPPORTED", "resvg reads SVG only.");
    if (req.op !== "convert" && req.op !== "thumbnail")
      throw new TaskError("UNSUPPORTED", `resvg does not ${req.op} images.`);
    const outputs = req.op === "thumbnail" ? THUMBNAIL_OUTPUTS : RESVG_OUTPUTS;
    if (!outputs.includes(req.outputFormat))
      throw new TaskError("UNSUPPORTED", `resvg does not write ${String(req.outputFormat).toUpperCase()}.`);
    if (!(req.input instanceof Uint8Array))
      throw new TaskError("INTERNAL_ERROR", "Engine request without `input` bytes.");
    if (req.input.byteLength > budget.maxBytes)
      throw new TaskError("OVER_BUDGET", `The SVG is ${req.input.byteLength} bytes; at most ${budget.maxBytes} here.`);
    const o = req.options as {
      width?: number;
      height?: number;
      fit?: "max" | "crop" | "scale";
      pixel_density?: number;
      quality?: number;
      strip?: boolean;
    };
    const dpi = req.op === "convert" && o.pixel_density ? o.pixel_density : 96;
    const mod = await resvgModule(loader);
    const bytes = await maybeGunzip(req.input, budget.maxBytes);
    let svg: string;
    try {
      svg = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch (err) {
      throw parseFailure(err);
    }
    // the intrinsic size, from a parse without faces (text does not change it)
    let probe: InstanceType<ResvgModule["Resvg"]>;
    try {
      probe = new mod.Resvg(svg, { dpi, font: { fontBuffers: [] } });
    } catch (err) {
      throw parseFailure(err);
    }
    const [w0, h0] = [probe.width, probe.height];
    probe.free();
    if (!(w0 > 0 && h0 > 0)) throw new TaskError("OPEN_FAILED", `The SVG has no size to draw (${w0}×${h0}).`);
    const plan = planResize(Math.ceil(w0), Math.ceil(h0), o);
    const target = plannedSize(Math.ceil(w0), Math.ceil(h0), plan);
    // one uniform zoom that covers the box; the encoder cuts or squeezes it to the exact box
    const zoom = plan ? Math.max(plan.resize.w / w0, plan.resize.h / h0) : 1;
    checkPixels(
      w0 * zoom,
      h0 * zoom,
      budget,
      `${Math.round(w0)}×${Math.round(h0)} at ${dpi} dpi, zoom ${zoom.toFixed(3)}`,
    );
    const text = await facesFor(svg, loader.fonts);
    let png: Uint8Array, w: number, h: number;
    let r: InstanceType<ResvgModule["Resvg"]> | undefined;
    try {
      r = new mod.Resvg(text.svg, {
        dpi,
        font: { fontBuffers: text.faces, ...GENERIC_FAMILIES },
        fitTo: zoom === 1 ? { mode: "original" } : { mode: "zoom", value: zoom },
      });
      const img = r.render();
      [png, w, h] = [img.asPng(), img.width, img.height];
      img.free();
    } catch (err) {
      throw parseFailure(err);
    } finally {
      r?.free();
    }
    const exact = w === target.w && h === target.h;
    if (req.outputFormat === "png" && exact && !(req.op === "convert" && o.pixel_density)) {
      return { data: png, format: "png", width: w, height: h, frames: 1 };
    }
    if (!loader.encoder) throw new TaskError("UNSUPPORTED", `resvg has no encoder here for ${req.outputFormat}.`);
    const box = exact
      ? {}
      : { width: target.w, height: target.h, fit: plan?.crop ? ("crop" as const) : ("scale" as const) };
    const enc = await loader.encoder.run(
      req.op === "thumbnail"
        ? { op: "thumbnail", input: png, inputFormat: "png", outputFormat: req.outputFormat, options: box }
        : {
            op: "convert",
            input: png,
            inputFormat: "png",
            outputFormat: req.outputFormat,
            options: { ...box, quality: o.quality, strip: o.strip, pixel_density: o.pixel_density },
          },
    );
    if (!enc.ok) throw new TaskError(enc.error.code, enc.error.message, { retryable: enc.error.retryable });
    return enc.outputs[0];
  }

  return {
    async info() {
      await resvgModule(loader);
      return { engineVersion: version, wasmMemoryBytes: wasmMemoryBytes() };
    },
    async run(req): Promise<ImageRunResult<Uint8Array>> {
      const started = performance.now();
      try {
        const out = await render(req);
        return {
          ok: true,
          outputs: [out],
          engineVersion: version,
          wasmMemoryBytes: wasmMemoryBytes(),
          ms: performance.now() - started,
        };
      } catch (err) {
        return { ok: false, error: toFailure(err), engineVersion: version };
      }
    },
  };
}
