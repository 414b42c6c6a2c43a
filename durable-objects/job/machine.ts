/**
 * The job state machine over SQL: task transitions, readiness, failure propagation and timers.
 * Pure decisions come from src/graph/state.ts; this part applies them to the rows and returns what
 * the object must do outside its storage (queue sends, notifications).
 */
import { failedDependents, jobStatus, readyTasks, type NodeState } from "../../src/graph/state";
import { isTerminal, type Status } from "../../src/model/status";
import { taskRefsOf } from "../../src/operations/registry";
import type { StoredOutput } from "../../src/model/types";
import type { ClaimedTask } from "./contracts";
import type { FileRow, JobRow, TaskRow } from "../../src/model/rows";
import type { Db } from "../../src/storage/sql";

/** Most times a task is handed to a runner before it fails with RUNNER_LOST. */
export const MAX_ATTEMPTS = 3;
/** How long a runner may hold a task before it is presumed dead (queue consumer wall clock is 15 min). */
export const LEASE_MS = 15 * 60 * 1000;


export class JobMachine {
  /** Whether the schema exists here; cached once true, reset by `forget()` after deleteAll. */
  private schema: boolean | null = null;

  constructor(readonly db: Db) {}

  private hasSchema(): boolean {
    this.schema ??= this.db.one("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'job'") !== null;
    return this.schema;
  }

  /** Marks the storage as gone (after deleteAll) or recreated (after create). */
  forget(exists = false): void {
    this.schema = exists;
    this.invalidate();
  }

  /**
   * Rows read since the last write through `db.run`: the job and its tasks are read many times per
   * change (readiness, status, serialisation), and SQL calls were the largest cost per job in a
   * CPU profile. Rows are shared: callers never mutate them.
   */
  private cache: { gen: number; job: JobRow | null; tasks: TaskRow[] } | null = null;

  /** Drops cached rows (after writes that bypass `db.run`, e.g. from tests). */
  invalidate(): void {
    this.cache = null;
  }

  private rows() {
    if (this.cache?.gen !== this.db.generation) {
      const has = this.hasSchema();
      this.cache = {
        gen: this.db.generation,
        job: has ? this.db.one<JobRow>("SELECT * FROM job LIMIT 1") : null,
        tasks: has ? this.db.all<TaskRow>("SELECT * FROM task ORDER BY seq") : [],
      };
    }
    return this.cache;
  }

  /** The job row, or null when this object holds no job (never created, or deleted). */
  job(): JobRow | null {
    return this.rows().job;
  }

  /** Every task row, oldest first (retries come after the task they retry). */
  tasks(): TaskRow[] {
    return this.rows().tasks;
  }

  task(id: string): TaskRow | null {
    return this.tasks().find((t) => t.id === id) ?? null;
  }

  /** The effective row of each name: the latest retry wins. */
  effective(): TaskRow[] {
    const latest = new Map<string, TaskRow>();
    for (const t of this.tasks()) latest.set(t.name, t);
    return [...latest.values()];
  }

  files(taskId: string): FileRow[] {
    return this.db.all<FileRow>("SELECT * FROM file WHERE task_id = ? ORDER BY idx", taskId);
  }

  setFiles(taskId: string, files: StoredOutput[]): void {
    this.db.run("DELETE FROM file WHERE task_id = ?", taskId);
    files.forEach((f, i) => this.db.run("INSERT INTO file VALUES (?, ?, ?, ?, ?, ?)", taskId, i, f.filename, f.size, f.key, f.contentType ?? null));
  }

  /** Graph nodes of the effective tasks plus, for standalone tasks, their external inputs. */
  nodes(): NodeState[] {
    const job = this.job()!;
    const nodes: NodeState[] = this.effective().map((t) => ({
      name: job.standalone ? t.id : t.name,
      status: t.status,
      inputs: [...JSON.parse(t.inputs), ...taskRefsOf(t.operation, JSON.parse(t.params))],
      ignoreError: t.ignore_error === 1,
      external: t.mode !== "queue",
    }));
    for (const e of this.db.all<{ task_id: string; status: Status | null }>("SELECT task_id, status FROM ext_input")) {
      nodes.push({ name: e.task_id, status: e.status ?? "processing", inputs: [], ignoreError: true, external: true });
    }
    return nodes;
  }

  /** Marks a task terminal. Returns false when it already was (reports after cancel/timeout are ignored). */
  end(id: string, status: "finished" | "error", now: number, f: { code?: string; message?: string; result?: unknown; credits?: number; engine?: string; engineVersion?: string }): boolean {
    const t = this.task(id);
    if (!t || isTerminal(t.status)) return false;
    this.db.run(
      `UPDATE task SET status = ?, code = ?, message = ?, result = COALESCE(?, result), credits = ?, percent = 100,
       engine = COALESCE(?, engine), engine_version = COALESCE(?, engine_version), ended_at = ?, started_at = COALESCE(started_at, ?), lease_until = NULL WHERE id = ?`,
      status, f.code ?? null, f.message ?? null, f.result === undefined ? null : JSON.stringify(f.result), f.credits ?? 0,
      f.engine ?? null, f.engineVersion ?? null, now, now, id,
    );
    return true;
  }

  /**
   * Applies the graph rules after any change: dependents of failed tasks end in INPUT_TASK_FAILED
   * (contract §2.3), ready tasks move to processing. Returns the ids to send to the queue and the
   * ids that just ended.
   */
  settle(now: number): { dispatch: string[]; ended: string[] } {
    const job = this.job()!;
    const keyOf = (t: TaskRow) => (job.standalone ? t.id : t.name);
    const ended: string[] = [];
    const byKey = new Map(this.effective().map((t) => [keyOf(t), t]));
    for (const key of failedDependents(this.nodes())) {
      const t = byKey.get(key);
      if (t && this.end(t.id, "error", now, { code: "INPUT_TASK_FAILED", message: "Input task has failed" })) ended.push(t.id);
    }
    const dispatch: string[] = [];
    for (const key of readyTasks(this.nodes())) {
      const t = byKey.get(key);
      if (!t) continue;
      this.db.run(
        "UPDATE task SET status = 'processing', started_at = ?, deadline = ?, lease_until = ?, attempts = attempts + 1 WHERE id = ?",
        now, now + t.timeout_s * 1000, now + LEASE_MS, t.id,
      );
      dispatch.push(t.id);
    }
    return { dispatch, ended };
  }

  /** Recomputes the job's status; returns the new status when it just became terminal. */
  deriveJobStatus(now: number): Status | null {
    const job = this.job()!;
    const status = jobStatus(this.effective().map((t) => ({ name: t.id, status: t.status, inputs: [], ignoreError: t.ignore_error === 1, external: false })));
    if (status === job.status) return null;
    const terminal = isTerminal(status);
    this.db.run(
      "UPDATE job SET status = ?, started_at = COALESCE(started_at, CASE WHEN ? != 'waiting' THEN ? END), ended_at = ?, expires_at = ?",
      status, status, now, terminal ? now : null, terminal ? now + job.retention_s * 1000 : null,
    );
    return terminal && !isTerminal(job.status) ? status : null;
  }

  /**
   * What a runner needs to run a processing task, or null when it is not claimable. Reads only:
   * attempts are counted when the task is sent (dispatch, resend), so a claim costs no storage
   * write; a runner crashing on redelivery is bounded by the queue's max_retries and its DLQ.
   */
  claim(id: string, now: number): ClaimedTask | null {
    const t = this.task(id);
    if (!t || t.status !== "processing") return null;
    const job = this.job()!;
    const params = JSON.parse(t.params) as Record<string, unknown>;
    const refs: Record<string, StoredOutput[]> = {};
    for (const name of taskRefsOf(t.operation, params)) refs[name] = this.outputsOf(name);
    const inputs = (JSON.parse(t.inputs) as string[]).flatMap((ref) => this.outputsOf(ref).map((f) => ({ ...f, fromTask: ref })));
    return {
      jobId: job.id, taskId: t.id, taskName: job.standalone ? t.id : t.name, operation: t.operation, params,
      attempt: t.attempts, deadline: t.deadline ?? now + t.timeout_s * 1000, inputs, refs, baseUrl: job.base_url, retentionS: job.retention_s,
    };
  }

  /** Output files of an input reference: a task name in this job, or an external task id. */
  outputsOf(ref: string): StoredOutput[] {
    const ext = this.db.one<{ files: string | null }>("SELECT files FROM ext_input WHERE task_id = ?", ref);
    if (ext) return ext.files ? JSON.parse(ext.files) : [];
    const t = this.effective().find((r) => r.name === ref);
    return t ? this.files(t.id).map((f) => ({ filename: f.filename, size: f.size, key: f.key, contentType: f.content_type ?? undefined })) : [];
  }

  /**
   * Ends tasks past their deadline (TIMEOUT) and tasks whose runner vanished after the last attempt
   * (RUNNER_LOST); returns the processing tasks whose lease expired with attempts left, counted
   * and leased again, to be sent anew.
   */
  sweepTimers(now: number): string[] {
    const resend: string[] = [];
    for (const t of this.tasks()) {
      if (isTerminal(t.status)) continue;
      if (t.deadline !== null && t.deadline <= now) {
        this.end(t.id, "error", now, { code: "TIMEOUT", message: `The task exceeded its timeout of ${t.timeout_s} seconds.` });
      } else if (t.status === "processing" && t.lease_until !== null && t.lease_until <= now) {
        if (t.attempts >= MAX_ATTEMPTS) this.end(t.id, "error", now, { code: "RUNNER_LOST", message: "The task runner stopped answering; giving up." });
        else resend.push(t.id);
      }
    }
    for (const id of resend) this.db.run("UPDATE task SET lease_until = ?, attempts = attempts + 1 WHERE id = ?", now + LEASE_MS, id);
    return resend;
  }

  /** Tasks that were not sent after all: retried after `delayMs`, and the attempt does not count. */
  unsent(ids: string[], now: number, delayMs: number): void {
    for (const id of ids) this.db.run("UPDATE task SET lease_until = ?, attempts = attempts - 1 WHERE id = ? AND status = 'processing'", now + delayMs, id);
  }

  /** The earliest time something must happen: a deadline, a lease, or retention. */
  nextWake(): number | null {
    const r = this.db.one<{ t: number | null }>(
      `SELECT MIN(t) AS t FROM (
         SELECT MIN(deadline) AS t FROM task WHERE status IN ('waiting','processing') AND deadline IS NOT NULL
         UNION ALL SELECT MIN(lease_until) FROM task WHERE status = 'processing'
         UNION ALL SELECT expires_at FROM job)`,
    );
    return r?.t ?? null;
  }
}
