/**
 * Sending tasks to the TASKS queue: a part of the JobDO. A send the queue refuses loses nothing: the
 * tasks get a short lease (event `unsent`) and the alarm sends them again.
 */
import type { TaskMessage } from "../../src/env";
import type { JobMachine } from "./machine";

/** Delay before sending again tasks the queue refused, in ms. */
export const RESEND_MS = 5_000;

export class Dispatch {
  constructor(
    private m: JobMachine,
    private queue: Queue<TaskMessage>,
  ) {}

  /**
   * Sends `ids` (tasks already moved to processing) as one batch, each after `delaySeconds` (back-off;
   * 0: at once). Returns false when the queue refused them (they were marked for the alarm).
   */
  async send(ids: string[], now: number, delaySeconds = 0): Promise<boolean> {
    if (ids.length === 0) return true;
    const jobId = this.m.job()!.id;
    try {
      await this.queue.sendBatch(
        ids.map((taskId) => ({ body: { jobId, taskId }, ...(delaySeconds > 0 ? { delaySeconds } : {}) })),
      );
      return true;
    } catch (err) {
      console.error("sending tasks to the queue failed, the alarm will retry:", err);
      this.m.unsent(ids, now, RESEND_MS);
      return false;
    }
  }
}
