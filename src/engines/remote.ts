/**
 * The RPC seam of engines that run outside the calling isolate (DESIGN.md principle 11): one
 * shape, `invoke(method, request) → result as data`, served by the shared engine-Worker entry
 * (wasm/entry.ts) over a service binding, and by the native engine over HTTP. The caller gets an
 * object of the kind's interface (kinds/) and never knows which host answers.
 */
import { KIND_METHODS, type EngineKind, type EngineKinds } from "./kinds";
import { fromWire, toWire } from "./wire";

/** What an engine host serves: one kind's method by name, its request and answer structured-clone data. */
export interface EngineRpc {
  invoke(method: string, request: unknown): Promise<unknown>;
}

/**
 * An engine of `kind` whose calls go to `rpc`. Only the kind's methods exist on it (KIND_METHODS),
 * so a method the host lacks is absent here too. Large byte arrays travel as streams both ways
 * (wire.ts: RPC values are capped at 32 MiB).
 */
export function remoteEngine<K extends EngineKind>(kind: K, rpc: EngineRpc): EngineKinds[K] {
  const methods: readonly string[] = KIND_METHODS[kind];
  // the one place a dynamic object is given the kind's static type: each method forwards its request (large arrays as streams)
  return Object.fromEntries(
    methods.map((m) => [m, async (request: unknown) => fromWire(await rpc.invoke(m, toWire(request)))]),
  ) as unknown as EngineKinds[K];
}
