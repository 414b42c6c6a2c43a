/**
 * Back-pressure (issue 10): a user with more unfinished jobs than MAX_OPEN_JOBS gets 429 with
 * `Retry-After` and CloudConvert's error body (contract: 429 + Retry-After, reference
 * cloudconvert-v2.md "Rate limit headers") instead of work the service cannot start. The count is
 * the AccountDO's index of jobs not yet ended; it is read, not reserved, so concurrent creates may
 * pass the bound by a few — a soft bound, which is what back-pressure needs.
 */
import { accountStub, type Env } from "../env";
import { ApiError } from "./errors";

/** Default bound on a user's unfinished jobs and standalone tasks. */
export const DEFAULT_MAX_OPEN_JOBS = 500;
/** Seconds a refused caller is told to wait. */
export const RETRY_AFTER_S = 5;

/** The configured bound (MAX_OPEN_JOBS; "0" turns the check off). */
export function maxOpenJobs(env: Env): number {
  const n = Number(env.MAX_OPEN_JOBS ?? DEFAULT_MAX_OPEN_JOBS);
  return Number.isInteger(n) && n >= 0 ? n : DEFAULT_MAX_OPEN_JOBS;
}

/** @throws ApiError 429 TOO_MANY_REQUESTS (Retry-After) when the user already has the bound of unfinished jobs */
export async function admit(env: Env, userName: string): Promise<void> {
  const max = maxOpenJobs(env);
  if (max === 0) return;
  const open = await accountStub(env, userName).openJobs();
  if (open >= max) {
    throw new ApiError(429, `Too many unfinished jobs (${open}; at most ${max}). Retry after ${RETRY_AFTER_S} seconds.`, "TOO_MANY_REQUESTS", undefined,
      { "retry-after": String(RETRY_AFTER_S) });
  }
}
