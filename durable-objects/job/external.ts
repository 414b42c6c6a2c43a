/**
 * Standalone tasks' inputs that live in other JobDOs (POST /v2/{operation} with `input` naming a
 * task id): a part of the JobDO. Inbound: the inputs this object waits for (`ext_input` rows).
 * Outbound: the other objects watching one of this object's tasks (`watcher` rows, delivered by
 * Notices).
 */
import type { SettledInput } from "../../src/model/rpc";
import type { JobMachine } from "./machine";
import type { Notices } from "./notices";
import { isTerminal } from "../../src/model/status";
import { WATCHER_TABLE } from "./schema";

export class ExternalInputs {
  constructor(
    private m: JobMachine,
    private notices: Notices,
  ) {}

  /** Records the inputs a new standalone task waits for. */
  record(inputs: { taskId: string; jobId: string }[]): void {
    for (const e of inputs) this.m.db.write("INSERT INTO ext_input VALUES (?, ?, NULL, NULL)", e.taskId, e.jobId);
  }

  /** An input this object waits for ended (or was already over when watched). */
  settled(s: SettledInput): void {
    this.m.db.write(
      "UPDATE ext_input SET status = ?, files = ? WHERE task_id = ?",
      s.status,
      JSON.stringify(s.files),
      s.taskId,
    );
  }

  /** Another object waits for `taskId`: its terminal state now if ended, else a watcher row (delivered later). */
  watch(taskId: string, watcherJobId: string): SettledInput | null {
    const t = this.m.task(taskId);
    if (t && isTerminal(t.status)) return this.notices.settledOf(t);
    this.m.db.write(WATCHER_TABLE);
    this.m.db.write("INSERT OR IGNORE INTO watcher VALUES (?, ?)", taskId, watcherJobId);
    this.notices.watched();
    return null;
  }
}
