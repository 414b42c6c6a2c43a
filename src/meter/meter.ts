/**
 * The cost meter (issue 20): counts, in this isolate, the platform operations Cloudflare bills, so
 * `npm run bench -- api` prints the cost of one job counted rather than estimated. Off unless the
 * Worker's `METER` var is "on" (the bench's counting server); then the bindings handed to the
 * Worker, the queue consumer and every Durable Object are wrapped by `metered(env)`, and each
 * Durable Object's SQL and alarm calls by `meterStorage`. Read (and reset) with GET /__meter.
 * Callers wire it with one call each: the entry's fetch and queue `meterRequest(env)`, every
 * Durable Object's constructor `meterObject(ctx, env)`, and its alarm `meterAlarm(env)` (the runtime
 * calls `alarm()` on the instance, which the constructor cannot wrap before `super`).
 *
 * What is counted, by the platform's billing units (Cloudflare pricing pages, Workers Paid):
 * - workerRequests: fetch and queue invocations of the api Worker;
 * - doRequests: RPC calls on Durable Object stubs (each call is one billed request) and alarm runs;
 * - sqlRowsWritten: `rowsWritten` of every `sql.exec` in a Durable Object (DDL included);
 * - alarmWrites: setAlarm/deleteAlarm calls (billed as storage writes);
 * - queueMessages: messages sent to the TASKS queue (each is billed as three operations: write, read, delete);
 * - r2ClassA: put, list, createMultipartUpload; r2ClassB: get, head; delete is not counted: R2 bills
 *   DeleteObject (like DeleteBucket and AbortMultipartUpload) as a free operation (Cloudflare R2 pricing);
 * - accountRequests: RPC calls per AccountDO name (home `{user}`, shards `{user}#k`): how the user's
 *   bookkeeping spreads over objects (test/e2e/account-shards.test.ts).
 * Not counted: SQL rows read, WebSocket messages, Worker CPU time and Durable Object duration.
 * In production every isolate has its own counters; locally wrangler dev runs the Worker and its
 * Durable Objects in one isolate, so one read covers a whole job.
 */
import type { Env } from "../env";

/** The counters, each in its billing unit (see the module comment). */
export interface MeterCounts {
  workerRequests: number;
  doRequests: number;
  sqlRowsWritten: number;
  alarmWrites: number;
  queueMessages: number;
  r2ClassA: number;
  r2ClassB: number;
}

const zero = (): MeterCounts => ({
  workerRequests: 0,
  doRequests: 0,
  sqlRowsWritten: 0,
  alarmWrites: 0,
  queueMessages: 0,
  r2ClassA: 0,
  r2ClassB: 0,
});
let counts = zero();
let accountRequests: Record<string, number> = {};

/** Whether metering is on for this deployment (var METER = "on"). */
export const meterOn = (env: { METER?: string }): boolean => env.METER === "on";

/** Adds `n` to one counter (a no-op cost when metering is off: callers check `meterOn` first). */
export function count(k: keyof MeterCounts, n = 1): void {
  counts[k] += n;
}

/** The counts since the last reset; `reset` starts a new period. */
export function readMeter(reset: boolean): MeterCounts & { accountRequests: Record<string, number> } {
  const out = { ...counts, accountRequests: { ...accountRequests } };
  if (reset) ((counts = zero()), (accountRequests = {}));
  return out;
}

const R2_A = new Set(["put", "list", "createMultipartUpload"]); // not "delete": free (R2 pricing, "Free operations")
const R2_B = new Set(["get", "head"]);

/** Wraps a binding so that calling its methods named in `rules` counts (rules answer the counter or null). */
function wrap<T extends object>(
  target: T,
  rule: (method: string, args: unknown[]) => [keyof MeterCounts, number] | null,
): T {
  return new Proxy(target, {
    get(t, k) {
      const v = Reflect.get(t, k);
      if (typeof v !== "function" || typeof k !== "string") return v;
      return (...args: unknown[]) => {
        const c = rule(k, args);
        if (c) count(c[0], c[1]);
        return Reflect.apply(v, t, args);
      };
    },
  });
}

/** A Durable Object namespace whose stubs count every RPC call as one DO request (and per object name when `byName`). */
function meteredNamespace<T extends object>(ns: T, byName = false): T {
  return new Proxy(ns, {
    get(t, k) {
      const v = Reflect.get(t, k);
      if (typeof v !== "function" || (k !== "get" && k !== "getByName")) return typeof v === "function" ? v.bind(t) : v;
      return (...args: unknown[]) => {
        const stub = Reflect.apply(v, t, args) as object;
        return new Proxy(stub, {
          get(s, m) {
            const f = Reflect.get(s, m);
            if (typeof f !== "function" || typeof m !== "string" || m === "then") return f;
            return (...a: unknown[]) => {
              count("doRequests");
              if (byName && k === "getByName")
                accountRequests[String(args[0])] = (accountRequests[String(args[0])] ?? 0) + 1;
              return Reflect.apply(f, s, a);
            };
          },
        });
      };
    },
  });
}

/** `env` with counting bindings when metering is on; `env` itself otherwise. */
export function metered(env: Env): Env {
  if (!meterOn(env)) return env;
  return {
    ...env,
    FILES: wrap(env.FILES, (m) => (R2_A.has(m) ? ["r2ClassA", 1] : R2_B.has(m) ? ["r2ClassB", 1] : null)),
    TASKS: wrap(env.TASKS, (m, a) =>
      m === "send" ? ["queueMessages", 1] : m === "sendBatch" ? ["queueMessages", (a[0] as unknown[]).length] : null,
    ),
    JOBS: meteredNamespace(env.JOBS),
    ACCOUNTS: meteredNamespace(env.ACCOUNTS, true),
    EVENTS: meteredNamespace(env.EVENTS),
  };
}

/** Counts the SQL rows written and the alarm writes of one Durable Object's storage, when metering is on. */
export function meterStorage(storage: DurableObjectStorage, env: { METER?: string }): void {
  if (!meterOn(env)) return;
  const sql = storage.sql;
  const exec = sql.exec.bind(sql);
  Object.defineProperty(sql, "exec", {
    value: (query: string, ...bindings: unknown[]) => {
      const cursor = exec(query, ...bindings);
      count("sqlRowsWritten", cursor.rowsWritten);
      return cursor;
    },
  });
  for (const m of ["setAlarm", "deleteAlarm"] as const) {
    const f = storage[m].bind(storage) as (...a: unknown[]) => Promise<void>;
    Object.defineProperty(storage, m, { value: (...a: unknown[]) => (count("alarmWrites"), f(...a)) });
  }
}

/** The entry's call per invocation (fetch, queue): counts one Worker request and answers `env` with counting bindings. */
export function meterRequest(env: Env): Env {
  if (meterOn(env)) count("workerRequests");
  return metered(env);
}

/**
 * A Durable Object's call in its constructor, before `super(ctx, env)`: counts its storage's SQL
 * rows written and alarm writes, and answers the counting `env` to hand to `super`.
 */
export function meterObject(ctx: DurableObjectState, env: Env): Env {
  const out = metered(env);
  meterStorage(ctx.storage, out);
  return out;
}

/** A Durable Object's call at the start of `alarm()`: an alarm run is one billed DO request. */
export function meterAlarm(env: { METER?: string }): void {
  if (meterOn(env)) count("doRequests");
}
