/**
 * The one way operations obtain an engine: by kind and operation, typed by the kind's interface
 * (kinds/), never by a cast at the call site. The runner sets `route` to the engine routing chose
 * for the current attempt (routing.ts); a secondary engine an operation needs (merge converting a
 * GIF to PNG with the image engine, say) is the first of the table's engines of that kind present
 * on this host.
 */
import { TaskError } from "./errors";
import type { EngineKind, EngineKinds } from "./kinds";
import { engineRow, type EngineInstances, type EngineRow } from "./registry";
import { enginesFor, type EngineOrder } from "./routing";

/** What a context carries about engines. */
export interface EngineAccess {
  /** The engine objects this host provides (runtime/<host>/engines.ts). */
  engines: EngineInstances;
  /** Name of the engine routing chose for this attempt (set by the runner). */
  route?: string;
  /** The deployment's ENGINE_ORDER. */
  engineOrder?: EngineOrder;
}

/** An engine object with its table row. */
export interface UsedEngine<K extends EngineKind> {
  engine: EngineKinds[K];
  row: EngineRow;
}

/** The instance of `row` on this host, if any. The table types each name's kind; this is the one place that reads it back. */
function instanceOf<K extends EngineKind>(access: EngineAccess, row: EngineRow, kind: K): EngineKinds[K] | undefined {
  if (row.kind !== kind) return undefined;
  return (access.engines as Record<string, unknown>)[row.name] as EngineKinds[K] | undefined;
}

/** True when this host provides engine `name`. */
export function hasEngine(access: EngineAccess, name: string): boolean {
  return (access.engines as Record<string, unknown>)[name] !== undefined;
}

/**
 * The engine of `kind` that does `operation` here (for the formats `formats`, when given): the
 * routed one when it is of this kind, else the first present in routing order.
 * @throws TaskError ENGINE_UNAVAILABLE (not retryable) when this host has no such engine
 */
export function useEngine<K extends EngineKind>(
  access: EngineAccess,
  kind: K,
  operation: string,
  formats: { input?: string; output?: string } = {},
): UsedEngine<K> {
  const routed = access.route ? engineRow(access.route) : undefined;
  const pinned = routed && instanceOf(access, routed, kind);
  if (routed && pinned) return { engine: pinned, row: routed };
  const rows = enginesFor({ kind, operation, order: access.engineOrder, ...formats });
  for (const row of rows) {
    const engine = instanceOf(access, row, kind);
    if (engine) return { engine, row };
  }
  const names = rows.map((r) => r.name).join(", ") || "none";
  throw new TaskError(
    "ENGINE_UNAVAILABLE",
    `No ${kind} engine for ${operation} is reachable in this runtime (engines that do it: ${names}).`,
  );
}

/**
 * The first engine of `kind` for `operation` present here, in routing order (the routed engine not preferred), that
 * `has` accepts: an engine an operation needs for one method the routed one lacks (the watermark stamp pdf-lib draws
 * for the native qpdf, issue 49; the PDF page it makes of an image merged there). Undefined when none is here.
 */
export function useEngineWhere<K extends EngineKind>(
  access: EngineAccess,
  kind: K,
  operation: string,
  has: (engine: EngineKinds[K], row: EngineRow) => boolean,
): UsedEngine<K> | undefined {
  for (const row of enginesFor({ kind, operation, order: access.engineOrder })) {
    const engine = instanceOf(access, row, kind);
    if (engine && has(engine, row)) return { engine, row };
  }
  return undefined;
}
