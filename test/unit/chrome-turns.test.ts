/**
 * The browser pool's turns (engines/chrome/turns.ts, issue 37): at most `max` renderings at once, the rest first
 * come, first served, each ending at its deadline or cancellation without holding a turn.
 */
import { describe, expect, it } from "vitest";
import { Turns } from "../../src/engines/chrome/turns";

const far = () => Date.now() + 60_000;

describe("Turns", () => {
  it("lets `max` go at once and hands each released turn to the oldest waiter", async () => {
    const t = new Turns(2);
    expect(await t.take(far())).toBe("go");
    expect(await t.take(far())).toBe("go");
    const order: string[] = [];
    const third = t.take(far()).then((r) => order.push(`third ${r}`));
    const fourth = t.take(far()).then((r) => order.push(`fourth ${r}`));
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual([]);
    expect(t.queued).toBe(2);
    t.release();
    await third;
    expect(order).toEqual(["third go"]);
    expect(t.inFlight).toBe(2);
    t.release();
    await fourth;
    expect(order).toEqual(["third go", "fourth go"]);
    t.release();
    t.release();
    expect(t.inFlight).toBe(0);
    expect(await t.take(far())).toBe("go");
  });

  it("a waiter ends at its deadline or on cancellation, and leaves the line", async () => {
    const t = new Turns(1);
    expect(await t.take(far())).toBe("go");
    const t0 = Date.now();
    expect(await t.take(Date.now() + 50)).toBe("timeout");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(45);
    const c = new AbortController();
    const cancelled = t.take(far(), c.signal);
    c.abort();
    expect(await cancelled).toBe("cancelled");
    expect(t.queued).toBe(0);
    // the turn that was held passes to a later waiter, not to the ones that left
    const later = t.take(far());
    t.release();
    expect(await later).toBe("go");
    expect(t.inFlight).toBe(1);
  });
});
