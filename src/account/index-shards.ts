/**
 * The account index, sharded (issue 20): a user's jobs and tasks are indexed in 16 AccountDO
 * instances named `{user}#0` … `{user}#f` instead of one, so no single object sees every job of a
 * user (a Durable Object is single-threaded, ~1,000 requests/s: Cloudflare "Durable Objects FAQ").
 * A job's shard is the last hex digit of its id, and its tasks' ids are drawn with the same digit, so
 * a task id alone finds its shard. The home object `{user}` keeps what is per user and rarely
 * written — settings, webhooks and their outbox, signed-URL bases, user live-event channels — and
 * the index entries made before sharding, which lists and lookups still read.
 */
import type { TaskLocation } from "../model/rpc";
import { accountStub, type AccountStub, type Env } from "../env";

/** How many index shards a user has. */
export const INDEX_SHARDS = 16;

/** The shard of a job or task id (UUID): its last hex digit. */
export function shardOf(id: string): number {
  const n = parseInt(id.slice(-1), 16);
  return Number.isNaN(n) ? 0 : n % INDEX_SHARDS;
}

/** `uuid` with its last hex digit set to `shard` (still a random v4 UUID: the digit is from the random bits). */
export const inShard = (uuid: string, shard: number): string => uuid.slice(0, -1) + shard.toString(16);

/** A new task id in the shard of `holderId` (the job, or a standalone task's hidden job). */
export const taskIdFor = (holderId: string): string => inShard(crypto.randomUUID(), shardOf(holderId));

/** The index shard `shard` of `user`. */
export const indexStub = (env: Env, user: string, shard: number) =>
  env.ACCOUNTS.getByName(`${user}#${shard.toString(16)}`) as unknown as AccountStub;

/** The index shard holding job or task `id` of `user`. */
export const indexOf = (env: Env, user: string, id: string) => indexStub(env, user, shardOf(id));

/** Every index object of `user`: the home object (entries from before sharding) and the 16 shards. */
export const allIndexes = (env: Env, user: string) => [
  accountStub(env, user),
  ...Array.from({ length: INDEX_SHARDS }, (_, s) => indexStub(env, user, s)),
];

/** Where a task of `user` lives, or null (unknown, or another user's). */
export async function findTask(env: Env, user: string, taskId: string): Promise<TaskLocation | null> {
  return (await indexOf(env, user, taskId).findTask(taskId)) ?? (await accountStub(env, user).findTask(taskId));
}

/** Unfinished jobs of `user` over every index (back-pressure, api/admission.ts). */
export async function openJobs(env: Env, user: string): Promise<number> {
  return (await Promise.all(allIndexes(env, user).map((s) => s.openJobs()))).reduce((a, b) => a + b, 0);
}

/** Credits used by `user`, summed over the index shards (credits are counted where a job ends). */
export async function creditsUsed(env: Env, user: string): Promise<number> {
  return (await Promise.all(allIndexes(env, user).map((s) => s.creditsUsed()))).reduce((a, b) => a + b, 0);
}

/** Rows of every index, newest first (created_at desc, then id), the page `offset`…`offset+limit`. */
export async function mergedPage<R extends { id: string; created_at: number }>(
  pages: Promise<R[]>[],
  offset: number,
  limit: number,
): Promise<R[]> {
  const rows = (await Promise.all(pages)).flat();
  rows.sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return rows.slice(offset, offset + limit);
}
