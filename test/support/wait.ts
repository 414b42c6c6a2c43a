/**
 * Waiting on an event in tests instead of sleeping a fixed time (issue 30): poll until the
 * condition holds, with a generous deadline as the failure bound (a loaded machine is slow, not wrong).
 */

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Polls `cond` every 50 ms until it holds.
 * @throws Error "`why` (after `ms` ms)" when it still does not hold after `ms`
 */
export async function until(cond: () => boolean | Promise<boolean>, why = "condition", ms = 30_000): Promise<void> {
  for (const deadline = Date.now() + ms; !(await cond()); await sleep(50))
    if (Date.now() > deadline) throw new Error(`${why} (after ${ms} ms)`);
}
