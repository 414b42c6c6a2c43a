/**
 * What a JobDO must tell others, kept as rows until told (nothing lost if a call fails or the object
 * restarts): `notice` rows for the user's AccountDO (job ended: index, credits, webhooks) and
 * `watcher` rows for standalone tasks in other objects that take one of this job's tasks as input.
 */
import type { SettledInput } from "../../src/model/rpc";
import type { JobMachine } from "./machine";
import type { TaskRow } from "../../src/model/rows";
import { NOTICE_TABLE } from "./schema";

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
   * read the counts are kept in memory: most jobs have neither, so SQL is not asked on every
   * change. `forget` after the storage is deleted or created.
   */
  private notices: number | null = null;
  private watchers: boolean | null = null;

  /** The storage was deleted (null: read again) or just created (`empty`: nothing is pending). */
  forget(empty = false): void {
    this.notices = empty ? 0 : null;
    this.watchers = empty ? false : null;
  }

  private noticeCount(): number {
    // the table exists only once a notice was written (schema.ts NOTICE_TABLE)
    return (this.notices ??=
      this.m.db.one("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'notice'") === null
        ? 0
        : this.m.db.one<{ n: number }>("SELECT COUNT(*) AS n FROM notice")!.n);
  }

  private hasWatchers(): boolean {
    // the table exists only once something watched (schema.ts WATCHER_TABLE)
    return (this.watchers ??=
      this.m.db.one("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'watcher'") !== null &&
      this.m.db.one("SELECT 1 AS x FROM watcher LIMIT 1") !== null);
  }

  /**
   * Account notices held in memory, not yet rows, while the job is not registered with its index
   * shard (JobDO.create: its end must not arrive there first, E-order): null when not holding. A
   * held end goes along with the registration, so a job that ends inside its create writes no
   * notice row. Held notices are as durable as the registration itself, which is in memory too;
   * `release` writes them as rows when the registration failed, so the alarm retries them.
   */
  private heldBodies: unknown[] | null = null;

  /** Starts holding account notices (a new job, before its registration). */
  hold(): void {
    this.heldBodies = [];
  }

  /** The oldest held notice (the job's end, when it ended before its registration), or null. */
  heldEnd(): unknown | null {
    return this.heldBodies?.[0] ?? null;
  }

  /** Stops holding: the first held notice was told with the registration (`toldFirst`); the others become rows. */
  release(toldFirst: boolean): void {
    const bodies = this.heldBodies ?? [];
    this.heldBodies = null;
    for (const body of toldFirst ? bodies.slice(1) : bodies) this.add(body);
  }

  /** A watcher row was written (ExternalInputs.watch). */
  watched(): void {
    this.watchers = true;
  }

  /** Queues the account notice of a job that just ended (same storage turn as the status change), or holds it (`hold`). */
  add(body: unknown): void {
    if (this.heldBodies) return void this.heldBodies.push(body);
    const n = this.noticeCount();
    if (n === 0) this.m.db.write(NOTICE_TABLE);
    this.m.db.write("INSERT INTO notice (body) VALUES (?)", JSON.stringify(body));
    this.notices = n + 1;
  }

  /** True while a notice is held or undelivered (the job must not move to retention yet). */
  pending(): boolean {
    return !!this.heldBodies?.length || this.undelivered();
  }

  /** True while a notice row or a watcher of an ended task is undelivered (the alarm must retry). */
  undelivered(): boolean {
    if (this.noticeCount() > 0) return true;
    return (
      this.hasWatchers() &&
      this.m.db.one(
        "SELECT 1 AS x FROM watcher w JOIN task t ON t.id = w.task_id WHERE t.status IN ('finished','error') LIMIT 1",
      ) !== null
    );
  }

  /** The terminal state of a task, as a watcher receives it. */
  settledOf(t: TaskRow): SettledInput {
    const files = this.m.files(t.id).map((f) => ({
      filename: f.filename,
      size: f.size,
      key: f.key,
      contentType: f.content_type ?? undefined,
      fromTask: t.id,
    }));
    return { taskId: t.id, status: t.status as "finished" | "error", files };
  }

  /** Delivers what is pending, in order; each success deletes its row, each failure stays for the alarm. */
  async deliver(to: NoticeTargets): Promise<void> {
    const ended = this.hasWatchers()
      ? this.m.db.all<TaskRow>(
          "SELECT t.* FROM task t WHERE t.status IN ('finished','error') AND EXISTS (SELECT 1 FROM watcher w WHERE w.task_id = t.id)",
        )
      : [];
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
    if (this.heldBodies || this.noticeCount() === 0) return; // held: told with the registration
    for (const n of this.m.db.all<{ id: number; body: string }>("SELECT id, body FROM notice ORDER BY id")) {
      try {
        await to.jobEnded(JSON.parse(n.body));
        if (this.m.db.write("DELETE FROM notice WHERE id = ? RETURNING id", n.id).length)
          this.notices = this.noticeCount() - 1;
      } catch (err) {
        console.error("notifying the account failed, will retry:", err);
        return; // keep the order: later notices wait for this one
      }
    }
  }
}
