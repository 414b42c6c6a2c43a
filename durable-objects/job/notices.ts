/**
 * What a JobDO must tell others, kept as rows until told (nothing lost if a call fails or the object
 * restarts): `notice` rows for the user's AccountDO (job ended: index, credits, webhooks) and
 * `watcher` rows for standalone tasks in other objects that take one of this job's tasks as input.
 */
import type { SettledInput } from "./contracts";
import type { JobMachine } from "./machine";
import type { TaskRow } from "../../src/model/rows";

/** The calls a delivery makes, injected by the object (stubs are per-platform). */
export interface NoticeTargets {
  jobEnded(body: unknown): Promise<void>;
  inputSettled(watcherJobId: string, s: SettledInput): Promise<void>;
}

export class Notices {
  constructor(private m: JobMachine) {}

  /**
   * How many `notice` rows there are, and whether any `watcher` row is (null: not read yet). Only
   * this part writes those tables (and ExternalInputs.watch, which calls `watched`), so after one
   * read the counts are kept in memory: most jobs have neither, and asking SQL on every change
   * was a cost per job (issue 20). `forget` after the storage is deleted or created.
   */
  private notices: number | null = null;
  private watchers: boolean | null = null;

  /** The storage was deleted (null: read again) or just created (`empty`: nothing is pending). */
  forget(empty = false): void {
    this.notices = empty ? 0 : null;
    this.watchers = empty ? false : null;
  }

  private noticeCount(): number {
    return (this.notices ??= this.m.db.one<{ n: number }>("SELECT COUNT(*) AS n FROM notice")!.n);
  }

  private hasWatchers(): boolean {
    // the table exists only once something watched (schema.ts WATCHER_TABLE)
    return (this.watchers ??= this.m.db.one("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'watcher'") !== null
      && this.m.db.one("SELECT 1 AS x FROM watcher LIMIT 1") !== null);
  }

  /**
   * While true, `deliver` leaves the account notices alone: the job is not registered with its
   * index shard yet (JobDO.create), and its end must not arrive there first (E-order). In memory
   * only: after a restart the alarm delivers whatever is pending.
   */
  held = false;

  /** The oldest pending account notice (null when none): JobDO.register sends it along with the registration. */
  first(): { id: number; body: unknown } | null {
    if (this.noticeCount() === 0) return null;
    const r = this.m.db.one<{ id: number; body: string }>("SELECT id, body FROM notice ORDER BY id LIMIT 1");
    return r ? { id: r.id, body: JSON.parse(r.body) } : null;
  }

  /** Notice `id` was told: its row goes. */
  delivered(id: number): void {
    if (this.m.db.write("DELETE FROM notice WHERE id = ? RETURNING id", id).length) this.notices = this.noticeCount() - 1;
  }

  /** A watcher row was written (ExternalInputs.watch). */
  watched(): void {
    this.watchers = true;
  }

  /** Queues the account notice of a job that just ended (same storage turn as the status change). */
  add(body: unknown): void {
    const n = this.noticeCount();
    this.m.db.write("INSERT INTO notice (body) VALUES (?)", JSON.stringify(body));
    this.notices = n + 1;
  }

  /** True while a notice or a watcher of an ended task is undelivered (the alarm must retry; the job must not move to retention). */
  pending(): boolean {
    if (this.noticeCount() > 0) return true;
    return this.hasWatchers() && this.m.db.one("SELECT 1 AS x FROM watcher w JOIN task t ON t.id = w.task_id WHERE t.status IN ('finished','error') LIMIT 1") !== null;
  }

  /** The terminal state of a task, as a watcher receives it. */
  settledOf(t: TaskRow): SettledInput {
    const files = this.m.files(t.id).map((f) => ({ filename: f.filename, size: f.size, key: f.key, contentType: f.content_type ?? undefined, fromTask: t.id }));
    return { taskId: t.id, status: t.status as "finished" | "error", files };
  }

  /** Delivers what is pending, in order; each success deletes its row, each failure stays for the alarm. */
  async deliver(to: NoticeTargets): Promise<void> {
    const ended = this.hasWatchers() ? this.m.db.all<TaskRow>("SELECT t.* FROM task t WHERE t.status IN ('finished','error') AND EXISTS (SELECT 1 FROM watcher w WHERE w.task_id = t.id)") : [];
    for (const t of ended) {
      const s = this.settledOf(t);
      for (const w of this.m.db.all<{ job_id: string }>("SELECT job_id FROM watcher WHERE task_id = ?", t.id)) {
        try {
          await to.inputSettled(w.job_id, s);
          this.m.db.write("DELETE FROM watcher WHERE task_id = ? AND job_id = ?", t.id, w.job_id);
          this.watchers = null;
        } catch (err) {
          console.error(`notifying ${w.job_id} failed, will retry:`, err);
        }
      }
    }
    if (this.held || this.noticeCount() === 0) return;
    for (const n of this.m.db.all<{ id: number; body: string }>("SELECT id, body FROM notice ORDER BY id")) {
      try {
        await to.jobEnded(JSON.parse(n.body));
        this.delivered(n.id);
      } catch (err) {
        console.error("notifying the account failed, will retry:", err);
        return; // keep the order: later notices wait for this one
      }
    }
  }
}
