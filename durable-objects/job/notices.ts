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

  /** Queues the account notice of a job that just ended (same storage turn as the status change). */
  add(body: unknown): void {
    this.m.db.run("INSERT INTO notice (body) VALUES (?)", JSON.stringify(body));
  }

  /** True while a notice or a watcher of an ended task is undelivered (the alarm must retry). */
  pending(): boolean {
    return this.m.db.one("SELECT 1 AS x FROM notice UNION ALL SELECT 1 FROM watcher w JOIN task t ON t.id = w.task_id WHERE t.status IN ('finished','error') LIMIT 1") !== null;
  }

  /** The terminal state of a task, as a watcher receives it. */
  settledOf(t: TaskRow): SettledInput {
    const files = this.m.files(t.id).map((f) => ({ filename: f.filename, size: f.size, key: f.key, contentType: f.content_type ?? undefined, fromTask: t.id }));
    return { taskId: t.id, status: t.status as "finished" | "error", files };
  }

  /** Delivers what is pending, in order; each success deletes its row, each failure stays for the alarm. */
  async deliver(to: NoticeTargets): Promise<void> {
    const ended = this.m.db.all<TaskRow>("SELECT t.* FROM task t WHERE t.status IN ('finished','error') AND EXISTS (SELECT 1 FROM watcher w WHERE w.task_id = t.id)");
    for (const t of ended) {
      const s = this.settledOf(t);
      for (const w of this.m.db.all<{ job_id: string }>("SELECT job_id FROM watcher WHERE task_id = ?", t.id)) {
        try {
          await to.inputSettled(w.job_id, s);
          this.m.db.run("DELETE FROM watcher WHERE task_id = ? AND job_id = ?", t.id, w.job_id);
        } catch (err) {
          console.error(`notifying ${w.job_id} failed, will retry:`, err);
        }
      }
    }
    for (const n of this.m.db.all<{ id: number; body: string }>("SELECT id, body FROM notice ORDER BY id")) {
      try {
        await to.jobEnded(JSON.parse(n.body));
        this.m.db.run("DELETE FROM notice WHERE id = ?", n.id);
      } catch (err) {
        console.error("notifying the account failed, will retry:", err);
        return; // keep the order: later notices wait for this one
      }
    }
  }
}
