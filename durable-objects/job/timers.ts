/**
 * The JobDO's one alarm, multiplexing every timer (platform §2): task deadlines, leases, retention,
 * and the retry of undelivered notices. A part of the JobDO.
 */
import type { JobMachine } from "./machine";
import type { Notices } from "./notices";

/** Delay before retrying an undelivered notice, in ms. */
export const NOTICE_RETRY_MS = 5_000;

export class Timers {
  /** The alarm time last set (null: none; undefined: unknown, e.g. after a restart). */
  private alarmAt: number | null | undefined;

  constructor(
    private storage: DurableObjectStorage,
    private m: JobMachine,
    private notices: Notices,
  ) {}

  /** The alarm fired: it is spent. */
  fired(): void {
    this.alarmAt = undefined;
  }

  /** The storage was deleted with the job. */
  forget(): void {
    this.alarmAt = undefined;
  }

  /**
   * Makes sure the alarm fires no later than the next timer. An alarm already set earlier is left
   * alone (it will fire, find nothing due, and re-arm), which saves a storage write on most changes —
   * unless `exact`: then an earlier alarm is moved to the next timer, one write instead of a wake
   * that finds nothing to do (after an ended job's notices are delivered: issue 20).
   */
  async arm(now: number, exact = false): Promise<void> {
    const wake = this.m.nextWake();
    // Held notices (a job not yet registered) need no retry timer: its registration tells them, or makes them rows and re-arms.
    const at = this.notices.undelivered() ? Math.min(wake ?? Infinity, now + NOTICE_RETRY_MS) : (wake ?? Infinity);
    if (
      this.alarmAt !== undefined &&
      this.alarmAt !== null &&
      this.alarmAt > now &&
      (exact ? this.alarmAt === Math.max(at, now + 1) : this.alarmAt <= at)
    )
      return;
    if (at === Infinity) {
      if (this.alarmAt !== null) await this.storage.deleteAlarm();
      this.alarmAt = null;
      return;
    }
    this.alarmAt = Math.max(at, now + 1);
    await this.storage.setAlarm(this.alarmAt);
  }

  /**
   * After the object starts (a restart, an eviction): when a task holds a lease, makes sure an
   * alarm is set, and brings it forward to now when a lease has already lapsed, so work lost with
   * the old process is sent again at once instead of when a stale alarm fires (issue 10).
   */
  async recover(now: number): Promise<void> {
    if (!this.m.job()) return;
    const lapsed = this.m.lapsed(now).length > 0;
    const current = await this.storage.getAlarm();
    this.alarmAt = current;
    if (lapsed && (current === null || current > now + 1)) {
      this.alarmAt = now + 1;
      await this.storage.setAlarm(this.alarmAt);
    } else if (current === null || this.notices.pending()) await this.arm(now); // a notice left undelivered is retried soon, not at the next timer
  }
}
