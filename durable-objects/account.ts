/**
 * AccountDO: the user's account objects (API key owner). The home object `{user}` holds settings,
 * the account webhooks and the persisted webhook outbox with retries (contract §1.6, §4),
 * signed-URL bases and user live-event channels; 16 index shards `{user}#0…f` of the same class
 * hold the index of the user's jobs and tasks (lists, filters, tenant isolation: a task id is found
 * only in its owner's index) and the credits counted where jobs end (src/account/index-shards.ts,
 * issue 20). A shard learns from home whether the account has webhooks and which hubs listen on the
 * user's channels (home pushes both on every change), so a job touches home only when a webhook is due.
 */
import { meterAlarm, meterObject } from "../src/meter/meter";
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../src/env";
import type { JobJson } from "../src/model/types";
import type { Status } from "../src/model/status";
import { Db } from "../src/storage/sql";
import { Outbox } from "./account/outbox";
import { WEBHOOK_SCHEMA, Webhooks, type WebhookJson } from "./account/webhooks";
import { SIGNED_SCHEMA, SignedBases, type SignedBaseJson } from "./account/signed-bases";
import { accountStub } from "../src/env";
import { INDEX_SHARDS, indexStub } from "../src/account/index-shards";
import type { JobEnd, Registration, TaskLocation, WebhookEvent } from "../src/model/rpc";

/**
 * The index tables are WITHOUT ROWID (keyed by their text id: one b-tree row per insert, not a row
 * plus an index entry; issue 20). Objects created by older versions keep their rowid tables. Tasks
 * are forgotten by id (the JobDO names every task it held), so no index by holder is kept: it cost a
 * billed row per task.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS settings (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, tag TEXT, status TEXT NOT NULL CHECK (status IN ('waiting','processing','finished','error')), created_at INTEGER NOT NULL,
  standalone INTEGER NOT NULL DEFAULT 0, ended_at INTEGER) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tasks (id TEXT PRIMARY KEY, holder TEXT NOT NULL, job_id TEXT, operation TEXT NOT NULL, created_at INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tasks_job ON tasks (job_id);
DROP INDEX IF EXISTS tasks_holder;
CREATE INDEX IF NOT EXISTS jobs_open ON jobs (created_at) WHERE ended_at IS NULL;
CREATE TABLE IF NOT EXISTS live_user (hub TEXT NOT NULL, channel TEXT NOT NULL, PRIMARY KEY (hub, channel));
`;

export class AccountDO extends DurableObject<Env> {
  private db: Db;
  private hooks: Webhooks;
  private outbox: Outbox;
  private signed: SignedBases;
  /** The object's clock (unix ms) for webhook retry timing; tests replace it on the instance (test/worker/webhooks.test.ts). */
  clock: () => number = () => Date.now();

  constructor(ctx: DurableObjectState, rawEnv: Env) {
    const env = meterObject(ctx, rawEnv);
    super(ctx, env);
    ctx.storage.sql.exec(SCHEMA + WEBHOOK_SCHEMA + SIGNED_SCHEMA);
    this.db = new Db(ctx.storage.sql);
    this.hooks = new Webhooks(this.db);
    this.signed = new SignedBases(this.db);
    this.outbox = new Outbox(this.db, ctx.storage, env.ALLOW_PRIVATE_IMPORTS === "true", () => this.clock());
  }

  /**
   * Index shard: records a new job (or standalone task of `user`) and has home queue job.created for
   * account webhooks when there are any; then its end, when it came along (`ended`: as `jobEnded`). Answers the socket.io hubs with subscribers of this user's
   * channels (issue 18): the JobDO sends them its events.
   */
  async registerJob(r: Registration): Promise<{ hub: string; channel: string }[]> {
    const fresh = this.ctx.storage.transactionSync(() => {
      const n = this.ctx.storage.sql.exec("INSERT OR IGNORE INTO jobs VALUES (?, ?, 'waiting', ?, ?, NULL)", r.jobId, r.tag, r.createdAt, r.standalone ? 1 : 0).rowsWritten;
      for (const t of r.taskIds) this.db.run("INSERT OR IGNORE INTO tasks VALUES (?, ?, ?, ?, ?)", t.id, r.jobId, r.standalone ? null : r.jobId, t.operation, r.createdAt);
      return n > 0;
    });
    if (fresh && r.job && (await this.hasWebhooks(r.user))) await accountStub(this.env, r.user).emitJobEvent("job.created", r.job, null);
    if (r.ended) await this.jobEnded(r.ended);
    return this.liveUser();
  }

  /** Home: queues a job event for the account webhooks and the job's `webhookUrl` (called by the index shards). */
  async emitJobEvent(event: WebhookEvent, job: JobJson, webhookUrl: string | null): Promise<void> {
    await this.emit(event, job, webhookUrl);
  }

  /** Home: whether the account has webhooks (an index shard asks once, then home pushes changes). */
  async hasAnyWebhook(): Promise<boolean> {
    return this.hooks.list(undefined, "").length > 0;
  }

  /** Index shard: what home pushes — whether there are webhooks, and the hubs listening on the user's channels. */
  async replicate(r: { hasWebhooks?: boolean; liveUser?: { hub: string; channel: string }[] }): Promise<void> {
    this.known = {};
    this.ctx.storage.transactionSync(() => {
      if (r.hasWebhooks !== undefined) this.db.run("INSERT OR REPLACE INTO settings VALUES ('has_webhooks', ?)", r.hasWebhooks ? "1" : "0");
      if (r.liveUser) {
        this.db.run("DELETE FROM live_user");
        for (const l of r.liveUser) this.db.run("INSERT INTO live_user VALUES (?, ?)", l.hub, l.channel);
      }
    });
  }

  /** Home: hub `hub` has a subscriber of `private-user.{id}.jobs|tasks` (checked to be `user`'s by the hub): jobs created from now on send it their events. */
  async liveSubscribeUser(hub: string, channel: string, user: string): Promise<void> {
    this.known = {};
    this.db.run("INSERT OR IGNORE INTO live_user VALUES (?, ?)", hub, channel);
    await this.pushToShards(user, { liveUser: this.liveUser() });
  }

  /** Home: hub `hub` has no subscriber of `channel` any more. */
  async liveUnsubscribeUser(hub: string, channel: string, user: string): Promise<void> {
    this.known = {};
    this.db.run("DELETE FROM live_user WHERE hub = ? AND channel = ?", hub, channel);
    await this.pushToShards(user, { liveUser: this.liveUser() });
  }

  /**
   * Settings read on every job, kept in memory after the first read (issue 20: SQL calls per job):
   * only this object writes them, and each write path below resets or updates what it changes.
   */
  private known: { liveUser?: { hub: string; channel: string }[]; hasWebhooks?: boolean; credits?: number } = {};

  private liveUser(): { hub: string; channel: string }[] {
    return (this.known.liveUser ??= this.db.all<{ hub: string; channel: string }>("SELECT hub, channel FROM live_user"));
  }

  /** Home: sends `r` to every index shard of `user` (rare: webhook and user-channel changes). */
  private async pushToShards(user: string, r: Parameters<AccountDO["replicate"]>[0]): Promise<void> {
    await Promise.all(Array.from({ length: INDEX_SHARDS }, (_, s) => indexStub(this.env, user, s).replicate(r)));
  }

  /** Index shard: whether the account has webhooks, as home last pushed it (asked once when never pushed). */
  private async hasWebhooks(user: string): Promise<boolean> {
    if (this.known.hasWebhooks !== undefined) return this.known.hasWebhooks;
    const known = this.db.one<{ v: string }>("SELECT v FROM settings WHERE k = 'has_webhooks'");
    if (known) return (this.known.hasWebhooks = known.v === "1");
    const has = await accountStub(this.env, user).hasAnyWebhook();
    this.db.run("INSERT OR IGNORE INTO settings VALUES ('has_webhooks', ?)", has ? "1" : "0");
    this.known = {}; // a push may have landed while home was asked: read the stored value next time
    return has;
  }

  /** Job ids whose end is being told to home right now (a notice delivered twice at once is told once). */
  private ending = new Set<string>();

  /** Records a task added to an existing object (retries). */
  async registerTask(taskId: string, holder: string, jobId: string | null, operation: string, createdAt: number): Promise<void> {
    this.db.run("INSERT OR IGNORE INTO tasks VALUES (?, ?, ?, ?, ?)", taskId, holder, jobId, operation, createdAt);
  }

  /**
   * Index shard: a job of `user` ended: have home queue job.finished / job.failed when a webhook is
   * due, then index its status and count its credits. Idempotent: a notice the JobDO delivers again
   * (it could not record the first delivery) changes nothing, so no webhook is sent twice and no
   * credit counted twice; a later end (after a retry) counts anew. The index changes only after home
   * took the event, so a failed call to home is retried with the notice, not lost.
   */
  async jobEnded(e: JobEnd): Promise<void> {
    const key = `${e.jobId}@${e.endedAt}`;
    const due = () => this.db.one("SELECT 1 AS x FROM jobs WHERE id = ? AND (ended_at IS NULL OR ended_at < ?)", e.jobId, e.endedAt) !== null;
    if (!due() || this.ending.has(key)) return;
    this.ending.add(key);
    try {
      if (e.job && (e.webhookUrl || (await this.hasWebhooks(e.user)))) {
        await accountStub(this.env, e.user).emitJobEvent(e.status === "finished" ? "job.finished" : "job.failed", e.job, e.webhookUrl);
        if (!due()) return; // changed while home was told
      }
      try {
        this.ctx.storage.transactionSync(() => {
          this.db.run("UPDATE jobs SET status = ?, ended_at = ? WHERE id = ?", e.status, e.endedAt, e.jobId);
          this.addCredits(e.credits);
        });
      } catch (err) {
        this.known = {}; // rolled back: the credits in memory may be ahead
        throw err;
      }
    } finally {
      this.ending.delete(key);
    }
  }

  /** Removes a job and its tasks (every id the JobDO held) from the index. */
  async forgetJob(jobId: string, taskIds: string[]): Promise<void> {
    this.db.run("DELETE FROM jobs WHERE id = ?", jobId);
    for (const id of taskIds) this.db.run("DELETE FROM tasks WHERE id = ?", id);
  }

  async forgetTask(taskId: string): Promise<void> {
    this.db.run("DELETE FROM tasks WHERE id = ?", taskId);
  }

  /** Credits counted in this object (index-shards.ts sums them over the user's objects). */
  async creditsUsed(): Promise<number> {
    return Number(this.db.one<{ v: string }>("SELECT v FROM settings WHERE k = 'credits_used'")?.v ?? 0);
  }

  /** How many of the user's jobs and standalone tasks in this object have not ended (back-pressure, api/admission.ts). */
  async openJobs(): Promise<number> {
    return this.db.one<{ n: number }>("SELECT COUNT(*) AS n FROM jobs WHERE ended_at IS NULL")!.n;
  }

  /** Where a task of this user lives, or null (unknown, or another user's: no existence leak). */
  async findTask(taskId: string): Promise<TaskLocation | null> {
    const r = this.db.one<{ holder: string; job_id: string | null }>("SELECT holder, job_id FROM tasks WHERE id = ?", taskId);
    return r ? { holder: r.holder, jobId: r.job_id } : null;
  }

  /**
   * Job ids for GET /v2/jobs, newest first. `status` filters on the index: terminal statuses
   * exactly, "waiting"/"processing" as "not ended" (the caller re-checks on the live job).
   */
  async listJobs(q: { status?: string; tag?: string; offset: number; limit: number }): Promise<{ id: string; created_at: number }[]> {
    const where: string[] = ["standalone = 0"];
    const args: unknown[] = [];
    if (q.status === "finished" || q.status === "error") (where.push("status = ?"), args.push(q.status));
    else if (q.status) where.push("status IN ('waiting','processing')");
    if (q.tag) (where.push("tag = ?"), args.push(q.tag));
    const sql = `SELECT id, created_at FROM jobs WHERE ${where.join(" AND ")} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`;
    return this.db.all<{ id: string; created_at: number }>(sql, ...args, q.limit, q.offset);
  }

  /** Tasks for GET /v2/tasks, newest first, as (id, holder) pairs. */
  async listTasks(q: { jobId?: string; operation?: string; offset: number; limit: number }): Promise<{ id: string; holder: string; created_at: number }[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (q.jobId) (where.push("job_id = ?"), args.push(q.jobId));
    if (q.operation) (where.push("operation = ?"), args.push(q.operation));
    const sql = `SELECT id, holder, created_at FROM tasks ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`;
    return this.db.all<{ id: string; holder: string; created_at: number }>(sql, ...args, q.limit, q.offset);
  }

  /** Account facts for GET /v2/users/me (credits are summed over the index shards by the caller, index-shards.ts). */
  async me(): Promise<{ createdAt: number; signingSecret: string }> {
    return { createdAt: Number(this.setting("created_at", () => String(Date.now()))), signingSecret: this.signingSecret() };
  }

  async createWebhook(url: string, events: WebhookEvent[], baseUrl: string, user: string): Promise<WebhookJson> {
    const hook = this.hooks.create(url, events, baseUrl);
    await this.pushToShards(user, { hasWebhooks: true });
    return hook;
  }

  async listWebhooks(filterUrl: string | undefined, baseUrl: string): Promise<WebhookJson[]> {
    return this.hooks.list(filterUrl, baseUrl);
  }

  async deleteWebhook(id: string, user: string): Promise<boolean> {
    const gone = this.hooks.delete(id);
    if (gone) await this.pushToShards(user, { hasWebhooks: await this.hasAnyWebhook() });
    return gone;
  }

  /** Signed-URL bases (issue 18, contract §1.7): create, list, delete, and what /s/{base} needs. */
  async createSignedBase(id: string, origin: string): Promise<SignedBaseJson> {
    return this.signed.create(id, Date.now(), origin);
  }

  async listSignedBases(origin: string): Promise<SignedBaseJson[]> {
    return this.signed.list(origin);
  }

  async deleteSignedBase(id: string): Promise<boolean> {
    return this.signed.delete(id);
  }

  /** The base's signing secret, or null for an unknown base. */
  async signedBaseSecret(id: string): Promise<string | null> {
    return this.signed.secret(id);
  }

  /** The job a `cacheKey` of base `id` ran in the last 24 h, or null. */
  async signedCached(id: string, cacheKey: string): Promise<string | null> {
    return this.signed.cached(id, cacheKey, Date.now());
  }

  async rememberSigned(id: string, cacheKey: string, jobId: string): Promise<void> {
    this.signed.remember(id, cacheKey, jobId, Date.now());
  }

  /** Delivers due webhook calls (persisted outbox; retries with back-off; 410 disables, contract §4). */
  async alarm(): Promise<void> {
    meterAlarm(this.env);
    await this.outbox.deliverDue((id) => this.hooks.disable(id), (id) => this.hooks.markFailing(id));
  }

  private async emit(event: WebhookEvent, job: JobJson, jobWebhookUrl: string | null): Promise<void> {
    const body = JSON.stringify({ event, job });
    const targets = this.hooks.subscribed(event).map((h) => ({ webhookId: h.id, url: h.url, secret: h.signing_secret }));
    if (jobWebhookUrl && event !== "job.created") targets.push({ webhookId: null as unknown as string, url: jobWebhookUrl, secret: this.signingSecret() });
    if (targets.length) await this.outbox.enqueue(targets, body);
  }

  private signingSecret(): string {
    return this.setting("signing_secret", () => [...crypto.getRandomValues(new Uint8Array(20))].map((b) => b.toString(16).padStart(2, "0")).join(""));
  }

  private addCredits(n: number): void {
    const used = (this.known.credits ??= Number(this.setting("credits_used", () => "0")));
    this.db.run("UPDATE settings SET v = ? WHERE k = 'credits_used'", String(used + n)); // the row exists: setting() wrote it
    this.known.credits = used + n;
  }

  private setting(k: string, init: () => string): string {
    const r = this.db.one<{ v: string }>("SELECT v FROM settings WHERE k = ?", k);
    if (r) return r.v;
    const v = init();
    this.db.run("INSERT INTO settings VALUES (?, ?)", k, v);
    return v;
  }
}
