/**
 * The account's concurrency gate (issue 48): the role of AccountDO at `{user}#gate` (src/account/gate.ts). It holds
 * the user's slots for native work — at most ACCOUNT_CONCURRENCY tasks of the user are sent to the queue for the
 * container at once — and the tasks waiting for one, oldest first. It is CloudConvert's per-plan limit of concurrent
 * conversions, applied where the scarce pool is: one account's burst of 500 office jobs holds its slots and waits
 * in its own line, so another account's job is sent at once and meets at most that many of the burst's tasks in
 * the queue, not all 500.
 *
 * Protocol (JobDO ↔ gate): the JobDO asks `acquire` for the tasks it dispatches; the granted ones it sends, the rest
 * wait (their lease runs to their deadline, so its alarm does not resend them). When a holder's task ends, the JobDO
 * calls `release`; the gate grants the freed slots to the oldest waiters and tells each waiter's JobDO
 * (`slotGranted`), which sends the task. Nothing is lost when a call fails:
 * - a grant not yet told is told again by this object's alarm (every TELL_RETRY_MS);
 * - a release that never arrived (its JobDO died, the job was deleted) is found by the alarm, which asks the JobDOs of
 *   holders older than RECONCILE_MS whether their tasks still run (`activeTasks`) and frees the slots of those that
 *   do not;
 * - a waiter whose task ended (cancelled, timed out) is dropped by that task's `release`, or by the same check.
 *
 * Tables: `gate_slot` (task holding a slot: its job, when granted, whether its JobDO was told) and `gate_wait` (tasks
 * waiting, by arrival). One object per user: two calls per native task, so ~500 native tasks/s per user before the
 * object (~1,000 requests/s) is the ceiling, above any container pool an account could fill.
 */
import type { Env } from "../../src/env";
import { jobStub } from "../../src/env";
import { Db } from "../../src/storage/sql";

/** A task asking for a slot: its id and its job's. */
export interface SlotRequest {
  taskId: string;
  jobId: string;
}

/** How long (ms) a holder may go before the alarm checks with its JobDO that its task still runs. */
export const RECONCILE_MS = 30_000;
/** How soon (ms) the alarm tells again a JobDO a grant that could not be delivered. */
export const TELL_RETRY_MS = 2_000;

const GATE_SCHEMA = `
CREATE TABLE IF NOT EXISTS gate_slot (task_id TEXT PRIMARY KEY, job_id TEXT NOT NULL, granted_at INTEGER NOT NULL, told INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS gate_wait (seq INTEGER PRIMARY KEY AUTOINCREMENT, task_id TEXT NOT NULL UNIQUE, job_id TEXT NOT NULL);
`;

export class AccountGate {
  private readonly db: Db;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Env,
    private readonly clock: () => number,
  ) {
    this.db = new Db(ctx.storage.sql);
    ctx.storage.sql.exec(GATE_SCHEMA);
  }

  /**
   * Grants slots to `reqs` in order while fewer than `cap` are held; the rest wait, behind the tasks already
   * waiting. A task asking again keeps what it has (its slot or its place). Returns the ids granted now.
   */
  async acquire(reqs: SlotRequest[], cap: number): Promise<string[]> {
    const now = this.clock();
    const granted: string[] = [];
    let held = this.held();
    let queued = this.db.one<{ n: number }>("SELECT COUNT(*) AS n FROM gate_wait")!.n;
    for (const r of reqs) {
      if (this.db.one("SELECT 1 AS x FROM gate_slot WHERE task_id = ?", r.taskId)) {
        granted.push(r.taskId);
        continue;
      }
      if (this.db.one("SELECT 1 AS x FROM gate_wait WHERE task_id = ?", r.taskId)) continue;
      if (held < cap && queued === 0) {
        this.db.run("INSERT INTO gate_slot VALUES (?, ?, ?, 1)", r.taskId, r.jobId, now);
        granted.push(r.taskId);
        held++;
      } else {
        this.db.run("INSERT INTO gate_wait (task_id, job_id) VALUES (?, ?)", r.taskId, r.jobId);
        queued++;
      }
    }
    await this.arm(now);
    return granted;
  }

  /** Frees the slots (or places in line) of ended tasks `taskIds`, then grants the freed slots to the oldest waiters. */
  async release(taskIds: string[], cap: number): Promise<void> {
    for (const id of taskIds) {
      this.db.run("DELETE FROM gate_slot WHERE task_id = ?", id);
      this.db.run("DELETE FROM gate_wait WHERE task_id = ?", id);
    }
    await this.grantWaiting(cap);
  }

  /** The alarm: tells grants not yet delivered, frees the slots of tasks that no longer run, grants what is free. */
  async alarm(cap: number): Promise<void> {
    const now = this.clock();
    const old = this.db.all<{ task_id: string; job_id: string }>(
      "SELECT task_id, job_id FROM gate_slot WHERE told = 1 AND granted_at <= ?",
      now - RECONCILE_MS,
    );
    const byJob = new Map<string, string[]>();
    for (const s of old) byJob.set(s.job_id, [...(byJob.get(s.job_id) ?? []), s.task_id]);
    const waiting = this.db.all<{ task_id: string; job_id: string }>("SELECT task_id, job_id FROM gate_wait");
    for (const w of waiting) byJob.set(w.job_id, [...(byJob.get(w.job_id) ?? []), w.task_id]);
    await Promise.all(
      [...byJob].map(async ([jobId, ids]) => {
        try {
          const active = new Set(await jobStub(this.env, jobId).activeTasks(ids));
          for (const id of ids) {
            if (active.has(id)) this.db.run("UPDATE gate_slot SET granted_at = ? WHERE task_id = ?", now, id);
            else {
              this.db.run("DELETE FROM gate_slot WHERE task_id = ?", id);
              this.db.run("DELETE FROM gate_wait WHERE task_id = ?", id);
            }
          }
        } catch (err) {
          console.error(`gate: could not ask job ${jobId} about its tasks:`, err);
        }
      }),
    );
    await this.grantWaiting(cap);
  }

  /** Slots held now. */
  private held(): number {
    return this.db.one<{ n: number }>("SELECT COUNT(*) AS n FROM gate_slot")!.n;
  }

  /** Moves the oldest waiters into free slots and tells their JobDOs (and retries earlier grants not yet told). */
  private async grantWaiting(cap: number): Promise<void> {
    const now = this.clock();
    const free = cap - this.held();
    if (free > 0) {
      const next = this.db.all<{ task_id: string; job_id: string }>(
        "SELECT task_id, job_id FROM gate_wait ORDER BY seq LIMIT ?",
        free,
      );
      for (const w of next) {
        this.db.run("DELETE FROM gate_wait WHERE task_id = ?", w.task_id);
        this.db.run("INSERT OR IGNORE INTO gate_slot VALUES (?, ?, ?, 0)", w.task_id, w.job_id, now);
      }
    }
    const untold = this.db.all<{ task_id: string; job_id: string }>(
      "SELECT task_id, job_id FROM gate_slot WHERE told = 0",
    );
    const byJob = new Map<string, string[]>();
    for (const s of untold) byJob.set(s.job_id, [...(byJob.get(s.job_id) ?? []), s.task_id]);
    await Promise.all(
      [...byJob].map(async ([jobId, ids]) => {
        try {
          await jobStub(this.env, jobId).slotGranted(ids);
          for (const id of ids) this.db.run("UPDATE gate_slot SET told = 1 WHERE task_id = ?", id);
        } catch (err) {
          console.error(`gate: could not tell job ${jobId} of its slots (the alarm tells again):`, err);
        }
      }),
    );
    await this.arm(now);
  }

  /** Keeps an alarm while anything is held or waiting: soon when a grant is untold, else at the next reconcile. */
  private async arm(now: number): Promise<void> {
    const untold = this.db.one("SELECT 1 AS x FROM gate_slot WHERE told = 0");
    const any = untold ?? this.db.one("SELECT 1 AS x FROM gate_slot") ?? this.db.one("SELECT 1 AS x FROM gate_wait");
    if (!any) {
      await this.ctx.storage.deleteAlarm();
      return;
    }
    const at = now + (untold ? TELL_RETRY_MS : RECONCILE_MS);
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }
}
