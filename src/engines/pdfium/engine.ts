/**
 * The in-process PDFium engine: one lazily created instance per isolate (compiling is done once by
 * the platform; instantiating takes ~20 ms), shared by calls, and replaced when it is unhealthy:
 * after a WASM trap, or — since WASM memory never shrinks — when it grew past `maxMemoryBytes`
 * and no call is using it. Failures are returned as data (types.ts).
 */
import { TaskError, toFailure } from "../errors";
import { instantiatePdfium, type Pdfium, type PdfiumWasmSource } from "./instance";
import { renderPages } from "./render";
import {
  DEFAULT_RASTER_BUDGET,
  PDFIUM_ENGINE,
  type PdfiumEngine,
  type RasterRequest,
  type RasterResult,
} from "./types";

export interface PdfiumEngineOptions {
  /** The compiled pdfium.wasm of this platform (runtime/ seam). */
  loadWasm: PdfiumWasmSource;
  /** Replace the instance once its memory exceeds this many bytes (default 64 MiB). */
  maxMemoryBytes?: number;
}

/** Creates the engine; nothing is loaded until the first call. */
export function createPdfiumEngine(opts: PdfiumEngineOptions): PdfiumEngine {
  let instance: Promise<Pdfium> | undefined;
  let busy = 0;
  let broken = false;
  const maxMemory = opts.maxMemoryBytes ?? 64 * 1024 * 1024;

  const acquire = () => {
    if (!instance || (busy === 0 && broken)) {
      broken = false;
      instance = Promise.resolve(opts.loadWasm()).then(instantiatePdfium);
      instance.catch(() => (instance = undefined));
    }
    return instance;
  };

  return {
    async rasterize(request: RasterRequest): Promise<RasterResult> {
      const started = Date.now();
      const budget = { ...DEFAULT_RASTER_BUDGET, ...request.budget };
      busy++;
      let pdfium: Pdfium | undefined;
      try {
        pdfium = await acquire();
        const { pages, pageCount } = await renderPages(pdfium, request, budget);
        return {
          ok: true,
          pages,
          pageCount,
          engineVersion: PDFIUM_ENGINE.version,
          ms: Date.now() - started,
          wasmMemoryBytes: pdfium.pdfium.HEAPU8.byteLength,
        };
      } catch (err) {
        if (!(err instanceof TaskError)) {
          broken = true; // a trap leaves the instance in an unknown state: never reuse it
          const failure = toFailure(err);
          return {
            ok: false,
            error: {
              code: "CONVERSION_FAILED",
              message: `${request.filename}: PDFium failed: ${failure.message.replace(/^Internal error: /, "")}`,
              retryable: false,
            },
            engineVersion: PDFIUM_ENGINE.version,
          };
        }
        return { ok: false, error: toFailure(err), engineVersion: PDFIUM_ENGINE.version };
      } finally {
        busy--;
        if (pdfium && pdfium.pdfium.HEAPU8.byteLength > maxMemory) broken = true;
      }
    },
  };
}
