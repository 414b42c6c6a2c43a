/**
 * What a task runner and the object holding its task agree on (issue 10, DESIGN.md principle 10):
 * the lease timings and the four calls a runner makes. The JobDO implements TaskHost; the queue
 * consumer reaches it over RPC (a stub), and the JobDO hands itself over for the tasks it runs
 * inline (OperationHandler.inline, issue 20).
 *
 * Leases: a dispatched task must be claimed by a runner within DELIVERY_MS; a claimed task's runner
 * renews its lease every HEARTBEAT_MS; a lease that lapses is re-sent at once by the object's alarm.
 */
import type { TaskFailure } from "../engines/errors";
import type { ClaimedTask, TaskOutcome } from "../model/rpc";

/** How long a sent task may wait for a runner to claim it before it is sent again (ms; not an attempt). */
export const DELIVERY_MS = 30_000;
/** How long a runner's claim lasts without a heartbeat before the runner is presumed dead (ms). */
export const LEASE_MS = 30_000;
/** How often a runner renews its claim (ms); a third of the lease, so one lost heartbeat is harmless. */
export const HEARTBEAT_MS = 10_000;

/** The JobDO calls a runner makes: a stub over RPC for the queue consumer, or the object itself for a task it runs inline. */
export interface TaskHost {
  /** Claims the task for this run (`messageId`: the queue message's, so its redelivery may claim again); null when it is not to be run. */
  claimTask(taskId: string, messageId?: string): Promise<ClaimedTask | null>;
  /** Renews the claim of `attempt` and records progress (`percent`); false when the task no longer belongs to this run. */
  renewLease(taskId: string, attempt: number, percent?: number): Promise<boolean>;
  /** Reports success with the stored outputs. */
  completeTask(taskId: string, attempt: number, outcome: TaskOutcome): Promise<void>;
  /** Reports failure as data, with the engine last tried if any. */
  failTask(
    taskId: string,
    attempt: number,
    failure: TaskFailure,
    engine?: { name: string; version: string },
  ): Promise<void>;
}
