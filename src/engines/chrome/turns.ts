/**
 * Turns (issue 37): at most `max` holders at once, the others waiting first come, first served, each until its
 * deadline or its signal — the back-pressure of the browser pool (pool.ts MAX_RENDERINGS), where tasks that run beside
 * their jobs (runner/beside.ts) meet without a queue's batches to bound them.
 */
export class Turns {
  private held = 0;
  private waiting: (() => void)[] = [];

  private readonly max: number;

  /** @param max holders at once (≥ 1) */
  constructor(max: number) {
    this.max = max;
  }

  /** Holders now. */
  get inFlight(): number {
    return this.held;
  }

  /** Waiting now. */
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * A turn: "go" (then call `release` once when done), "timeout" when `deadline` (epoch ms) passed first, "cancelled"
   * when `signal` aborted first. Never throws.
   */
  take(deadline: number, signal?: AbortSignal): Promise<"go" | "timeout" | "cancelled"> {
    if (signal?.aborted) return Promise.resolve("cancelled");
    if (this.held < this.max && this.waiting.length === 0) {
      this.held++;
      return Promise.resolve("go");
    }
    return new Promise((resolve) => {
      const end = (why: "go" | "timeout" | "cancelled") => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        const i = this.waiting.indexOf(go);
        if (i >= 0) this.waiting.splice(i, 1);
        resolve(why);
      };
      // the releaser hands its turn over: `held` stays as it was
      const go = () => end("go");
      const onAbort = () => end("cancelled");
      const timer = setTimeout(() => end("timeout"), Math.max(0, deadline - Date.now()));
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(go);
    });
  }

  /** Ends a turn "go" gave: the next waiter gets it, else a place frees. */
  release(): void {
    const next = this.waiting[0];
    if (next) next();
    else this.held = Math.max(0, this.held - 1);
  }
}
