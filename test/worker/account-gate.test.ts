/**
 * Issue 48: the account's concurrency gate (durable-objects/account/gate.ts), the real AccountDO role at
 * `{user}#gate`, driven through its RPC as the JobDO drives it. The jobs named here do not exist, so the gate's
 * calls to them behave as to a job that ended or was deleted: `slotGranted` finds nothing to send, `activeTasks`
 * answers none — which is the lost-release case the gate's alarm must clean up.
 */
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { AccountDO } from "../../durable-objects/account";
import { RECONCILE_MS } from "../../durable-objects/account/gate";
import { accountConcurrency, gateStub } from "../../src/account/gate";

const rows = (user: string) =>
  runInDurableObject(env.ACCOUNTS.getByName(`${user}#gate`), (_o: AccountDO, s) => ({
    held: s.storage.sql
      .exec("SELECT task_id FROM gate_slot ORDER BY task_id")
      .toArray()
      .map((r) => r.task_id),
    waiting: s.storage.sql
      .exec("SELECT task_id FROM gate_wait ORDER BY seq")
      .toArray()
      .map((r) => r.task_id),
  }));

describe("the account's concurrency gate", () => {
  const cap = accountConcurrency(env);
  const reqs = (user: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({ taskId: `${user}-t${String(i).padStart(2, "0")}`, jobId: `${user}-job` }));

  it("grants up to ACCOUNT_CONCURRENCY in order, keeps the rest waiting in line, and asking again changes nothing", async () => {
    const user = `gate-${crypto.randomUUID().slice(0, 8)}`;
    const all = reqs(user, cap + 3);
    const gate = gateStub(env, user);
    const granted = await gate.acquireSlots(all);
    expect(granted).toEqual(all.slice(0, cap).map((r) => r.taskId));
    expect(await gate.acquireSlots(all)).toEqual(granted);
    expect(await rows(user)).toEqual({ held: granted, waiting: all.slice(cap).map((r) => r.taskId) });
    // another user's gate is its own: it grants at once
    expect(await gateStub(env, `${user}-other`).acquireSlots(reqs(`${user}-other`, 1))).toHaveLength(1);
  });

  it("a released slot goes to the oldest waiter; a newcomer waits behind the line", async () => {
    const user = `gate-${crypto.randomUUID().slice(0, 8)}`;
    const all = reqs(user, cap + 2);
    const gate = gateStub(env, user);
    await gate.acquireSlots(all);
    await gate.releaseSlots([all[0]!.taskId]);
    const after = await rows(user);
    expect(after.held).toContain(all[cap]!.taskId);
    expect(after.held).not.toContain(all[0]!.taskId);
    expect(after.waiting).toEqual([all[cap + 1]!.taskId]);
    expect(await gate.acquireSlots([{ taskId: `${user}-late`, jobId: `${user}-job` }])).toEqual([]);
    // a waiter that ends (cancelled, timed out) leaves the line
    await gate.releaseSlots([all[cap + 1]!.taskId]);
    expect((await rows(user)).waiting).toEqual([`${user}-late`]);
  });

  it("slots whose release was lost are freed by the alarm, which asks the jobs whether their tasks still run", async () => {
    const user = `gate-${crypto.randomUUID().slice(0, 8)}`;
    const all = reqs(user, cap + 1);
    const stub = env.ACCOUNTS.getByName(`${user}#gate`);
    await gateStub(env, user).acquireSlots(all);
    const at = await runInDurableObject(stub, (_o, s) => s.storage.getAlarm());
    expect(at, "the gate armed no alarm while it holds slots").not.toBeNull();
    // time passes beyond the check's interval: the jobs answer that none of these tasks runs (they do not exist)
    await runInDurableObject(stub, (o: AccountDO) => {
      o.clock = () => Date.now() + RECONCILE_MS + 1_000;
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await rows(user)).toEqual({ held: [], waiting: [] });
    expect(await runInDurableObject(stub, (_o, s) => s.storage.getAlarm())).toBeNull();
  });
});
