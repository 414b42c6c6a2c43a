/**
 * The native engine's rows of the engine table as engine objects of their kinds, all reached through
 * one NativeTarget (client.ts). Shared by the Worker (runtime/workerd) and Node (tests, benchmarks).
 * The rows, their kinds and their names on the wire: native-protocol/engines.ts.
 */
import { NATIVE_ENGINES, wireName } from "../../../native-protocol/engines";
import type { LocalFile, StreamedBytes } from "../../../native-protocol/frame";
import type {
  NativeKind,
  NativeKindAnswer,
  NativeKindMethod,
  NativeKindRequests,
} from "../../../native-protocol/kinds";
import type { EngineKinds, KIND_METHODS } from "../kinds";
import type { EngineInstances } from "../registry";
import { nativeEngine, nativeRpc, type NativeTarget } from "./client";

/** True when every method the native engine types for kind `K` (native-protocol/kinds.ts) is one of the kind's. */
type MethodsOfKind<K extends NativeKind> = NativeKindMethod<K> extends (typeof KIND_METHODS)[K][number] ? true : false;

/**
 * True when the request the Worker's kind `K` sends to method `M` and the one the native engine reads
 * (native-protocol/kinds.ts) are one shape, or one narrows the other (the native archive engine reads only the
 * formats its row offers); methods without a request (`info`) pass.
 */
type RequestOfKind<K extends NativeKind, M extends NativeKindMethod<K>> = M extends keyof EngineKinds[K]
  ? NonNullable<EngineKinds[K][M]> extends (...args: infer A) => unknown
    ? A extends []
      ? true
      : A[0] extends NativeKindRequests[K][M]
        ? true
        : NativeKindRequests[K][M] extends A[0]
          ? true
          : false
    : false
  : false;

/**
 * A native answer's value as the Worker reads it: a file the server streams from disk (LocalFile) arrives as a
 * stream, wherever it sits (in arrays and objects too).
 */
type Read<V> = V extends LocalFile
  ? StreamedBytes
  : V extends Uint8Array
    ? V
    : V extends readonly (infer E)[]
      ? Read<E>[]
      : V extends object
        ? { [P in keyof V]: Read<V[P]> }
        : V;
/** A native answer as the Worker reads it ({@link Read} of each field). */
type AsRead<T> = { [P in keyof T]: Read<T[P]> };

/** The fields of a successful answer of the Worker's kind `K` to method `M`. */
type KindAnswer<K extends NativeKind, M> = M extends keyof EngineKinds[K]
  ? NonNullable<EngineKinds[K][M]> extends (...args: never[]) => Promise<infer R>
    ? Exclude<R, { ok: false }>
    : never
  : never;

/** True when the Worker's kind `K` answers method `M` with every field the native engine answers, of its type. */
type AnswerOfKind<K extends NativeKind, M extends NativeKindMethod<K>> = [KindAnswer<K, M>] extends [never]
  ? false
  : KindAnswer<K, M> extends AsRead<NativeKindAnswer<K, M>>
    ? true
    : false;

/** Each native kind's methods, requests and answers agree with the Worker's kind: true, else false. */
type KindsAgree = {
  [K in NativeKind]: MethodsOfKind<K> extends true
    ? { [M in NativeKindMethod<K>]: RequestOfKind<K, M> extends true ? AnswerOfKind<K, M> : false }[NativeKindMethod<K>]
    : false;
};
/** Only `true` is a `true` (a false or boolean argument is a compile error). */
type AllTrue<T extends true> = T;

/** Every native kind's methods, requests and answers agree with the Worker's kinds, checked at compile time. */
export type NativeKindsAgree = AllTrue<KindsAgree[NativeKind]>;

/**
 * The native rows of the engine table as engine objects. `signal` (the task's) cancels a running
 * tool; `timeoutMs` (what is left of the task's timeout) caps it; answer files over `streamOver` bytes of a
 * streamed call come back as streams (client.ts nativeRpc; default NATIVE_MAX_BYTES).
 */
export function nativeEngines(
  target: NativeTarget | undefined,
  opts: { signal?: AbortSignal; timeoutMs?: number; streamOver?: number } = {},
): EngineInstances {
  if (!target) return {};
  const engines: EngineInstances = {};
  for (const row of NATIVE_ENGINES) {
    // each row's object is of its own kind (nativeEngine), which EngineInstances types by the same row
    Object.assign(engines, { [row.name]: nativeEngine(row.kind, nativeRpc(target.fetch, wireName(row), opts)) });
  }
  return engines;
}
