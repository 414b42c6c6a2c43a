/**
 * The browser objects' routing (issue 48, src/runtime/workerd/browser.ts): the order in which a rendering tries the
 * shards is a permutation whose head is the less loaded of two random choices, and BROWSER_SHARDS is read with bounds.
 * Spread (src/engines/spread.ts, also the native instances' router) counts calls in flight and passes over an instance
 * that failed. The spread is measured against the one-random-pick baseline by simulation with a seeded generator.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_BROWSER_SHARDS, browserShards } from "../../src/runtime/workerd/browser";
import { DOWN_MS, Spread, twoChoices } from "../../src/engines/spread";

/** A seeded generator (mulberry32), so the simulation is the same on every run. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("twoChoices", () => {
  it("is a permutation of every shard, the less loaded of the first two first", () => {
    const random = seeded(1);
    for (let n = 1; n <= 9; n++) {
      for (let k = 0; k < 50; k++) {
        const load = Array.from({ length: n }, () => Math.floor(random() * 5));
        const order = twoChoices(n, (i) => load[i]!, random);
        expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
        if (n >= 2) expect(load[order[0]!]!).toBeLessThanOrEqual(load[order[1]!]!);
      }
    }
  });

  it("keeps the busiest of 8 shards far lower than one random pick does (1,000 long renderings)", () => {
    const place = (choose: (load: number[]) => number) => {
      const load = new Array<number>(8).fill(0);
      for (let i = 0; i < 1000; i++) load[choose(load)]!++;
      return Math.max(...load);
    };
    const random = seeded(7);
    const two = place((load) => twoChoices(8, (i) => load[i]!, random)[0]!);
    const one = place(() => Math.floor(random() * 8));
    // a perfect spread is 125 each; one random pick leaves the busiest ~20 above it, two choices ~1–2
    expect(two).toBeLessThanOrEqual(128);
    expect(one).toBeGreaterThan(two);
  });
});

describe("Spread", () => {
  it("counts a call in its instance's load while it runs, and passes over an instance that failed for DOWN_MS", async () => {
    const spread = new Spread(3);
    let release!: () => void;
    const running = spread.on(1, () => new Promise<void>((r) => (release = r)));
    expect([0, 1, 2].map((i) => spread.load(i))).toEqual([0, 1, 0]);
    release();
    await running;
    expect(spread.load(1)).toBe(0);

    await expect(spread.on(2, () => Promise.reject(new Error("connection reset")))).rejects.toThrow("connection reset");
    expect(spread.load(2)).toBe(0);
    const random = seeded(3);
    const now = Date.now();
    for (let k = 0; k < 20; k++) expect(spread.order(random, now).at(-1)).toBe(2);
    const later = now + DOWN_MS + 1;
    const heads = new Set(Array.from({ length: 40 }, () => spread.order(random, later)[0]));
    expect(heads.has(2)).toBe(true);
  });
});

describe("BROWSER_SHARDS", () => {
  it("reads a whole number from 1 to 64, the default otherwise", () => {
    expect(browserShards({})).toBe(DEFAULT_BROWSER_SHARDS);
    expect(browserShards({ BROWSER_SHARDS: "1" })).toBe(1);
    expect(browserShards({ BROWSER_SHARDS: "16" })).toBe(16);
    for (const bad of ["0", "65", "2.5", "x", ""])
      expect(browserShards({ BROWSER_SHARDS: bad })).toBe(DEFAULT_BROWSER_SHARDS);
  });
});
