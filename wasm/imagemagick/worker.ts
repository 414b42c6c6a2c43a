/**
 * The ImageMagick engine Worker: its own bundle (magick.wasm 14.8 MB + 2.2 MB of fonts) and its
 * own 128 MB isolate, reached from the API Worker by a service binding (DESIGN.md "engine Workers").
 *
 * RPC (the ImageMagickEngine interface, engines/imagemagick/types.ts):
 *   env.IMAGEMAGICK.run(request: ImageRunRequest): Promise<ImageRunResult>   bytes in, bytes out, errors as data
 *   env.IMAGEMAGICK.info(): Promise<{engineVersion, wasmMemoryBytes}>
 * HTTP (diagnostics; the Worker has no public route, workers_dev = false):
 *   GET  /health                         → 200 {engine, engineVersion, wasmMemoryBytes}
 *   POST /run?op=convert|thumbnail&from=png&to=jpg&width=&height=&fit=&quality=
 *        body: the input bytes → the first output's bytes (x-engine-ms, x-wasm-memory headers), or 422 {code, message}
 *
 * ImageMagick is initialised lazily on the first call, from the module wrangler precompiled at
 * deploy (workerd cannot compile WASM from bytes at run time).
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import magickWasm from "@imagemagick/magick-wasm/magick.wasm";
import dejaVuSans from "../fonts/DejaVuSans.ttf";
import dejaVuSansBold from "../fonts/DejaVuSans-Bold.ttf";
import dejaVuSerif from "../fonts/DejaVuSerif.ttf";
import dejaVuSansMono from "../fonts/DejaVuSansMono.ttf";
import { createImageMagickEngine } from "../../src/engines/imagemagick/engine";
import { canonicalFormat } from "../../src/engines/imagemagick/formats";
import type { ImageMagickEngine, ImageRunRequest, ImageRunResult } from "../../src/engines/imagemagick/types";

const engine = createImageMagickEngine({
  loadWasm: async () => magickWasm,
  loadFonts: async () => ({
    "DejaVu Sans": new Uint8Array(dejaVuSans),
    "DejaVu Sans Bold": new Uint8Array(dejaVuSansBold),
    "DejaVu Serif": new Uint8Array(dejaVuSerif),
    "DejaVu Sans Mono": new Uint8Array(dejaVuSansMono),
  }),
});

const json = (body: unknown, status = 200) => Response.json(body, { status });

/** Default entrypoint: bind it with `[[services]] binding = "IMAGEMAGICK", service = "edge-convert-imagemagick"`. */
export default class ImageMagickEngineWorker extends WorkerEntrypoint implements ImageMagickEngine {
  /** Runs one image operation. Never throws for bad input: failures are `{ok: false, error}`. */
  async run(request: ImageRunRequest): Promise<ImageRunResult> {
    return engine.run(request);
  }

  /** ImageMagick version and current WASM memory (initialises the engine if needed). */
  async info(): Promise<{ engineVersion: string; wasmMemoryBytes: number }> {
    return engine.info();
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === "GET" && url.pathname === "/health") {
      return json({ engine: "imagemagick", ...(await engine.info()) });
    }
    if (request.method === "POST" && url.pathname === "/run") return this.runOverHttp(url, request);
    return json({ code: "NOT_FOUND", message: "GET /health or POST /run?op=&from=&to=" }, 404);
  }

  private async runOverHttp(url: URL, request: Request): Promise<Response> {
    const q = url.searchParams;
    const from = canonicalFormat(q.get("from") ?? undefined), to = canonicalFormat(q.get("to") ?? undefined);
    const op = q.get("op") ?? "convert";
    if (!from || !to || (op !== "convert" && op !== "thumbnail")) {
      return json({ code: "INVALID_CONVERSION_TYPE", message: "op=convert|thumbnail, from= and to= must be image formats" }, 422);
    }
    const num = (k: string) => (q.has(k) ? Number(q.get(k)) : undefined);
    const fit = (q.get("fit") ?? undefined) as "max" | "crop" | "scale" | undefined;
    const options = { width: num("width"), height: num("height"), fit, quality: num("quality") };
    const input = new Uint8Array(await request.arrayBuffer());
    const r = await engine.run({ op, input, inputFormat: from, outputFormat: to, options } as ImageRunRequest);
    if (!r.ok) return json(r.error, 422);
    return new Response(r.outputs[0].data, {
      headers: { "content-type": `image/${to}`, "x-engine-version": r.engineVersion, "x-engine-ms": r.ms.toFixed(1), "x-wasm-memory": String(r.wasmMemoryBytes) },
    });
  }
}
