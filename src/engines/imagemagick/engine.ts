/**
 * The in-process ImageMagick engine: the same code serves Node (tests, bench) and the engine
 * Worker (wasm/imagemagick/worker.ts); only `loadWasm`/`loadFonts` differ per platform
 * (runtime/node/imagemagick.ts in Node, imported modules in workerd); the watermark fonts come
 * from a FontSource (engines/text/faces.ts), each face loaded when a text first needs it.
 *
 * ImageMagick is initialised lazily on the first call (workerd gives global scope 1 s; compiling
 * and instantiating magick takes ~40–90 ms). Calls run one at a time: every pipeline is synchronous
 * WASM work. Failures come back as data ({ok: false, error}), never as a rejected promise.
 */
import { TaskError, toFailure } from "../errors";
import { resolveBudget } from "./budget";
import { canonicalFormat } from "../kinds/image";
import { applyResourceLimits, discardInstance, initImageMagick, wasmMemoryBytes } from "./magick";
import { toImageTaskError } from "./magick-errors";
import { runConvert } from "./ops/convert";
import { runOptimize } from "./ops/optimize";
import { runThumbnail } from "./ops/thumbnail";
import { runWatermark, shapeWatermarkText } from "./ops/watermark";
import { loadSvgFonts, registerSvgFonts } from "./svg-fonts";
import type { FontSource } from "../text/faces";
import type { ShapedText } from "../text/shape";
import type { ImageBudget, ImageEngine, ImageRunOutput, ImageRunRequest, ImageRunResult } from "../kinds/image";

/** How this platform obtains magick's module and the shipped fonts. */
export interface ImageMagickLoader {
  /** A compiled module (workerd: `import wasm from "@imagemagick/magick-wasm/magick.wasm"`) or its bytes (Node). */
  loadWasm(): Promise<WebAssembly.Module | Uint8Array>;
  /**
   * The watermark fonts (DejaVu and the Noto script faces), loaded lazily per face, and the faces of
   * SVG text (svg-fonts.ts); without it text watermarks, and SVGs with text, answer UNSUPPORTED.
   */
  fonts?: FontSource;
  /** Engine-wide budget overrides (a request's own `budget` overrides these). */
  budget?: Partial<ImageBudget>;
  /**
   * WASM memory never shrinks; after a call leaves it above this many bytes (default 64 MB) the
   * instance is dropped and the next call starts a fresh one (~40 ms from the compiled module), so
   * one big image does not keep the isolate near its 128 MB limit.
   */
  recycleAboveBytes?: number;
}

/**
 * Requests arrive over RPC from other code: check the shape before touching WASM. An input sent as a stream (issue
 * 49: only the native rows take those) is UNSUPPORTED here, so routing hands it on.
 */
function checkRequest(req: ImageRunRequest): asserts req is ImageRunRequest & { input: Uint8Array } {
  if (req?.input && typeof req.input === "object" && "stream" in req.input)
    throw new TaskError("UNSUPPORTED", "The WebAssembly ImageMagick engine takes an image as bytes, not as a stream.");
  if (!(req?.input instanceof Uint8Array))
    throw new TaskError("INTERNAL_ERROR", "Engine request without `input` bytes.");
  for (const f of [req.inputFormat, req.outputFormat]) {
    if (canonicalFormat(f) !== f)
      throw new TaskError("INVALID_CONVERSION_TYPE", `"${f}" is not an image format this engine knows.`);
  }
}

function dispatch(req: ImageRunRequest, budget: ImageBudget, text?: ShapedText): ImageRunOutput<Uint8Array>[] {
  checkRequest(req);
  switch (req.op) {
    case "convert":
      return runConvert(req.input, req.inputFormat, req.outputFormat, req.options, budget);
    case "thumbnail":
      return runThumbnail(req.input, req.inputFormat, req.outputFormat, req.options, budget);
    case "optimize":
      return runOptimize(req.input, req.inputFormat, req.options, budget);
    case "watermark":
      return runWatermark(
        req.input,
        req.inputFormat,
        req.outputFormat,
        req.options,
        budget,
        req.extra,
        req.extraFormat,
        text,
      );
    default:
      throw new TaskError("UNSUPPORTED", `The ImageMagick engine has no operation "${(req as { op: string }).op}".`);
  }
}

/**
 * The faces of SVG text when the request reads an SVG (input, or a watermark's image). Without a
 * source, or when it fails, undefined: an SVG without text still renders, and one with text ends
 * UNSUPPORTED (magick-errors.ts), which hands the task to the next engine.
 */
async function svgFontsFor(req: ImageRunRequest, fonts: FontSource | undefined) {
  const svg = req?.inputFormat === "svg" || (req?.op === "watermark" && req.extraFormat === "svg");
  if (!fonts || !svg) return undefined;
  return loadSvgFonts(fonts).catch(() => undefined);
}

/** Creates the in-process engine. Nothing is loaded until the first call. */
export function createImageMagickEngine(loader: ImageMagickLoader): ImageEngine<Uint8Array> {
  let version = "";
  let assets: Promise<WebAssembly.Module | Uint8Array> | undefined;
  const init = async () => {
    // the module is loaded once; initImageMagick is cheap when ready, and rebuilds after a WASM trap.
    // No fonts are registered with ImageMagick: text is drawn as outlines (ops/watermark.ts).
    assets ??= loader.loadWasm().catch((err) => {
      assets = undefined;
      throw err;
    });
    version = await initImageMagick(await assets);
  };
  return {
    async info() {
      await init();
      return { engineVersion: version, wasmMemoryBytes: wasmMemoryBytes() };
    },
    async run(req) {
      try {
        await init();
      } catch (err) {
        return {
          ok: false,
          error: { code: "INTERNAL_ERROR", message: `ImageMagick could not start: ${String(err)}`, retryable: true },
          engineVersion: version,
        };
      }
      const budget = resolveBudget({ ...loader.budget, ...req.budget });
      const started = performance.now();
      try {
        // fonts load asynchronously (first use only); the pipeline after this is synchronous WASM work
        const svgFaces = await svgFontsFor(req, loader.fonts);
        const text = req?.op === "watermark" ? await shapeWatermarkText(req.options ?? {}, loader.fonts) : undefined;
        if (svgFaces) registerSvgFonts(svgFaces);
        applyResourceLimits(budget);
        const outputs = dispatch(req, budget, text);
        const result: ImageRunResult<Uint8Array> = {
          ok: true,
          outputs,
          engineVersion: version,
          wasmMemoryBytes: wasmMemoryBytes(),
          ms: performance.now() - started,
        };
        return result;
      } catch (err) {
        return {
          ok: false,
          error: toFailure(
            toImageTaskError(err, "process", `${String(req?.inputFormat ?? "input").toUpperCase()} image`),
          ),
          engineVersion: version,
        };
      } finally {
        if (wasmMemoryBytes() > (loader.recycleAboveBytes ?? 64e6)) discardInstance();
      }
    },
  };
}
