/**
 * JobDO: one Durable Object per job (issue 2; DESIGN.md "The flow of one job"). It holds the task
 * graph in SQLite, decides what runs, sends ready tasks to the TASKS queue, takes the runner's
 * reports by RPC, enforces timeouts and retention with one multiplexed alarm, and tells the
 * user's AccountDO about the job's life (index and webhooks).
 *
 * A standalone task (POST /v2/{operation}) lives in a JobDO of its own with `standalone = 1`;
 * its inputs are task ids of other objects, watched through `watchTask`/`inputSettled`.
 */
import { jobStub, accountStub } from "../src/env";
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../src/env";
import type { TaskFailure } from "../src/engines/errors";
import { isTerminal } from "../src/model/status";
import { R2FileStore } from "../src/storage/r2-store";
import type { JobJson, TaskJson } from "../src/model/types";
import type { ClaimedTask, NewJob, SettledInput, TaskOutcome } from "./job/contracts";
import { JobMachine, LEASE_MS, MAX_ATTEMPTS } from "./job/machine";
import { Notices } from "./job/notices";
import { jobView, taskView } from "./job/views";
import type { TaskRow } from "../src/model/rows";
import { Db } from "../src/storage/sql";
import { SCHEMA } from "./job/schema";

/** Delay before retrying an undelivered notice, in ms. */
const NOTICE_RETRY_MS = 5_000;
/** Delay before sending again tasks the queue refused, in ms. */
const RESEND_MS = 5_000;

/** Refusal of a state change, as data (contract §1.2 "error on invalid state change"). */
export type ChangeRefused = { refused: string };

export class JobDO extends DurableObject<Env> {
  private m: JobMachine;
  private notices: Notices;
  private waiters = new Set<() => void>();
  /** The alarm time last set (undefined: unknown after a restart). */
  private alarmAt: number | null | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // The schema is created by create(), so that looking up an unknown id writes nothing.
    this.m = new JobMachine(new Db(ctx.storage.sql));
    this.notices = new Notices(this.m);
  }

  /** Creates the job and its tasks, registers it with the account, dispatches ready tasks. */
  async create(n: NewJob): Promise<JobJson> {
    const now = Date.now();
    this.ctx.storage.sql.exec(SCHEMA);
    this.m.forget(true);
    this.ctx.storage.transactionSync(() => {
      this.m.db.run("INSERT INTO job VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'waiting', ?, NULL, NULL, NULL)",
        n.jobId, n.userName, n.userNum, n.tag, n.standalone ? 1 : 0, n.webhookUrl, n.baseUrl, n.retentionS, now);
      for (const t of n.tasks) this.insertTask(t, now);
      for (const e of n.externalInputs ?? []) this.m.db.run("INSERT INTO ext_input VALUES (?, ?, NULL, NULL)", e.taskId, e.jobId);
    });
    // Every write of creation happens in this first turn (one storage commit). The account stub is
    // cached, so its calls arrive in the order sent (E-order): registerJob always precedes the
    // jobEnded of this job, and job.created precedes job.finished, even while dispatch runs alongside.
    const dispatch = n.externalInputs?.length ? [] : this.applyRules(now);
    const registered = this.account().registerJob({
      jobId: n.jobId, standalone: n.standalone, tag: n.tag, createdAt: now,
      taskIds: n.tasks.map((t) => ({ id: t.id, operation: t.operation })),
      job: n.standalone ? null : this.jobJson(true), webhookUrl: n.webhookUrl,
    }).catch((err: unknown) => {
      this.accountCache = undefined;
      throw err;
    });
    if (n.externalInputs?.length) {
      await registered;
      for (const e of n.externalInputs) {
        const settled = await jobStub(this.env, e.jobId).watchTask(e.taskId, n.jobId);
        if (settled) this.applySettled(settled);
      }
      await this.afterChange(now);
    } else {
      await Promise.all([registered, this.publish(dispatch, now)]);
    }
    return this.jobJson(true);
  }

  private insertTask(t: NewJob["tasks"][number], now: number): void {
    const p = t.preset;
    const status = p?.status ?? "waiting";
    this.m.db.run(
      `INSERT INTO task (id, name, operation, status, mode, params, payload, inputs, ignore_error, timeout_s, result, message,
        engine, engine_version, created_at, started_at, ended_at, deadline, percent, credits, retry_of, copy_of)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      t.id, t.name, t.operation, status, t.mode, JSON.stringify(t.params), JSON.stringify(t.payload), JSON.stringify(t.inputs),
      t.ignoreError ? 1 : 0, t.timeoutS,
      p?.status === "finished" ? JSON.stringify({ files: p.files.map(({ filename, size }) => ({ filename, size })) }) : p ? JSON.stringify(p.result) : null,
      p?.status === "waiting" ? p.message : null,
      p?.status === "finished" ? p.engine : null, p?.status === "finished" ? p.engineVersion : null,
      now, p?.status === "finished" ? now : null, p?.status === "finished" ? now : null,
      t.mode === "upload" ? now + t.timeoutS * 1000 : null, p?.status === "finished" ? 100 : 0, p?.status === "finished" ? 0 : null,
      t.retryOf ?? null, t.retryOf ?? null,
    );
    if (p?.status === "finished") this.m.setFiles(t.id, p.files);
  }

  /** The job as v2 JSON, or null when this object holds no job (unknown id). */
  async getJob(includeTasks: boolean): Promise<(JobJson & { _owner: string }) | null> {
    const job = this.m.job();
    if (!job) return null;
    return { ...this.jobJson(includeTasks), _owner: job.user_name };
  }

  /** One task as v2 JSON with the asked includes, or null. */
  async getTask(taskId: string): Promise<TaskJson | null> {
    const t = this.m.task(taskId);
    return t ? this.taskJson(t) : null;
  }

  /** Every task row as v2 JSON (GET /v2/tasks lists), oldest first. */
  async listTasks(): Promise<TaskJson[]> {
    return this.m.tasks().map((t) => this.taskJson(t));
  }

  /** Blocks until the job ends or `maxMs` passes, then answers its current state (contract §1.1 sync). */
  async waitJob(maxMs: number, owner?: string): Promise<(JobJson & { _owner: string }) | null> {
    if (owner !== undefined && this.m.job()?.user_name !== owner) return null;
    await this.waitFor(() => { const j = this.m.job(); return !j || isTerminal(j.status); }, maxMs);
    return (await this.getJob(true)) ?? null;
  }

  /** Blocks until the task ends or `maxMs` passes. */
  async waitTask(taskId: string, maxMs: number): Promise<TaskJson | null> {
    await this.waitFor(() => { const t = this.m.task(taskId); return !t || isTerminal(t.status); }, maxMs);
    return this.getTask(taskId);
  }

  private async waitFor(done: () => boolean, maxMs: number): Promise<void> {
    const until = Date.now() + maxMs;
    while (!done() && Date.now() < until) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(wake, Math.max(0, until - Date.now()));
        function wake() { clearTimeout(timer); resolve(); }
        this.waiters.add(wake);
      });
    }
  }

  /** Runner: take a processing task (attempt n+1). Null when not claimable; a task past its attempts fails. */
  async claimTask(taskId: string): Promise<ClaimedTask | null> {
    return this.m.claim(taskId, Date.now());
  }

  /** Runner: the task succeeded. Stale reports (wrong attempt, already ended) are ignored. */
  async completeTask(taskId: string, attempt: number, o: TaskOutcome): Promise<void> {
    const now = Date.now();
    const t = this.m.task(taskId);
    if (!t || t.status !== "processing" || t.attempts !== attempt) return;
    this.ctx.storage.transactionSync(() => {
      this.m.setFiles(taskId, o.files);
      const files = o.files.map(({ filename, size }) => ({ filename, size }));
      this.m.end(taskId, "finished", now, { result: { files, ...o.extra }, credits: o.credits, engine: o.engine, engineVersion: o.engineVersion });
    });
    await this.afterChange(now);
  }

  /**
   * Runner: the task failed. Retryable failures are sent again while attempts remain. `attempt` -1
   * (the dead-letter consumer) matches any attempt.
   */
  async failTask(taskId: string, attempt: number, f: TaskFailure, engine?: { name: string; version: string }): Promise<void> {
    const now = Date.now();
    const t = this.m.task(taskId);
    if (!t || t.status !== "processing" || (attempt !== -1 && t.attempts !== attempt)) return;
    if (f.retryable && t.attempts < MAX_ATTEMPTS && now < (t.deadline ?? Infinity)) {
      this.m.db.run("UPDATE task SET attempts = attempts + 1, lease_until = ? WHERE id = ?", now + LEASE_MS, taskId);
      await this.env.TASKS.send({ jobId: this.m.job()!.id, taskId });
      return;
    }
    this.m.end(taskId, "error", now, { code: f.code, message: f.message, engine: engine?.name, engineVersion: engine?.version });
    await this.afterChange(now);
  }

  /** Upload endpoint: the file of a waiting import/upload task is in the FileStore. */
  async uploadReceived(taskId: string, file: { filename: string; size: number; key: string; contentType?: string }): Promise<TaskJson | ChangeRefused> {
    const now = Date.now();
    const t = this.m.task(taskId);
    if (!t || t.mode !== "upload") return { refused: "This task does not accept uploads." };
    if (t.status !== "waiting") return { refused: "Cannot change status: task already completed." };
    this.ctx.storage.transactionSync(() => {
      this.m.setFiles(taskId, [file]);
      this.m.end(taskId, "finished", now, { result: { files: [{ filename: file.filename, size: file.size }] }, credits: 0, engine: "cloudflare", engineVersion: "1" });
      this.m.db.run("UPDATE task SET message = NULL WHERE id = ?", taskId);
    });
    await this.afterChange(now);
    return this.taskJson(this.m.task(taskId)!);
  }

  /** Cancels a waiting or processing task: it ends in error with code CANCELLED (contract §2.3). */
  async cancelTask(taskId: string): Promise<TaskJson | ChangeRefused | null> {
    const now = Date.now();
    const t = this.m.task(taskId);
    if (!t) return null;
    if (!this.m.end(taskId, "error", now, { code: "CANCELLED", message: "The task was cancelled." })) return { refused: "Cannot change status: task already completed." };
    await this.afterChange(now);
    return this.taskJson(this.m.task(taskId)!);
  }

  /** Retries an ended task as a new task (retry_of_task_id, copy_of_task_id = old id, contract §1.2). */
  async retryTask(taskId: string, newId: string): Promise<TaskJson | ChangeRefused | null> {
    const now = Date.now();
    const t = this.m.task(taskId);
    if (!t) return null;
    if (!isTerminal(t.status)) return { refused: "Cannot retry: the task has not ended yet." };
    if (t.mode !== "queue") return { refused: `Cannot retry ${t.operation}: create a new import task instead.` };
    const job = this.m.job()!;
    this.insertTask({ id: newId, name: t.name, operation: t.operation, mode: "queue", params: JSON.parse(t.params), payload: JSON.parse(t.payload),
      inputs: JSON.parse(t.inputs), ignoreError: t.ignore_error === 1, timeoutS: t.timeout_s, retryOf: t.id }, now);
    if (!job.standalone) this.m.db.run("UPDATE job SET status = 'processing', ended_at = NULL, expires_at = NULL");
    await this.account().registerTask(newId, job.id, job.standalone ? null : job.id, t.operation, now);
    await this.afterChange(now);
    return this.taskJson(this.m.task(newId)!);
  }

  /** Deletes one task and its files. Deleting the last task of a standalone object deletes the object. */
  async deleteTask(taskId: string): Promise<boolean> {
    const t = this.m.task(taskId);
    if (!t) return false;
    const job = this.m.job()!;
    await this.env.FILES.delete(this.m.files(taskId).map((f) => f.key));
    this.m.db.run("DELETE FROM file WHERE task_id = ?", taskId);
    this.m.db.run("DELETE FROM task WHERE id = ?", taskId);
    await this.account().forgetTask(taskId);
    if (this.m.tasks().length === 0 && job.standalone) await this.deleteJob();
    else await this.afterChange(Date.now());
    return true;
  }

  /** Deletes the job, its tasks and files, and its index entries (DELETE /v2/jobs/{id}; retention). */
  async deleteJob(): Promise<boolean> {
    const job = this.m.job();
    if (!job) return false;
    await new R2FileStore(this.env.FILES).deletePrefix(`jobs/${job.id}/`);
    await this.account().forgetJob(job.id, this.m.tasks().map((t) => t.id));
    for (const w of this.waiters) w();
    await this.ctx.storage.deleteAll();
    this.m.forget();
    this.alarmAt = undefined;
    return true;
  }

  /** Another object's standalone task takes `taskId` as input: answer now if it ended, else remember. */
  async watchTask(taskId: string, watcherJobId: string): Promise<SettledInput | null> {
    const t = this.m.task(taskId);
    if (t && isTerminal(t.status)) return this.notices.settledOf(t);
    this.m.db.run("INSERT OR IGNORE INTO watcher VALUES (?, ?)", taskId, watcherJobId);
    return null;
  }

  /** A watched external input ended. */
  async inputSettled(s: SettledInput): Promise<void> {
    this.applySettled(s);
    await this.afterChange(Date.now());
  }

  private applySettled(s: SettledInput): void {
    this.m.db.run("UPDATE ext_input SET status = ?, files = ? WHERE task_id = ?", s.status, JSON.stringify(s.files), s.taskId);
  }

  /** Timeouts, dead runners and retention (one alarm multiplexing every timer, platform §2). */
  async alarm(): Promise<void> {
    this.alarmAt = undefined; // this alarm is spent
    this.m.invalidate();
    const now = Date.now();
    const job = this.m.job();
    if (!job) return;
    if (job.expires_at !== null && job.expires_at <= now) {
      await this.deleteJob();
      return;
    }
    const resend = this.m.sweepTimers(now);
    if (resend.length) await this.send(resend, now);
    await this.afterChange(now);
  }

  /**
   * After every change: propagate failures, dispatch ready tasks, wake waiters, re-arm the alarm,
   * then deliver what others must learn (watchers, the account). Those deliveries are rows first
   * (`notice`, `watcher`) and are retried by the alarm until they succeed, so nothing is lost.
   */
  private async afterChange(now: number): Promise<void> {
    if (!this.m.job()) return;
    await this.publish(this.applyRules(now), now);
  }

  /** The synchronous half of a change: graph rules, job status, the account notice, waking waiters. Returns task ids to dispatch. */
  private applyRules(now: number): string[] {
    const { dispatch } = this.ctx.storage.transactionSync(() => this.m.settle(now));
    const ending = this.ctx.storage.transactionSync(() => this.m.deriveJobStatus(now));
    if (ending) {
      const j = this.m.job()!;
      const notice = { jobId: j.id, status: ending, endedAt: now, credits: this.credits(), job: j.standalone ? null : this.jobJson(true), webhookUrl: j.standalone ? null : j.webhook_url };
      this.notices.add(notice);
    }
    for (const w of this.waiters) w();
    this.waiters.clear();
    return dispatch;
  }

  /** The asynchronous half: re-arm the alarm, send ready tasks to the queue, deliver notices. */
  private async publish(dispatch: string[], now: number): Promise<void> {
    if (!this.m.job()) return;
    await this.armAlarm(now);
    if (dispatch.length) await this.send(dispatch, now);
    await this.notices.deliver({
      jobEnded: (body) => this.account().jobEnded(body as never).catch((err: unknown) => {
        this.accountCache = undefined;
        throw err;
      }),
      inputSettled: (watcher, settled) => jobStub(this.env, watcher).inputSettled(settled),
    });
  }

  /** Sends tasks to the queue; a full or failing queue loses nothing: the alarm sends them again soon. */
  private async send(ids: string[], now: number): Promise<void> {
    const jobId = this.m.job()!.id;
    try {
      await this.env.TASKS.sendBatch(ids.map((taskId) => ({ body: { jobId, taskId } })));
    } catch (err) {
      console.error("sending tasks to the queue failed, the alarm will retry:", err);
      this.m.unsent(ids, now, RESEND_MS);
      await this.armAlarm(now);
    }
  }

  /** Sets the alarm to the next timer; skips the write when it is already set there. */
  /**
   * Makes sure the alarm fires no later than the next timer. An alarm already set earlier is left
   * alone (it will fire, find nothing due, and re-arm), which saves a storage write on most changes.
   */
  private async armAlarm(now: number): Promise<void> {
    const wake = this.m.nextWake();
    const at = this.notices.pending() ? Math.min(wake ?? Infinity, now + NOTICE_RETRY_MS) : (wake ?? Infinity);
    if (this.alarmAt !== undefined && this.alarmAt !== null && this.alarmAt > now && this.alarmAt <= at) return;
    if (at === Infinity) {
      if (this.alarmAt !== null) await this.ctx.storage.deleteAlarm();
      this.alarmAt = null;
      return;
    }
    this.alarmAt = Math.max(at, now + 1);
    await this.ctx.storage.setAlarm(this.alarmAt);
  }

  private credits(): number {
    return this.m.tasks().reduce((sum, t) => sum + (t.status === "finished" ? (t.credits ?? 0) : 0), 0);
  }

  /** One stub for the object's life, so calls to the account arrive in the order sent; dropped after a failure (a broken stub stays broken). */
  private accountCache?: ReturnType<typeof accountStub>;
  private account() {
    return (this.accountCache ??= accountStub(this.env, this.m.job()!.user_name));
  }

  private jobJson(includeTasks: boolean): JobJson {
    return jobView(this.m, includeTasks);
  }

  private taskJson(t: TaskRow): TaskJson {
    return taskView(this.m, t);
  }
}
