/**
 * The NativeEngine seam (DESIGN.md principle 11, issue 12): the api Worker reaches the native
 * engine (container/server.ts) through one fetch-shaped port with two adapters, chosen by
 * configuration — the Container binding in production (container.ts), loopback HTTP to the same
 * server run as a local process in `wrangler dev` and CI (NATIVE_ENGINE_URL). Above this file
 * nothing knows which: each native row of the engine table becomes an EngineRpc (remote.ts) whose
 * calls are POST /invoke/<engine>/<method> in the wire of native-protocol/wire.ts.
 */
import {
  FRAMED_TYPE,
  FrameReader,
  frame,
  hasStreams,
  resolveParts,
  type Framed,
  type PartSource,
  type StreamedBytes,
} from "../../../native-protocol/frame";
import { DEADLINE_HEADER, pack, unpack, type Health } from "../../../native-protocol/wire";
import { KIND_METHODS, type EngineKind, type EngineKinds } from "../kinds";
import type { EngineRpc } from "../remote";
import { NATIVE_MAX_BYTES } from "./rows";
import { Spread } from "../spread";

/** The port: one HTTP exchange with the native engine (path starts with "/"). */
export type NativeFetch = (path: string, init?: RequestInit) => Promise<Response>;

/** Loopback adapter: the native engine as a local process at `baseUrl` (e.g. "http://127.0.0.1:8790"). */
export function httpNative(baseUrl: string): NativeFetch {
  const base = baseUrl.replace(/\/+$/, "");
  return (path, init) => fetch(`${base}${path}`, init);
}

/** The loads of each set of instances this isolate reaches, by a key naming the set (the Worker's tasks share them). */
const spreads = new Map<string, Spread>();

/**
 * One NativeFetch over several instances of the native engine (issue 48): each exchange goes to the less loaded of two
 * instances chosen at random, by the exchanges this isolate has in flight on each (engines/spread.ts); an instance that
 * failed under an exchange (killed, restarting, unreachable) is passed over for a while, so nativeRpc's retry of a call
 * whose instance died goes to another. `key` names the set, so that every task of the isolate shares one count.
 */
export function spreadNative(key: string, instances: readonly NativeFetch[]): NativeFetch {
  if (instances.length === 1) return instances[0]!;
  let spread = spreads.get(key);
  if (spread?.count !== instances.length) spreads.set(key, (spread = new Spread(instances.length)));
  const on = spread;
  return (path, init) => {
    const i = on.order()[0]!;
    return on.on(i, () => instances[i]!(path, init));
  };
}

/** The loads of the set of instances `key` names (for metrics and tests), if a call has reached it. */
export const nativeSpread = (key: string): Spread | undefined => spreads.get(key);

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

/** The answer to a body over the server's limit (413): the file is too large for the native engine, not its absence. */
const tooLarge = (message: string) => ({
  ok: false,
  engineVersion: "unavailable",
  error: { code: "OVER_BUDGET", message: `The native engine refused the file: ${message}`, retryable: false },
});

/**
 * The answer to a call the native engine's disk budget cannot take now (503 with Retry-After; container/disk-budget.ts):
 * ENGINE_UNAVAILABLE, retryable, so the JobDO runs the task again after its back-off (durable-objects/job.ts).
 */
const diskBusy = (message: string, retryAfter: string | null) => ({
  ok: false,
  engineVersion: "unavailable",
  error: {
    code: "ENGINE_UNAVAILABLE",
    message: `The native engine is busy: ${message || "its disk budget is in use by other calls"}${retryAfter && !message ? ` (retry after ${retryAfter} s)` : ""}`,
    retryable: true,
  },
});

/** workerd's FixedLengthStream (absent in Node): a stream of exactly n bytes whose length fetch and R2 send ahead. */
type FixedLength = new (n: number) => TransformStream<Uint8Array, Uint8Array>;
const fixedLengthStream = () => (globalThis as { FixedLengthStream?: FixedLength }).FixedLengthStream;

/**
 * `pieces` joined into one stream of `length` bytes, each part's stream piped in with `pipeTo`: between workerd's own
 * streams (an R2 body into a FixedLengthStream) that runs without passing the chunks through JavaScript, whose
 * garbage would otherwise grow with the file (issue 35's slow test). A piece shorter or longer than it says errors
 * the stream. (workerd cannot pipe one TransformStream's readable into another's writable: pieces are never those.)
 */
function joined(Fixed: FixedLength, pieces: readonly PartSource[], length: number): ReadableStream<Uint8Array> {
  const fixed = new Fixed(length);
  void (async () => {
    for (const p of pieces) {
      if (p instanceof Uint8Array) {
        if (!p.byteLength) continue; // workerd's identity streams never settle a write of nothing
        const w = fixed.writable.getWriter();
        await w.write(p);
        w.releaseLock();
      } else await (await p.open()).pipeTo(fixed.writable, { preventClose: true });
    }
    await fixed.writable.close();
  })().catch((err) => fixed.writable.abort(err).catch(() => {}));
  return fixed.readable;
}

/**
 * The request part of a framed call: the body with its exact length. In workerd a FixedLengthStream's length is
 * the Content-Length; Node's fetch takes the header itself on a half-duplex stream.
 */
function framedInit(f: Framed): RequestInit {
  const Fixed = fixedLengthStream();
  if (Fixed) return { body: joined(Fixed, f.pieces, f.length), headers: { "content-type": FRAMED_TYPE } };
  return {
    body: f.body,
    headers: { "content-type": FRAMED_TYPE, "content-length": String(f.length) },
    duplex: "half",
  } as RequestInit;
}

/**
 * Reads a framed answer: parts as bytes while they add up to at most `streamOver` bytes, from the first that would
 * take them past it on as StreamedBytes, to be read in order (each waits for the one before it); so the Worker holds
 * at most `streamOver` bytes of an answer, however many parts it has (issue 49: a 200 MB PDF split into ten 20 MB
 * pages was held whole when only a part over the threshold streamed). When the first streamed
 * part is the last (one output file: the usual answer) and nothing past the header has been read (a byte stream,
 * read BYOB) in workerd, it is the rest of the response body itself: piped on by its reader (R2) without its chunks
 * passing through JavaScript, whose garbage would otherwise grow with the file (issue 35's slow test).
 */
async function readFramedAnswer(body: ReadableStream<Uint8Array>, streamOver: number): Promise<unknown> {
  const r = new FrameReader(body);
  const { value, sizes } = await r.header();
  const parts: (Uint8Array | StreamedBytes)[] = [];
  let held = 0;
  for (const [i, size] of sizes.entries()) {
    const streaming = parts.some((p) => !(p instanceof Uint8Array));
    const fits = held + size <= streamOver;
    // workerd only (FixedLengthStream: its R2 puts pipe a body natively); Node reads the part as a stream of its own
    const rest = !streaming && !fits && i === sizes.length - 1 && fixedLengthStream() ? r.detach() : undefined;
    if (rest) parts.push({ stream: rest, length: size });
    else if (!streaming && fits) (parts.push(await r.read(size)), (held += size));
    else parts.push({ stream: r.stream(size), length: size });
  }
  if (parts.every((p) => p instanceof Uint8Array)) await r.end();
  return resolveParts(value, parts);
}

/**
 * The EngineRpc of native engine `engine` (a row name of the engine table). `signal` (the task's)
 * aborts the HTTP exchange, which makes the server kill the tool; `timeoutMs` caps each tool run.
 * A request holding a StreamedBytes (an input too large to hold, issue 35) goes framed (native-protocol/frame.ts):
 * its streams are piped into the request body, never buffered, and the answer's files over `streamOver` bytes
 * (default NATIVE_MAX_BYTES, 64 MiB) come back as StreamedBytes read from the response as the caller reads them.
 * Any other request goes on the buffered wire (wire.ts). A 413 from the server (a body over its limit, or a call
 * needing more disk than its whole disk budget) is OVER_BUDGET; a 503 (its disk budget busy) is ENGINE_UNAVAILABLE,
 * retryable, with the server's message; no answer, or any other status, is ENGINE_UNAVAILABLE (retryable).
 */
export function nativeRpc(
  native: NativeFetch,
  engine: string,
  opts: { signal?: AbortSignal; timeoutMs?: number; streamOver?: number } = {},
): EngineRpc {
  return {
    async invoke(method, request) {
      const streamed = hasStreams(request);
      let res: Response | undefined;
      // One retry on a connection failure: a call is a pure function of its request, and a pooled
      // connection the server has just closed fails before anything ran. A framed call is sent again only when none
      // of its streams was opened (a stream cannot be read twice; the task's own retry covers the rest).
      // this call's own abort: stops sending a body the server has refused (413, 503) without reading it
      const own = new AbortController();
      const signal = opts.signal ? AbortSignal.any([opts.signal, own.signal]) : own.signal;
      for (let attempt = 1; !res; attempt++) {
        const framed = streamed ? frame(request) : undefined;
        const init: RequestInit = framed ? framedInit(framed) : { body: pack(request) };
        try {
          res = await native(`/invoke/${engine}/${method}`, {
            ...init,
            method: "POST",
            signal,
            headers: {
              ...(init.headers as Record<string, string> | undefined),
              ...(opts.timeoutMs ? { [DEADLINE_HEADER]: String(Math.max(1, Math.floor(opts.timeoutMs))) } : {}),
            },
          });
        } catch (err) {
          if (opts.signal?.aborted) throw err;
          if (attempt >= 2 || framed?.partsOpened())
            return unreachable(err instanceof Error ? err.message : String(err));
        }
      }
      // a refusal's body is JSON {message}; the server may close the connection right after it, so reading it may fail
      const message = async () => {
        const text = await res.text().catch(() => "");
        try {
          return String((JSON.parse(text) as { message?: unknown }).message ?? text).slice(0, 300);
        } catch {
          return text.slice(0, 300);
        }
      };
      if (res.status === 413 || res.status === 503) {
        const why = await message();
        own.abort(new Error(`The native engine refused the call (HTTP ${res.status}).`));
        return res.status === 413 ? tooLarge(why) : diskBusy(why, res.headers.get("retry-after"));
      }
      if (res.status !== 200) return unreachable(`HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
      if (res.headers.get("content-type") === FRAMED_TYPE && res.body)
        return readFramedAnswer(res.body, opts.streamOver ?? NATIVE_MAX_BYTES);
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
