/**
 * Spreading calls over identical instances (issue 48): the browser objects (runtime/workerd/browser.ts) and the native
 * engine's instances (engines/native/client.ts spreadNative). Each call takes the less loaded of two instances chosen at random —
 * "the power of two choices" (Mitzenmacher, 2001): over n instances the busiest holds O(log log n) above the mean where
 * one random pick leaves O(log n / log log n) — judged by the calls this isolate has in flight on each (no round trip
 * to ask an instance its load). An instance that failed under a call is passed over for a while, so the call's retry
 * and the next calls go elsewhere while it restarts.
 */

/** How long an instance that failed under a call is tried only after the others, ms. */
export const DOWN_MS = 10_000;

/**
 * The order in which a call tries the instances 0 … count-1: the less loaded of two distinct random instances first
 * (ties: the first drawn), then the other, then the rest in random order. `load(i)`: calls in flight on instance i.
 */
export function twoChoices(count: number, load: (i: number) => number, random: () => number = Math.random): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  if (count >= 2 && load(order[1]!) < load(order[0]!)) [order[0], order[1]] = [order[1]!, order[0]!];
  return order;
}

/** The calls in flight on each of `count` instances, and which failed lately; one per isolate and pool of instances. */
export class Spread {
  readonly count: number;
  private inFlight: number[];
  private downUntil: number[];

  constructor(count: number) {
    this.count = Math.max(1, Math.floor(count));
    this.inFlight = new Array<number>(this.count).fill(0);
    this.downUntil = new Array<number>(this.count).fill(0);
  }

  /** Calls in flight on instance `i`. */
  load(i: number): number {
    return this.inFlight[i] ?? 0;
  }

  /** The instances in the order a call tries them: {@link twoChoices} among those up, then those down lately. */
  order(random: () => number = Math.random, now = Date.now()): number[] {
    const all = twoChoices(this.count, (i) => this.inFlight[i]!, random);
    const up = all.filter((i) => this.downUntil[i]! <= now);
    return up.length === all.length ? all : [...up, ...all.filter((i) => this.downUntil[i]! > now)];
  }

  /** Runs `call` on instance `i`, counted in its load; a throw marks `i` down for {@link DOWN_MS}. */
  async on<T>(i: number, call: () => Promise<T>): Promise<T> {
    this.inFlight[i]!++;
    try {
      return await call();
    } catch (err) {
      this.downUntil[i] = Date.now() + DOWN_MS;
      throw err;
    } finally {
      this.inFlight[i]!--;
    }
  }
}
