/**
 * Which queued tasks take a slot of the account's gate (src/account/gate.ts, issue 48): those whose first routing
 * candidate runs in the container, while the gate is on and a native engine exists. Oracle: the engine table's
 * routing (operations/registry.ts `route`) for the same task, and its rows' placement.
 */
import { describe, expect, it } from "vitest";
import { accountConcurrency, DEFAULT_ACCOUNT_CONCURRENCY, needsSlot } from "../../src/account/gate";
import { route } from "../../src/operations/registry";

const on = {};
const first = (op: string, p: Record<string, unknown>, file: string) => route(op, p, file)[0]!.engine.placement;

describe("needsSlot", () => {
  it("a task whose first engine is native takes a slot; one whose first engine is at the edge does not", () => {
    expect(first("convert", { output_format: "pdf" }, "a.docx")).toBe("native");
    expect(needsSlot(on, "convert", { output_format: "pdf" }, [{ filename: "a.docx" }])).toBe(true);
    expect(first("convert", { output_format: "jpg" }, "a.png")).not.toBe("native");
    expect(needsSlot(on, "convert", { output_format: "jpg" }, [{ filename: "a.png" }])).toBe(false);
  });

  it("no slot with the gate off, without a native engine, or for a task routing refuses", () => {
    const docx = [{ filename: "a.docx" }];
    expect(needsSlot({ ACCOUNT_CONCURRENCY: "0" }, "convert", { output_format: "pdf" }, docx)).toBe(false);
    expect(needsSlot({ NATIVE_ENGINE: "off" }, "convert", { output_format: "pdf" }, docx)).toBe(false);
    expect(needsSlot(on, "convert", { output_format: "nope" }, docx)).toBe(false);
    expect(needsSlot(on, "no/such-operation", {}, docx)).toBe(false);
  });

  it("ACCOUNT_CONCURRENCY: an integer ≥ 0, else the default", () => {
    expect(accountConcurrency({})).toBe(DEFAULT_ACCOUNT_CONCURRENCY);
    expect(accountConcurrency({ ACCOUNT_CONCURRENCY: "3" })).toBe(3);
    expect(accountConcurrency({ ACCOUNT_CONCURRENCY: "0" })).toBe(0);
    expect(accountConcurrency({ ACCOUNT_CONCURRENCY: "-1" })).toBe(DEFAULT_ACCOUNT_CONCURRENCY);
    expect(accountConcurrency({ ACCOUNT_CONCURRENCY: "2.5" })).toBe(DEFAULT_ACCOUNT_CONCURRENCY);
  });
});
