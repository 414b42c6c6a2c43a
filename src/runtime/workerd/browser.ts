/**
 * The Chrome engine through the browser Durable Objects (issue 37, durable-objects/browser.ts): the web engine seam
 * (kinds/web.ts) whose renderings run in objects that each hold a shared browser session. The task's remaining time
 * goes with the request (WEB_PROFILE=1: the call's ms are logged as `web-rpc`); a cancelled task's rendering is
 * cancelled in the object (its page closed).
 *
 * Scale (issue 48): the renderings of every account are spread over BROWSER_SHARDS objects (`browser-0` … ), not one.
 * Each rendering takes the less loaded of two shards chosen at random, judged by the renderings this isolate has in
 * flight in each (engines/spread.ts); a shard that failed lately is tried last. An object over its ceiling
 * (MAX_RENDERINGS running and MAX_QUEUED waiting, BrowserDO) refuses at once, and the rendering goes to the next shard;
 * an object that fails under a rendering (reset by a deploy, an eviction, a crash) costs one more try on another shard
 * while the task has time. When every shard refuses, the task ends ENGINE_UNAVAILABLE, retryable, and the runner tries
 * it again later.
 */
import type { WebEngine } from "../../engines/kinds/web";
import type { BrowserDO } from "../../../durable-objects/browser";
import type { Env, Stub } from "../../env";
import { fromWire } from "../../engines/wire";
import { fail } from "../../engines/chrome/render";
import { Spread } from "../../engines/spread";

/** Browser objects when BROWSER_SHARDS is unset: 4 sessions of Browser Rendering's 120 concurrent browsers (Workers Paid). */
export const DEFAULT_BROWSER_SHARDS = 4;

/** The number of browser objects (BROWSER_SHARDS: a whole number 1–64; anything else is the default). */
export function browserShards(env: Pick<Env, "BROWSER_SHARDS">): number {
  const n = Number(env.BROWSER_SHARDS);
  return Number.isInteger(n) && n >= 1 && n <= 64 ? n : DEFAULT_BROWSER_SHARDS;
}

/** The name of browser object `shard` (0-based). */
export const browserObjectName = (shard: number) => `browser-${shard}`;

/** What an object over its ceiling answers instead of a rendering (durable-objects/browser.ts). */
export interface BrowserBusy {
  busy: { running: number; queued: number };
}

/** Whether an object's answer is {@link BrowserBusy}. */
export const isBusy = (answer: unknown): answer is BrowserBusy =>
  typeof answer === "object" && answer !== null && "busy" in answer;

/** The browser objects' loads as this isolate knows them, by namespace. */
const spreads = new WeakMap<object, Spread>();

/** Object failures a rendering survives by moving to another shard (the second ends the task, retryable). */
const MAX_OBJECT_FAILURES = 2;

/**
 * The web engine over the `BROWSERS` namespace, for one task (`signal`, `timeoutMs`: the task's), its renderings spread
 * over `shards` objects.
 */
export function browserObjectEngine(
  ns: DurableObjectNamespace<BrowserDO>,
  task: { signal?: AbortSignal; timeoutMs?: number; profile?: boolean; shards?: number },
): WebEngine {
  const shards = task.shards ?? DEFAULT_BROWSER_SHARDS;
  let spread = spreads.get(ns);
  if (spread?.count !== shards) spreads.set(ns, (spread = new Spread(shards)));
  const load = spread;
  return {
    async render(req) {
      const deadline = Date.now() + (task.timeoutMs ?? 120_000);
      const id = crypto.randomUUID();
      const t0 = performance.now();
      let failures = 0;
      let failure = "";
      let busy = 0;
      try {
        for (const shard of load.order()) {
          if (task.signal?.aborted) return fail("CANCELLED", "The task was cancelled.");
          const stub = ns.getByName(browserObjectName(shard)) as unknown as Stub<BrowserDO>;
          const onAbort = () => void stub.cancel(id).catch(() => {});
          task.signal?.addEventListener("abort", onAbort, { once: true });
          try {
            const answer = await load.on(shard, () => stub.render(req, Math.max(1000, deadline - Date.now()), id));
            if (isBusy(answer)) {
              busy++;
              continue;
            }
            return (await fromWire(answer)) as Awaited<ReturnType<WebEngine["render"]>>;
          } catch (err) {
            // the object was reset or unreachable (a deploy, an eviction mid-call): another shard renders it
            if (task.signal?.aborted) return fail("CANCELLED", "The task was cancelled.");
            failure = (err instanceof Error ? err.message : String(err)).slice(0, 300);
            if (++failures >= MAX_OBJECT_FAILURES || deadline - Date.now() < 5000) break;
          } finally {
            task.signal?.removeEventListener("abort", onAbort);
          }
        }
        if (failures) return fail("CONVERSION_FAILED", `The browser object failed: ${failure}`, undefined, true);
        return fail(
          "ENGINE_UNAVAILABLE",
          `All ${busy} browser objects are at their ceiling of renderings; the task is tried again later.`,
          undefined,
          true,
        );
      } finally {
        if (task.profile) console.log(`web-rpc ${JSON.stringify({ rpc: performance.now() - t0 })}`);
      }
    },
  };
}
