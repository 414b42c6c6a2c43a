/**
 * Callers blocked on the job (sync job/task waits, contract §1.1 `/sync`): a part of the JobDO.
 * Every change wakes them; each re-checks its own condition.
 */
export class Waiters {
  private wakers = new Set<() => void>();

  /** Wakes every waiter (after any change, and when the job is deleted). */
  wakeAll(): void {
    for (const w of this.wakers) w();
    this.wakers.clear();
  }

  /** Resolves when `done()` is true after a change, or after `maxMs` (ms) — whichever is first. */
  async until(done: () => boolean, maxMs: number): Promise<void> {
    const until = Date.now() + maxMs;
    while (!done() && Date.now() < until) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(wake, Math.max(0, until - Date.now()));
        const wakers = this.wakers;
        function wake() {
          clearTimeout(timer);
          wakers.delete(wake);
          resolve();
        }
        this.wakers.add(wake);
      });
    }
  }
}
