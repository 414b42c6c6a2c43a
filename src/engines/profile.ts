/**
 * Phase timings of one piece of work (WEB_PROFILE=1, issue 37: job creation, the runner, the chrome engine):
 * `mark(name)` adds the ms since the last mark to `name`; `log(label)` prints `label {"phase": ms, …}` for
 * `npm run bench -- web` to read from the server's log.
 */
export class PhaseClock {
  private last = performance.now();
  readonly phases: Record<string, number> = {};

  /** Adds the milliseconds since the previous mark (or the start) to `name`. */
  mark(name: string): void {
    const now = performance.now();
    this.phases[name] = (this.phases[name] ?? 0) + (now - this.last);
    this.last = now;
  }

  /** Prints `label {json}` on the console (the phases, with `extra` fields after them). */
  log(label: string, extra: Record<string, string | number> = {}): void {
    console.log(`${label} ${JSON.stringify({ ...this.phases, ...extra })}`);
  }
}
