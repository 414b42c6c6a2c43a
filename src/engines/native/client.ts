/**
 * The NativeEngine seam (DESIGN.md principle 11, issue 12): the api Worker reaches the native
 * engine (container/server.ts) through one fetch-shaped port with two adapters, chosen by
 * configuration — the Container binding in production (container.ts), loopback HTTP to the same
 * server run as a local process in `wrangler dev` and CI (NATIVE_ENGINE_URL). Above this file
 * nothing knows which: each native row of the engine table becomes an EngineRpc (remote.ts) whose
 * calls are POST /invoke/<engine>/<method> in the wire of native-protocol/wire.ts.
 */
import { DEADLINE_HEADER, pack, unpack, type Health } from "../../../native-protocol/wire";
import { KIND_METHODS, type EngineKind, type EngineKinds } from "../kinds";
import type { EngineRpc } from "../remote";

/** The port: one HTTP exchange with the native engine (path starts with "/"). */
export type NativeFetch = (path: string, init?: RequestInit) => Promise<Response>;

/** Loopback adapter: the native engine as a local process at `baseUrl` (e.g. "http://127.0.0.1:8790"). */
export function httpNative(baseUrl: string): NativeFetch {
  const base = baseUrl.replace(/\/+$/, "");
  return (path, init) => fetch(`${base}${path}`, init);
}

/** Something with a Durable-Object-style fetch: a Container stub (container.ts). */
export interface FetchStub {
  fetch(request: Request): Promise<Response>;
}

/** Container adapter: each exchange goes to the stub `pick()` returns (one of the container instances). */
export function containerNative(pick: () => FetchStub): NativeFetch {
  return (path, init) => pick().fetch(new Request(`http://native-engine${path}`, init));
}

/** Failure as data when the native engine cannot be reached (a hand-off code: routing tries the next engine). */
const unreachable = (message: string) => ({
  ok: false,
  engineVersion: "unavailable",
  error: { code: "ENGINE_UNAVAILABLE", message: `The native engine is not reachable: ${message}`, retryable: true },
});

/**
 * The EngineRpc of native engine `engine` (a row name of the engine table). `signal` (the task's)
 * aborts the HTTP exchange, which makes the server kill the tool; `timeoutMs` caps each tool run.
 */
export function nativeRpc(
  native: NativeFetch,
  engine: string,
  opts: { signal?: AbortSignal; timeoutMs?: number } = {},
): EngineRpc {
  return {
    async invoke(method, request) {
      let res: Response | undefined;
      // One retry on a connection failure: a call is a pure function of its request, and a pooled
      // connection the server has just closed fails before anything ran.
      for (let attempt = 1; !res; attempt++) {
        try {
          res = await native(`/invoke/${engine}/${method}`, {
            method: "POST",
            body: pack(request),
            signal: opts.signal,
            headers: opts.timeoutMs ? { [DEADLINE_HEADER]: String(Math.max(1, Math.floor(opts.timeoutMs))) } : {},
          });
        } catch (err) {
          if (opts.signal?.aborted) throw err;
          if (attempt >= 2) return unreachable(err instanceof Error ? err.message : String(err));
        }
      }
      if (res.status !== 200) return unreachable(`HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
      return unpack(await res.formData());
    },
  };
}

/**
 * An engine of `kind` served by native engine `engine`: the kind's methods (KIND_METHODS), each one
 * POST. Bytes travel as multipart parts, so no size cap of Workers RPC applies here.
 */
export function nativeEngine<K extends EngineKind>(kind: K, rpc: EngineRpc): EngineKinds[K] {
  const methods: readonly string[] = KIND_METHODS[kind];
  // the one place a dynamic object is given the kind's static type (as remote.ts does for service bindings)
  return Object.fromEntries(
    methods.map((m) => [m, (request: unknown) => rpc.invoke(m, request)]),
  ) as unknown as EngineKinds[K];
}

/** The native engine a deployment reaches: its port and a key naming it (for the health cache). */
export interface NativeTarget {
  fetch: NativeFetch;
  key: string;
}

const cache = new Map<string, { at: number; health: Health | null }>();

/**
 * What the native engine reports it has (GET /health), cached for 30 s per isolate; null when it is
 * not reachable (then every native operation is absent from the catalogue).
 */
export async function nativeHealth(target: NativeTarget | undefined, now = Date.now()): Promise<Health | null> {
  if (!target) return null;
  const native = target.fetch;
  const cached = cache.get(target.key);
  if (cached && now - cached.at < 30_000) return cached.health;
  let health: Health | null = null;
  try {
    const res = await native("/health", { signal: AbortSignal.timeout(5_000) });
    health = res.ok ? ((await res.json()) as Health) : null;
  } catch {
    health = null; // not reachable: reported as absent, not as an error
  }
  cache.set(target.key, { at: now, health });
  return health;
}
