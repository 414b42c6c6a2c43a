/**
 * Tasks the JobDO runs itself, beside the job, instead of sending them to the queue (issue 37): those whose every
 * routing candidate is the Chrome engine served by the browser Durable Object (durable-objects/browser.ts). Their
 * work happens in that object; what the runner does around it — read a small input from R2, one RPC, write the
 * result — is I/O, which the job's own object does as well as a queue consumer, without the queue hop and without
 * holding a consumer invocation that only waits. Measured locally (`npm run bench -- web`): miniflare's queue broker
 * delivers one batch at a time, so concurrent renderings waited for each other's batches (p50 at concurrency 4 was
 * twice the rendering); at the edge the hop costs a queue delivery per task.
 *
 * The guarantees stay those of inline tasks (OperationHandler.inline): the task is claimed after the alarm covers its
 * lease and renews it while it runs, so a JobDO that dies mid-run has the task sent to the queue by its alarm
 * (at-least-once); a retryable failure goes back through the queue like any other. Unlike an inline task, the run is
 * not awaited by the call that dispatched it: POST /v2/jobs answers at once, as for a queued task.
 */
import type { Env } from "../env";
import { parseEngineOrder } from "../engines/routing";
import { CHROME_ENGINE } from "../engines/chrome/version";
import { route } from "../operations/registry";

/** Inputs larger than this (bytes, all files together) go through the queue: the JobDO's isolate holds them while the page is rendered. */
export const BESIDE_MAX_INPUT_BYTES = 8 * 1024 * 1024;

/**
 * Whether a dispatched task of `operation` with `params` and `inputs` runs beside its job: the browser object serves
 * the Chrome engine here (BROWSER and BROWSERS bound, BROWSER_REUSE neither `false` nor `session`), BROWSER_BESIDE is
 * not `false`, its inputs are small, and routing (operations/registry.ts `route`, with ENGINE_ORDER) offers only the
 * Chrome engine. Never throws: a task routing refuses goes to the queue, whose runner reports the error.
 */
export function runsBesideJob(
  env: Pick<Env, "BROWSER" | "BROWSERS" | "BROWSER_REUSE" | "BROWSER_BESIDE" | "ENGINE_ORDER">,
  operation: string,
  params: Record<string, unknown>,
  inputs: { filename: string; size: number }[],
): boolean {
  if (!env.BROWSER || !env.BROWSERS || env.BROWSER_BESIDE === "false") return false;
  if (env.BROWSER_REUSE === "false" || env.BROWSER_REUSE === "session") return false;
  if (inputs.reduce((n, f) => n + f.size, 0) > BESIDE_MAX_INPUT_BYTES) return false;
  try {
    const candidates = route(operation, params, inputs[0]?.filename, parseEngineOrder(env.ENGINE_ORDER));
    return candidates.length > 0 && candidates.every((c) => c.engine.name === CHROME_ENGINE.name);
  } catch {
    return false;
  }
}
