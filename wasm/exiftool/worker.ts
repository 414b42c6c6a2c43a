/**
 * The ExifTool engine Worker: its own bundle (zeroperl.wasm 25.4 MB + the Perl files 1.4 MB) and
 * its own 128 MB isolate (a call takes ~40 MB of WASM memory), reached from the API Worker by a
 * service binding (DESIGN.md "engine Workers").
 *
 * RPC (the ExifToolEngine interface, engines/exiftool/types.ts):
 *   env.EXIFTOOL.read(request: ExifToolReadRequest): Promise<ExifToolReadResult>    bytes in, metadata out, errors as data
 *   env.EXIFTOOL.write(request: ExifToolWriteRequest): Promise<ExifToolWriteResult> bytes in, bytes out, errors as data
 *   env.EXIFTOOL.info(): Promise<{engineVersion, wasmMemoryBytes}>
 * HTTP (diagnostics and benchmarks; the Worker has no public route, workers_dev = false):
 *   GET  /health                               → 200 {engine, engineVersion, wasmMemoryBytes}
 *   POST /read?filename=a.pdf[&format=pdf]     body: the file → 200 {metadata, ms, wasmMemoryBytes} or 422 {code, message}
 *   POST /write?filename=a.pdf&tags={json}     body: the file → the new file (x-engine-ms, x-wasm-memory) or 422 {code, message}
 *
 * The interpreter starts per call from the module wrangler precompiled at deploy (workerd cannot
 * compile WASM from bytes at run time).
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import zeroperlWasm from "@6over3/zeroperl-ts/zeroperl.wasm";
import perlFiles from "./perl-files.json";
import { createExifToolEngine } from "../../src/engines/exiftool/engine";
import type { ExifToolEngine, ExifToolReadRequest, ExifToolReadResult, ExifToolWriteRequest, ExifToolWriteResult } from "../../src/engines/exiftool/types";

const engine = createExifToolEngine({
  loadWasm: async () => zeroperlWasm,
  loadPerlFiles: async () => perlFiles as Record<string, string>,
});

const json = (body: unknown, status = 200) => Response.json(body, { status });

/** Default entrypoint: bind it with `[[services]] binding = "EXIFTOOL", service = "edge-convert-exiftool"`. */
export default class ExifToolEngineWorker extends WorkerEntrypoint implements ExifToolEngine {
  /** Reads a file's metadata. Never throws for bad input: failures are `{ok: false, error}`. */
  async read(request: ExifToolReadRequest): Promise<ExifToolReadResult> {
    return engine.read(request);
  }

  /** Writes metadata into a new file. Never throws for bad input: failures are `{ok: false, error}`. */
  async write(request: ExifToolWriteRequest): Promise<ExifToolWriteResult> {
    return engine.write(request);
  }

  /** ExifTool's version and the WASM memory of the last call. */
  async info(): Promise<{ engineVersion: string; wasmMemoryBytes: number }> {
    return engine.info();
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const q = url.searchParams;
    if (request.method === "GET" && url.pathname === "/health") return json({ engine: "exiftool", ...(await engine.info()) });
    if (request.method !== "POST" || (url.pathname !== "/read" && url.pathname !== "/write")) {
      return json({ code: "NOT_FOUND", message: "GET /health, POST /read?filename= or POST /write?filename=&tags=" }, 404);
    }
    const input = new Uint8Array(await request.arrayBuffer());
    const base = { input, filename: q.get("filename") ?? "file", format: q.get("format") ?? undefined };
    if (url.pathname === "/read") {
      const r = await engine.read(base);
      return r.ok ? json({ metadata: r.metadata, engineVersion: r.engineVersion, ms: r.ms, wasmMemoryBytes: r.wasmMemoryBytes }) : json(r.error, 422);
    }
    let tags: ExifToolWriteRequest["tags"];
    try {
      tags = JSON.parse(q.get("tags") ?? "{}");
    } catch {
      return json({ code: "CONVERSION_FAILED", message: "tags= must be a JSON object" }, 422);
    }
    const r = await engine.write({ ...base, tags });
    if (!r.ok) return json(r.error, 422);
    return new Response(r.data, { headers: { "x-engine-version": r.engineVersion, "x-engine-ms": r.ms.toFixed(1), "x-wasm-memory": String(r.wasmMemoryBytes) } });
  }
}
