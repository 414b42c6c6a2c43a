/**
 * The native engine's disk budget (container/disk-budget.ts, issue 45 item 4) as arithmetic: what a call reserves,
 * when it is refused and how, what a release gives back, and how the budget is configured. The real server under
 * concurrent streamed calls: test/native/native-disk-budget.test.ts.
 */
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import {
  DISK_PER_DECLARED_BYTE,
  DiskBudget,
  DiskBudgetBusy,
  DiskBudgetTooSmall,
  diskBudgetOf,
} from "../../container/disk-budget";

describe("DiskBudget", () => {
  it("reserves twice the declared size, refuses what does not fit now (busy) or ever (too small), releases once", () => {
    const b = new DiskBudget(100);
    const first = b.reserve(30);
    expect(b.inUse).toBe(30 * DISK_PER_DECLARED_BYTE);
    expect(() => b.reserve(25)).toThrow(DiskBudgetBusy); // 60 + 50 > 100
    const second = b.reserve(20); // 60 + 40 = 100: exactly the budget
    expect(b.inUse).toBe(100);
    expect(() => b.reserve(51)).toThrow(DiskBudgetTooSmall); // 102 > 100, whatever is in use
    first();
    first(); // a second release gives nothing back twice
    expect(b.inUse).toBe(40);
    second();
    expect(b.inUse).toBe(0);
    expect(() => b.reserve(50)()).not.toThrow();
    expect(new DiskBudgetBusy("x").retryAfterS).toBeGreaterThan(0);
  });

  it("a declared size that is not a byte count reserves nothing instead of poisoning the sum", () => {
    const b = new DiskBudget(10);
    b.reserve(Number.NaN);
    b.reserve(-5);
    expect(b.inUse).toBe(0);
  });

  it("NATIVE_DISK_BUDGET_BYTES sets it; unset, it is a share of the work folder's free space; a bad value is an error", () => {
    expect(diskBudgetOf("1048576", tmpdir()).total).toBe(1048576);
    expect(diskBudgetOf(undefined, tmpdir()).total).toBeGreaterThan(0);
    expect(diskBudgetOf("", tmpdir()).total).toBeGreaterThan(0);
    for (const bad of ["0", "-1", "1.5", "lots"])
      expect(() => diskBudgetOf(bad, tmpdir())).toThrow(/NATIVE_DISK_BUDGET_BYTES/);
  });
});
