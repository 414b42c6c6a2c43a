/**
 * Fairness across accounts for native work (issue 48): each user's tasks that run in the container are sent to the
 * queue at most ACCOUNT_CONCURRENCY at a time, through the user's gate object `{user}#gate` (an AccountDO role,
 * durable-objects/account/gate.ts); the rest wait there, in the user's own line. This is CloudConvert's model: each
 * plan allows a number of concurrent conversions, and an account's further jobs wait for its own running ones, not
 * for other accounts'. Here the bound is per deployment (one setting for every user), and it applies only to tasks
 * whose first engine runs in the container — the pool that is a few instances; WebAssembly engine Workers and
 * Browser Rendering scale with the platform and are not gated.
 */
import type { Env } from "../env";
import type { AccountStub } from "../env";
import { parseEngineOrder } from "../engines/routing";
import { route } from "../operations/registry";

/** The name suffix of a user's gate object. */
export const GATE_SUFFIX = "#gate";
/** Default bound on a user's native tasks in flight (ACCOUNT_CONCURRENCY). */
export const DEFAULT_ACCOUNT_CONCURRENCY = 10;

/** The configured bound: ACCOUNT_CONCURRENCY, an integer ≥ 0 ("0": no gate); the default when unset or invalid. */
export function accountConcurrency(env: Pick<Env, "ACCOUNT_CONCURRENCY">): number {
  const n = Number(env.ACCOUNT_CONCURRENCY ?? DEFAULT_ACCOUNT_CONCURRENCY);
  return Number.isInteger(n) && n >= 0 ? n : DEFAULT_ACCOUNT_CONCURRENCY;
}

/** The gate object of `user`. */
export const gateStub = (env: Env, user: string) =>
  env.ACCOUNTS.getByName(`${user}${GATE_SUFFIX}`) as unknown as AccountStub;

/**
 * Whether a queued task of `operation` with `params` and `inputs` takes a slot: the gate is on, there is a native
 * engine (NATIVE_ENGINE not "off": without one no task uses the container), and routing
 * (operations/registry.ts `route`, with ENGINE_ORDER) puts a native engine first. Never throws: a task routing
 * refuses takes no slot (its runner reports the error).
 */
export function needsSlot(
  env: Pick<Env, "ACCOUNT_CONCURRENCY" | "ENGINE_ORDER" | "NATIVE_ENGINE">,
  operation: string,
  params: Record<string, unknown>,
  inputs: { filename: string }[],
): boolean {
  if (accountConcurrency(env) === 0 || env.NATIVE_ENGINE === "off") return false;
  try {
    const first = route(operation, params, inputs[0]?.filename, parseEngineOrder(env.ENGINE_ORDER))[0];
    return first?.engine.placement === "native";
  } catch {
    return false;
  }
}
