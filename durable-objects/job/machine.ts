/**
 * The job state machine over SQL: task transitions, readiness, failure propagation and timers.
 * Pure decisions come from src/graph/state.ts; this part applies them to the rows and returns what
 * the object must do outside its storage (queue sends, notifications).
 */
import { failedDependents, jobStatus, readyTasks, type NodeState } from "../../src/graph/state";
import { isTerminal, type Status } from "../../src/model/status";
import { taskRefsOf, withoutSecrets } from "../../src/operations/registry";
import type { StoredOutput } from "../../src/model/types";
import type { ClaimedTask, NewTask } from "../../src/model/rpc";
import type { FileRow, JobRow, TaskRow } from "../../src/model/rows";
import type { Db } from "../../src/storage/sql";
import { MIGRATIONS } from "./schema";
import {
  JOB_TRANSITIONS,
  MAX_ATTEMPTS,
  TASK_TRANSITIONS,
  jobEventFor,
  type Change,
  type TaskColumns,
  type TaskEvent,
  type TaskEventInput,
} from "./transitions";

export class JobMachine {
  /** Whether the schema exists here; cached once true, reset by `forget()` after deleteAll. */
  private schema: boolean | null = null;

  constructor(readonly db: Db) {}

  private hasSchema(): boolean {
    if (this.schema === null) {
      this.schema = this.db.one("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'job'") !== null;
      if (this.schema) this.migrate();
    }
    return this.schema;
  }

  /** Brings an object created by an older version up to the current schema (columns added since). */
  private migrate(): void {
    const have = new Set(
      this.db.all<{ name: string }>("SELECT name FROM pragma_table_info('task')").map((c) => c.name),
    );
    for (const [column, ddl] of MIGRATIONS) if (!have.has(column)) this.db.run(ddl);
  }

  /** Status changes since the last `drain()`, oldest first (for the parts that observe changes). */
  private changes: Change[] = [];

  /** Takes the status changes recorded since the last call. */
  drain(): Change[] {
    const out = this.changes;
    this.changes = [];
    return out;
  }

  /**
   * Applies task event `event` to task `id` if the transition table allows it from the task's
   * current status; writes the event's columns and the new status. Returns false (and writes
   * nothing) when the task is missing or in a status the event does not leave from.
   */
  move(id: string, event: TaskEvent, e: TaskEventInput, only?: (t: TaskRow) => boolean): boolean {
    const t = this.task(id);
    const tr = TASK_TRANSITIONS[event];
    if (!t || !(tr.from as readonly string[]).includes(t.status) || (only && !only(t))) return false;
    const cols: TaskColumns & { status: string; params?: string } = { ...tr.set(t, e), status: tr.to };
    // a task that ends keeps no credentials (storage imports/exports: issue 35); its payload was masked at parse
    const scrubbed = isTerminal(tr.to as Status) ? withoutSecrets(t.operation, JSON.parse(t.params)) : null;
    if (scrubbed) cols.params = JSON.stringify(scrubbed);
    const names = Object.keys(cols) as (keyof typeof cols)[];
    this.keep(
      () =>
        this.db.write(
          `UPDATE task SET ${names.map((n) => `${n} = ?`).join(", ")} WHERE id = ?`,
          ...names.map((n) => cols[n] ?? null),
          id,
        ),
      (c) => {
        const row = { ...t } as Record<string, unknown>;
        for (const n of names) row[n] = cols[n] ?? null;
        c.tasks = c.tasks.map((r) => (r.id === id ? (row as unknown as TaskRow) : r));
      },
    );
    if (t.status !== tr.to) this.changes.push({ kind: "task", id, event, from: t.status, to: tr.to });
    return true;
  }

  /** Marks the storage as gone (after deleteAll) or recreated (after create). */
  forget(exists = false): void {
    this.schema = exists;
    this.invalidate();
  }

  /**
   * The job and task rows, read once and then kept in step with this part's own writes (`move`,
   * `insertTask`, `deriveJobStatus` patch the cached rows beside their SQL), so a change costs its
   * writes and no re-reads (SQL calls are the largest CPU cost of a job: README "What one job costs").
   * A write through `db.run` (anyone's) drops the cache, as does a rolled-back `transaction`. Rows
   * are replaced, never mutated: callers may keep the ones they hold.
   */
  private cache: { gen: number; job: JobRow | null; tasks: TaskRow[] } | null = null;

  /** Drops cached rows (after writes that bypass this part, e.g. from tests). */
  invalidate(): void {
    this.cache = null;
    this.version++;
  }

  /**
   * Changes with every change of the job or task rows as this part sees them (a write, a re-read):
   * views built from the rows may be kept while it stays the same (JobDO.jobJson).
   */
  get stateVersion(): number {
    this.rows();
    return this.version;
  }
  private version = 0;

  /** `storage.transactionSync(fn)`, dropping the cached rows when it throws (its writes were rolled back). */
  transaction<T>(storage: DurableObjectStorage, fn: () => T): T {
    try {
      return storage.transactionSync(fn);
    } catch (err) {
      this.invalidate();
      throw err;
    }
  }

  private rows() {
    if (this.cache?.gen !== this.db.generation) {
      const has = this.hasSchema();
      this.version++;
      this.cache = {
        gen: this.db.generation,
        job: has ? this.db.one<JobRow>("SELECT * FROM job LIMIT 1") : null,
        tasks: has ? this.db.all<TaskRow>("SELECT * FROM task ORDER BY seq") : [],
      };
    }
    return this.cache;
  }

  /**
   * Runs `write` (SQL through `db.write`), then applies the same change to the cached rows with
   * `patch` when they were current before it; when they were not, they are read again on next use.
   */
  private keep<T>(write: () => T, patch: (c: NonNullable<JobMachine["cache"]>, written: T) => void): T {
    const c = this.cache?.gen === this.db.generation ? this.cache : null;
    const written = write();
    if (c) (patch(c, written), this.version++);
    else this.invalidate();
    return written;
  }

  /**
   * Inserts the job row of a new object whose schema was just created (JobDO.create): the cache
   * starts from it, with no tasks yet.
   */
  createJob(j: Omit<JobRow, "status" | "started_at" | "ended_at" | "expires_at">): void {
    const [row] = this.db.write<JobRow>(
      "INSERT INTO job VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'waiting', ?, NULL, NULL, NULL) RETURNING *",
      j.id,
      j.user_name,
      j.user_num,
      j.tag,
      j.standalone,
      j.webhook_url,
      j.base_url,
      j.retention_s,
      j.created_at,
    );
    this.schema = true;
    this.cache = { gen: this.db.generation, job: row, tasks: [] };
    this.version++;
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
    this.db.write("DELETE FROM file WHERE task_id = ?", taskId);
    this.insertFiles(taskId, files);
  }

  /** The files of a task that has none yet (a new row). */
  private insertFiles(taskId: string, files: StoredOutput[]): void {
    files.forEach((f, i) =>
      this.db.write(
        "INSERT INTO file VALUES (?, ?, ?, ?, ?, ?)",
        taskId,
        i,
        f.filename,
        f.size,
        f.key,
        f.contentType ?? null,
      ),
    );
  }

  /**
   * Inserts a new task (creation, a retry). Its first status comes from `preset` (ingress tasks
   * arrive finished, upload forms waiting) or is `waiting`: creation is the table's starting point,
   * not an event.
   */
  insertTask(t: NewTask, now: number): void {
    const p = t.preset;
    const status = p?.status ?? "waiting";
    const done = p?.status === "finished";
    this.keep(
      () =>
        this.db.write<TaskRow>(
          `INSERT INTO task (seq, id, name, operation, status, mode, params, payload, inputs, ignore_error, timeout_s, result, message,
        engine, engine_version, created_at, started_at, ended_at, deadline, percent, credits, retry_of, copy_of)
       VALUES ((SELECT COALESCE(MAX(seq), 0) + 1 FROM task), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
          t.id,
          t.name,
          t.operation,
          status,
          t.mode,
          JSON.stringify(t.params),
          JSON.stringify(t.payload),
          JSON.stringify(t.inputs),
          t.ignoreError ? 1 : 0,
          t.timeoutS,
          done
            ? JSON.stringify({ files: p.files.map(({ filename, size }) => ({ filename, size })) })
            : p
              ? JSON.stringify(p.result)
              : null,
          p?.status === "waiting" ? p.message : null,
          done ? p.engine : null,
          done ? p.engineVersion : null,
          now,
          done ? now : null,
          done ? now : null,
          t.mode === "upload" ? now + t.timeoutS * 1000 : null,
          done ? 100 : 0,
          done ? 0 : null,
          t.retryOf ?? null,
          t.retryOf ?? null,
        ),
      (c, [row]) => (c.tasks = [...c.tasks, row]),
    ); // the new seq is the largest: the list stays in seq order
    if (done) this.insertFiles(t.id, p.files);
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
    // Only standalone tasks have external inputs (ExternalInputs.record at creation).
    if (job.standalone)
      for (const e of this.db.all<{ task_id: string; status: Status | null }>(
        "SELECT task_id, status FROM ext_input",
      )) {
        nodes.push({
          name: e.task_id,
          status: e.status ?? "processing",
          inputs: [],
          ignoreError: true,
          external: true,
        });
      }
    return nodes;
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
      if (t && this.move(t.id, "input_failed", { now, code: "INPUT_TASK_FAILED", message: "Input task has failed" }))
        ended.push(t.id);
    }
    const dispatch: string[] = [];
    for (const key of readyTasks(this.nodes())) {
      const t = byKey.get(key);
      if (t && this.move(t.id, "dispatch", { now })) dispatch.push(t.id);
    }
    return { dispatch, ended };
  }

  /** Recomputes the job's status; returns the new status when it just became terminal. */
  deriveJobStatus(now: number): Status | null {
    const job = this.job()!;
    const status = jobStatus(
      this.effective().map((t) => ({
        name: t.id,
        status: t.status,
        inputs: [],
        ignoreError: t.ignore_error === 1,
        external: false,
      })),
    );
    const event = jobEventFor(job.status, status);
    if (!event) return null;
    const terminal = isTerminal(JOB_TRANSITIONS[event].to);
    this.keep(
      () =>
        this.db.write<JobRow>(
          "UPDATE job SET status = ?, started_at = COALESCE(started_at, CASE WHEN ? != 'waiting' THEN ? END), ended_at = ?, expires_at = ? RETURNING *",
          status,
          status,
          now,
          terminal ? now : null,
          terminal ? now + job.retention_s * 1000 : null,
        ),
      (c, [row]) => (c.job = row),
    );
    this.changes.push({ kind: "job", id: job.id, event, from: job.status, to: status });
    return terminal && !isTerminal(job.status) ? status : null;
  }

  /**
   * Claims a sent task for a runner (event `claim`: its lease starts) and answers what the runner
   * needs, or null when the task is not claimable: not processing, or claimed by a live runner
   * through another message (a duplicate left by a resend). `token` is the queue message id: a
   * redelivery of the claiming message itself may claim again (its first consumer gave up, e.g.
   * it never got the answer). One storage write per claim.
   */
  claim(id: string, now: number, token?: string): ClaimedTask | null {
    const free = (t: TaskRow) =>
      t.claimed_at === null || (t.lease_until ?? 0) <= now || (token !== undefined && t.claimed_by === token);
    if (!this.move(id, "claim", { now, token }, free)) return null;
    const t = this.task(id)!;
    const job = this.job()!;
    const params = JSON.parse(t.params) as Record<string, unknown>;
    const refs: Record<string, StoredOutput[]> = {};
    for (const name of taskRefsOf(t.operation, params)) refs[name] = this.outputsOf(name);
    const inputs = this.inputsOf(t);
    return {
      jobId: job.id,
      taskId: t.id,
      taskName: job.standalone ? t.id : t.name,
      operation: t.operation,
      params,
      attempt: t.attempts,
      deadline: t.deadline ?? now + t.timeout_s * 1000,
      inputs,
      refs,
      baseUrl: job.base_url,
      retentionS: job.retention_s,
    };
  }

  /** The input files of task row `t` (its `input` references' outputs), each with the task it comes from. */
  inputsOf(t: TaskRow): (StoredOutput & { fromTask: string })[] {
    return (JSON.parse(t.inputs) as string[]).flatMap((ref) =>
      this.outputsOf(ref).map((f) => ({ ...f, fromTask: ref })),
    );
  }

  /** Heartbeat: renews the claim of attempt `attempt`. False when that attempt no longer holds the task (ended, superseded). */
  renew(id: string, attempt: number, now: number, percent?: number): boolean {
    return this.move(id, "renew", { now, percent }, (t) => t.attempts === attempt && t.claimed_at !== null);
  }

  /** Output files of an input reference: a task name in this job, or an external task id. */
  outputsOf(ref: string): StoredOutput[] {
    const ext = this.job()?.standalone
      ? this.db.one<{ files: string | null }>("SELECT files FROM ext_input WHERE task_id = ?", ref)
      : null;
    if (ext) return ext.files ? JSON.parse(ext.files) : [];
    const t = this.effective().find((r) => r.name === ref);
    return t
      ? this.files(t.id).map((f) => ({
          filename: f.filename,
          size: f.size,
          key: f.key,
          contentType: f.content_type ?? undefined,
        }))
      : [];
  }

  /**
   * The timers' sweep: ends tasks past their deadline (TIMEOUT); a lapsed lease is sent again at
   * once — as the same attempt when no runner ever claimed it (the message was lost), as the next
   * attempt when its runner went silent, or ends in RUNNER_LOST after the last attempt. Returns
   * the ids to send.
   */
  sweepTimers(now: number): string[] {
    const send: string[] = [];
    for (const t of this.tasks()) {
      if (isTerminal(t.status)) continue;
      if (t.deadline !== null && t.deadline <= now) {
        this.move(t.id, "timeout", {
          now,
          code: "TIMEOUT",
          message: `The task exceeded its timeout of ${t.timeout_s} seconds.`,
        });
      } else if (t.status === "processing" && t.lease_until !== null && t.lease_until <= now) {
        if (t.claimed_at === null) {
          if (this.move(t.id, "resend", { now })) send.push(t.id);
        } else if (t.attempts >= MAX_ATTEMPTS) {
          this.move(t.id, "runner_lost", {
            now,
            code: "RUNNER_LOST",
            message: "The task runner stopped answering; giving up.",
          });
        } else if (this.move(t.id, "requeue", { now })) send.push(t.id);
      }
    }
    return send;
  }

  /** Tasks that were not sent after all: sent again after `delayMs`, and the attempt does not count. */
  unsent(ids: string[], now: number, delayMs: number): void {
    for (const id of ids) this.move(id, "unsent", { now, delayMs });
  }

  /** Processing tasks whose lease has lapsed (a restarted object finds them and re-arms its alarm). */
  lapsed(now: number): TaskRow[] {
    return this.tasks().filter((t) => t.status === "processing" && t.lease_until !== null && t.lease_until <= now);
  }

  /**
   * The earliest time something must happen: a deadline of a waiting or processing task, the lease
   * of a processing task, or the job's retention (unix ms); null when nothing is due ever.
   */
  nextWake(): number | null {
    let at = this.job()?.expires_at ?? Infinity;
    for (const t of this.tasks()) {
      if ((t.status === "waiting" || t.status === "processing") && t.deadline !== null) at = Math.min(at, t.deadline);
      if (t.status === "processing" && t.lease_until !== null) at = Math.min(at, t.lease_until);
    }
    return at === Infinity ? null : at;
  }
}
