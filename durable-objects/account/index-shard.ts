/**
 * The account index shard role of AccountDO: one of a user's 16 objects `{user}#0…f`
 * (src/account/index-shards.ts) holding the index of the user's jobs and tasks whose id ends in its
 * hex digit (lists, filters, tenant isolation: a task id is found only in its owner's index), the
 * count of those not ended (back-pressure) and the credits counted where jobs end. Called by the
 * JobDO (registerJob, registerTask, jobEnded, forgetJob, forgetTask), by the api Worker (lists,
 * lookups, counts) and by home (replicate). It calls home only when a webhook is due: it keeps a
 * copy of what home pushes (whether the account has webhooks, the hubs listening on the user's
 * channels). When a user channel is subscribed it tells its open jobs (JobDO.liveAddUserHubs).
 *
 * Tables: `jobs`, `tasks` (WITHOUT ROWID: one b-tree row per insert), `settings` (has_webhooks,
 * credits_used, live_version) and `live_user` (home's copy). Home objects made before sharding hold index
 * entries in the same tables; `IndexShard.legacy` reads them without creating anything.
 */
import type { Env } from "../../src/env";
import { accountStub, jobStub } from "../../src/env";
import type { JobEnd, Registration, TaskLocation } from "../../src/model/rpc";
import { Db } from "../../src/storage/sql";

/** A socket.io hub with subscribers of one of the user's channels. */
export interface LiveUser {
  hub: string;
  channel: string;
}

/** What home pushes to every shard (AccountHome.pushToShards): only the parts that changed. */
export interface Replica {
  hasWebhooks?: boolean;
  /** The hubs listening on the user's channels, all of them, as of home's change number `liveVersion`. */
  liveUser?: LiveUser[];
  /**
   * Home's count of changes to `liveUser` (pushes travel on separate stubs, so they may arrive out
   * of order: an older list never replaces a newer one). Absent: taken as newest.
   */
  liveVersion?: number;
  /** A user channel just subscribed at `since` (the hub's clock): registered with this shard's open jobs (issue 31). */
  added?: LiveUser & { since: number };
}

/** How many of a shard's open jobs are told of a new user-channel hub at once (each is one call to a JobDO). */
const ADD_BATCH = 50;
/**
 * How long (ms) a shard remembers in memory the jobs whose end it recorded (`recentEnds`), so a
 * user channel subscribed just before a job ended, whose news arrives here after the end, still
 * reaches that job. Far longer than a subscription takes to travel from the hub through home.
 */
const RECENT_ENDS_MS = 60_000;
/** Clock difference (ms) allowed between a hub and this object when deciding whether memory covers a subscription. */
const CLOCK_SLACK_MS = 1_000;

/**
 * Tasks are forgotten by id (the JobDO names every task it held), so no index by holder is kept
 * (`tasks_holder` is dropped where an older version made it).
 */
const INDEX_SCHEMA = `
CREATE TABLE IF NOT EXISTS settings (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, tag TEXT, status TEXT NOT NULL CHECK (status IN ('waiting','processing','finished','error')), created_at INTEGER NOT NULL,
  standalone INTEGER NOT NULL DEFAULT 0, ended_at INTEGER) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tasks (id TEXT PRIMARY KEY, holder TEXT NOT NULL, job_id TEXT, operation TEXT NOT NULL, created_at INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tasks_job ON tasks (job_id);
DROP INDEX IF EXISTS tasks_holder;
CREATE INDEX IF NOT EXISTS jobs_open ON jobs (created_at) WHERE ended_at IS NULL;
CREATE TABLE IF NOT EXISTS live_user (hub TEXT NOT NULL, channel TEXT NOT NULL, PRIMARY KEY (hub, channel));
`;

export class IndexShard {
  private db: Db;

  /**
   * Settings read on every job, kept in memory after the first read: only this object writes them,
   * and each write path resets or updates what it changes.
   */
  private known: { liveUser?: LiveUser[]; hasWebhooks?: boolean; credits?: number } = {};

  /** Job ids whose end is being told to home right now (a notice delivered twice at once is told once). */
  private ending = new Set<string>();

  /**
   * Jobs whose end this instance recorded in the last RECENT_ENDS_MS, oldest first (`at`: when,
   * by this object's clock; `endedAt`: the job's end, by its JobDO's). Memory only: no job writes
   * anything more for it. `bootAt`: since when this instance records them.
   */
  private recentEnds: { id: string; endedAt: number; at: number }[] = [];
  private readonly bootAt = Date.now();

  /** The shard of object `ctx`; creates its tables unless `createTables` is false (IndexShard.legacy). */
  constructor(
    private ctx: DurableObjectState,
    private env: Env,
    createTables = true,
  ) {
    if (createTables) ctx.storage.sql.exec(INDEX_SCHEMA);
    this.db = new Db(ctx.storage.sql);
  }

  /** The index entries a home object made before sharding, read only; null when it has none (no `jobs` table). */
  static legacy(ctx: DurableObjectState, env: Env): IndexShard | null {
    const has =
      ctx.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'jobs'").toArray().length > 0;
    return has ? new IndexShard(ctx, env, false) : null;
  }

  /**
   * Records a new job (or standalone task of `user`) and has home queue job.created for account
   * webhooks when there are any; then its end, when it came along (`ended`: as `jobEnded`).
   * Answers the socket.io hubs with subscribers of this user's channels (issue 18): the JobDO sends
   * them its events.
   */
  async registerJob(r: Registration): Promise<LiveUser[]> {
    const fresh = this.ctx.storage.transactionSync(() => {
      const n = this.ctx.storage.sql.exec(
        "INSERT OR IGNORE INTO jobs VALUES (?, ?, 'waiting', ?, ?, NULL)",
        r.jobId,
        r.tag,
        r.createdAt,
        r.standalone ? 1 : 0,
      ).rowsWritten;
      for (const t of r.taskIds)
        this.db.run(
          "INSERT OR IGNORE INTO tasks VALUES (?, ?, ?, ?, ?)",
          t.id,
          r.jobId,
          r.standalone ? null : r.jobId,
          t.operation,
          r.createdAt,
        );
      return n > 0;
    });
    if (fresh && r.job && (await this.hasWebhooks(r.user)))
      await accountStub(this.env, r.user).emitJobEvent("job.created", r.job, null);
    if (r.ended) await this.jobEnded(r.ended);
    return this.liveUser();
  }

  /**
   * Takes what home pushes: whether there are webhooks, and the hubs listening on the user's
   * channels. A hub just added (`added`, issue 31) is registered with every job of this shard that
   * has not ended, so a user channel subscribed while they run hears them: the list of open jobs is
   * read in the same turn as the new hub list is stored, so a job is either read here or registered
   * after (and then gets the hub in registerJob's answer); a job in both is told twice, and counts
   * it once (Live.addUserHubs). A job whose end is on its way here is told too; it answers with its
   * end when that is not older than the subscription. Only jobs of a user who subscribes are
   * called, once per subscription: no job path changes.
   */
  async replicate(r: Replica): Promise<void> {
    this.known = {};
    const open = this.ctx.storage.transactionSync(() => {
      if (r.hasWebhooks !== undefined)
        this.db.run("INSERT OR REPLACE INTO settings VALUES ('has_webhooks', ?)", r.hasWebhooks ? "1" : "0");
      const stored = Number(this.db.one<{ v: string }>("SELECT v FROM settings WHERE k = 'live_version'")?.v ?? 0);
      if (r.liveUser && (r.liveVersion === undefined || r.liveVersion > stored)) {
        this.db.run("DELETE FROM live_user");
        for (const l of r.liveUser) this.db.run("INSERT INTO live_user VALUES (?, ?)", l.hub, l.channel);
        if (r.liveVersion !== undefined)
          this.db.run("INSERT OR REPLACE INTO settings VALUES ('live_version', ?)", String(r.liveVersion));
      }
      return r.added ? this.jobsRunningSince(r.added.since, r.added.channel.endsWith(".tasks")) : [];
    });
    if (!r.added || !open.length) return;
    const rows = [{ hub: r.added.hub, channel: r.added.channel }];
    for (let i = 0; i < open.length; i += ADD_BATCH) {
      const told = await Promise.allSettled(
        open.slice(i, i + ADD_BATCH).map((j) => jobStub(this.env, j.id).liveAddUserHubs(rows, r.added!.since)),
      );
      for (const t of told)
        if (t.status === "rejected") console.error("telling a job of a user channel failed:", t.reason);
    }
  }

  /** Records a task added to an existing job (retries). */
  async registerTask(
    taskId: string,
    holder: string,
    jobId: string | null,
    operation: string,
    createdAt: number,
  ): Promise<void> {
    this.db.run("INSERT OR IGNORE INTO tasks VALUES (?, ?, ?, ?, ?)", taskId, holder, jobId, operation, createdAt);
  }

  /**
   * A job of `user` ended: have home queue job.finished / job.failed when a webhook is due, then
   * index its status and count its credits. Idempotent: a notice the JobDO delivers again (it could
   * not record the first delivery) changes nothing, so no webhook is sent twice and no credit
   * counted twice; a later end (after a retry) counts anew. The index changes only after home took
   * the event, so a failed call to home is retried with the notice, not lost.
   */
  async jobEnded(e: JobEnd): Promise<void> {
    const key = `${e.jobId}@${e.endedAt}`;
    const due = () =>
      this.db.one("SELECT 1 AS x FROM jobs WHERE id = ? AND (ended_at IS NULL OR ended_at < ?)", e.jobId, e.endedAt) !==
      null;
    if (!due() || this.ending.has(key)) return;
    this.ending.add(key);
    try {
      if (e.job && (e.webhookUrl || (await this.hasWebhooks(e.user)))) {
        await accountStub(this.env, e.user).emitJobEvent(
          e.status === "finished" ? "job.finished" : "job.failed",
          e.job,
          e.webhookUrl,
        );
        if (!due()) return; // changed while home was told
      }
      try {
        this.ctx.storage.transactionSync(() => {
          this.db.run("UPDATE jobs SET status = ?, ended_at = ? WHERE id = ?", e.status, e.endedAt, e.jobId);
          this.addCredits(e.credits);
        });
        this.endRecorded(e.jobId, e.endedAt);
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
    const r = this.db.one<{ holder: string; job_id: string | null }>(
      "SELECT holder, job_id FROM tasks WHERE id = ?",
      taskId,
    );
    return r ? { holder: r.holder, jobId: r.job_id } : null;
  }

  /**
   * Job ids for GET /v2/jobs, newest first. `status` filters on the index: terminal statuses
   * exactly, "waiting"/"processing" as "not ended" (the caller re-checks on the live job).
   */
  async listJobs(q: {
    status?: string;
    tag?: string;
    offset: number;
    limit: number;
  }): Promise<{ id: string; created_at: number }[]> {
    const where: string[] = ["standalone = 0"];
    const args: unknown[] = [];
    if (q.status === "finished" || q.status === "error") (where.push("status = ?"), args.push(q.status));
    else if (q.status) where.push("status IN ('waiting','processing')");
    if (q.tag) (where.push("tag = ?"), args.push(q.tag));
    const sql = `SELECT id, created_at FROM jobs WHERE ${where.join(" AND ")} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`;
    return this.db.all<{ id: string; created_at: number }>(sql, ...args, q.limit, q.offset);
  }

  /** Tasks for GET /v2/tasks, newest first, as (id, holder) pairs. */
  async listTasks(q: {
    jobId?: string;
    operation?: string;
    offset: number;
    limit: number;
  }): Promise<{ id: string; holder: string; created_at: number }[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (q.jobId) (where.push("job_id = ?"), args.push(q.jobId));
    if (q.operation) (where.push("operation = ?"), args.push(q.operation));
    const sql = `SELECT id, holder, created_at FROM tasks ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`;
    return this.db.all<{ id: string; holder: string; created_at: number }>(sql, ...args, q.limit, q.offset);
  }

  /**
   * The jobs of this shard that a user channel subscribed at `since` must hear: those not ended,
   * and those whose end was recorded here but happened at or after `since` (the job ended while the
   * subscription travelled here). The ended ones come from memory (`recentEnds`) when it covers
   * `since`, else from a scan of the index (a shard that started after the subscription: rare,
   * and then the index is small or the reads cheap — no index on ended_at is kept for it, which
   * would cost a row on every job's end). `tasksOnly`: a tasks channel (standalone tasks too).
   */
  private jobsRunningSince(since: number, tasksOnly: boolean): { id: string }[] {
    const kind = tasksOnly ? "" : " AND standalone = 0"; // a standalone task has no job channel
    const now = Date.now();
    if (this.bootAt > since - CLOCK_SLACK_MS || since < now - RECENT_ENDS_MS + CLOCK_SLACK_MS)
      return this.db.all<{ id: string }>(`SELECT id FROM jobs WHERE (ended_at IS NULL OR ended_at >= ?)${kind}`, since);
    const open = this.db.all<{ id: string }>(`SELECT id FROM jobs WHERE ended_at IS NULL${kind}`);
    const ended = this.recentEnds.filter((e) => e.endedAt >= since).map((e) => ({ id: e.id }));
    return [...open, ...ended];
  }

  /** Remembers a recorded end for RECENT_ENDS_MS (jobsRunningSince). */
  private endRecorded(id: string, endedAt: number): void {
    const now = Date.now();
    this.recentEnds.push({ id, endedAt, at: now });
    let old = 0;
    while (old < this.recentEnds.length && this.recentEnds[old].at < now - RECENT_ENDS_MS) old++;
    if (old) this.recentEnds.splice(0, old);
  }

  private liveUser(): LiveUser[] {
    return (this.known.liveUser ??= this.db.all<LiveUser>("SELECT hub, channel FROM live_user"));
  }

  /** Whether the account has webhooks, as home last pushed it (asked once when never pushed). */
  private async hasWebhooks(user: string): Promise<boolean> {
    if (this.known.hasWebhooks !== undefined) return this.known.hasWebhooks;
    const known = this.db.one<{ v: string }>("SELECT v FROM settings WHERE k = 'has_webhooks'");
    if (known) return (this.known.hasWebhooks = known.v === "1");
    const has = await accountStub(this.env, user).hasAnyWebhook();
    this.db.run("INSERT OR IGNORE INTO settings VALUES ('has_webhooks', ?)", has ? "1" : "0");
    this.known = {}; // a push may have landed while home was asked: read the stored value next time
    return has;
  }

  /** Adds `n` to the credits counted here (in place: the row is written once, then updated). */
  private addCredits(n: number): void {
    if (this.known.credits === undefined) {
      const r = this.db.one<{ v: string }>("SELECT v FROM settings WHERE k = 'credits_used'");
      if (!r) this.db.run("INSERT INTO settings VALUES ('credits_used', '0')");
      this.known.credits = Number(r?.v ?? 0);
    }
    const used = this.known.credits + n;
    this.db.run("UPDATE settings SET v = ? WHERE k = 'credits_used'", String(used));
    this.known.credits = used;
  }
}
