/**
 * Back-pressure (issue 10): a user with more unfinished jobs than MAX_OPEN_JOBS gets 429 with
 * `Retry-After` and CloudConvert's error body (contract: 429 + Retry-After, reference
 * cloudconvert-v2.md "Rate limit headers") instead of work the service cannot start. The count is
 * the AccountDO's index of jobs not yet ended; it is read, not reserved, so concurrent creates may
 * pass the bound by a few — a soft bound, which is what back-pressure needs.
 *
 * The count is summed over the user's index objects (17 RPCs, src/account/index-shards.ts), so it is
 * not read for every job (issue 20): while the last count read in this isolate is under a
 * second old and it plus the jobs admitted here since stays below half the bound, a job is admitted
 * on that estimate. Near the bound every create reads a fresh count.
 */
import type { Env } from "../env";
import { openJobs } from "../account/index-shards";
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

/** How long a count read from the AccountDO may stand in for a new read, in ms. */
export const COUNT_FRESH_MS = 1_000;
/** Per isolate and user: the last count read, when (unix ms), and jobs admitted here since. */
const lastCount = new Map<string, { open: number; at: number; since: number }>();
/** Per isolate and user: the count being read now, shared by every create that needs it (one read, not one per create). */
const reading = new Map<string, Promise<number>>();

/** @throws ApiError 429 TOO_MANY_REQUESTS (Retry-After) when the user already has the bound of unfinished jobs */
export async function admit(env: Env, userName: string): Promise<void> {
  const max = maxOpenJobs(env);
  if (max === 0) return;
  const now = Date.now();
  const last = lastCount.get(userName);
  if (last && now - last.at < COUNT_FRESH_MS && last.open + last.since < max / 2) {
    last.since++;
    return;
  }
  let read = reading.get(userName);
  if (!read) {
    read = openJobs(env, userName).finally(() => reading.delete(userName));
    reading.set(userName, read);
  }
  const open = await read;
  if (lastCount.size > 10_000) lastCount.clear();
  const seen = lastCount.get(userName);
  if (seen && seen.at >= now)
    seen.since++; // another create of the same read got there first
  else lastCount.set(userName, { open, at: now, since: 1 });
  if (open >= max) {
    throw new ApiError(
      429,
      `Too many unfinished jobs (${open}; at most ${max}). Retry after ${RETRY_AFTER_S} seconds.`,
      "TOO_MANY_REQUESTS",
      undefined,
      { "retry-after": String(RETRY_AFTER_S) },
    );
  }
}
