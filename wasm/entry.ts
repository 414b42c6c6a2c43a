/**
 * The one engine-Worker entry (issue 9): every engine Worker under wasm/ is its loader plus
 * `export default engineWorker(kind, name, engine)`. It serves the RPC seam of engines/remote.ts
 * and a small HTTP surface for diagnostics and benchmarks; the Workers have no public route
 * (workers_dev = false), only service bindings reach them.
 *
 * RPC (what `remoteEngine(kind, env.BINDING)` calls):
 *   invoke(method, request) → the engine's answer as data ({ok: true, …} | {ok: false, error});
 *   byte arrays of 1 MiB or more travel as {$stream, length} both ways (src/engines/wire.ts)
 * HTTP:
 *   GET  /health                               → 200 {engine, engineVersion, wasmMemoryBytes}
 *   POST /invoke/<method>?request=<json>       body: the input bytes (as request.input) →
 *        200 the answer as JSON, byte fields as {bytes: n}; 422 with the error when ok is false
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import { KIND_METHODS, type EngineKind, type EngineKinds } from "../src/engines/kinds";
import { fromWire, toWire } from "../src/engines/wire";

const json = (body: unknown, status = 200) =>
  Response.json(body, { status, headers: { "x-engine-ms": String((body as { ms?: number })?.ms ?? "") } });

/** The answer with every byte array replaced by its length (for the HTTP diagnostics). */
function describe(value: unknown): unknown {
  if (value instanceof Uint8Array) return { bytes: value.byteLength };
  if (Array.isArray(value)) return value.map(describe);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, describe(v)]));
  return value;
}

/**
 * One log line per engine call, for operators (Workers Logs, `wrangler tail`) and the reliability
 * suite's memory figures: `engine <name>.<method> ok|<code> ms=<n> wasm_memory_bytes=<n>`.
 */
function logCall(name: string, method: string, answer: unknown): void {
  if (method === "info") return;
  const a = (answer ?? {}) as { ok?: boolean; error?: { code?: string }; ms?: number; wasmMemoryBytes?: number };
  const outcome = a.ok === false ? (a.error?.code ?? "error") : "ok";
  console.log(
    `engine ${name}.${method} ${outcome} ms=${Math.round(a.ms ?? -1)} wasm_memory_bytes=${a.wasmMemoryBytes ?? -1}`,
  );
}

/**
 * The Worker class serving `engine` (an object of `kind`'s interface) as engine `name`.
 * Unknown methods answer UNSUPPORTED as data, so routing passes the task on.
 */
export function engineWorker<K extends EngineKind>(kind: K, name: string, engine: EngineKinds[K]) {
  const methods: readonly string[] = KIND_METHODS[kind];
  const call = async (method: string, request: unknown): Promise<unknown> => {
    const fn = methods.includes(method) ? (engine as Record<string, unknown>)[method] : undefined;
    if (typeof fn !== "function") {
      return {
        ok: false,
        error: { code: "UNSUPPORTED", message: `The ${name} engine has no method ${method}.`, retryable: false },
        engineVersion: "",
      };
    }
    return fn.call(engine, request);
  };
  return class EngineWorker extends WorkerEntrypoint {
    /** One engine call: the kind's `method` with its request; the answer as data. Large byte arrays cross as streams (src/engines/wire.ts). */
    async invoke(method: string, request: unknown): Promise<unknown> {
      const answer = await call(method, await fromWire(request));
      logCall(name, method, answer);
      return toWire(answer);
    }

    async fetch(request: Request): Promise<Response> {
      const url = new URL(request.url);
      if (request.method === "GET" && url.pathname === "/health") {
        const info = await call("info", undefined);
        return json({ engine: name, ...(info as object) });
      }
      const m = /^\/invoke\/([a-z]+)$/.exec(url.pathname);
      if (request.method !== "POST" || !m)
        return json({ code: "NOT_FOUND", message: "GET /health or POST /invoke/<method>?request=<json>" }, 404);
      let req: Record<string, unknown>;
      try {
        req = JSON.parse(url.searchParams.get("request") ?? "{}");
      } catch {
        return json({ code: "INVALID_DATA", message: "request= must be a JSON object" }, 422);
      }
      const answer = (await call(m[1], { ...req, input: new Uint8Array(await request.arrayBuffer()) })) as {
        ok?: boolean;
        error?: unknown;
      };
      return answer?.ok === false ? json(answer.error, 422) : json(describe(answer));
    }
  };
}
