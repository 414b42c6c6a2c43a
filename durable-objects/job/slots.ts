/**
 * The account's concurrency slots, as the JobDO sees them (issue 48; the gate is durable-objects/account/gate.ts,
 * the rule src/account/gate.ts): a part of the JobDO. Native tasks it dispatches ask the user's gate for slots; the
 * granted ones are sent to the queue, the others are held (event `hold`) until the gate grants them (`granted`).
 * When a task that may hold a slot ends, its slot is released. A gate that cannot be reached does not stop work:
 * its tasks are sent as if granted (fairness is lost for them, nothing else), and a release that fails is found by
 * the gate's own check (`active`).
 */
import type { Env } from "../../src/env";
import { gateStub, needsSlot } from "../../src/account/gate";
import { isTerminal } from "../../src/model/status";
import type { TaskRow } from "../../src/model/rows";
import type { JobMachine } from "./machine";
import type { Change } from "./transitions";

export class Slots {
  /** Tasks that ended since the last release and may hold a slot. */
  private ended: string[] = [];
  /**
   * Tasks the gate granted while `admit` still waited for its answer (a release at the gate can overtake that
   * answer): already sent, so `admit` must not hold them.
   */
  private grantedEarly = new Set<string>();
  /** Tasks whose `admit` waits for the gate's answer now. */
  private asking = new Set<string>();

  constructor(
    private m: JobMachine,
    private env: Env,
  ) {}

  /** Whether task `t` takes a slot (its first engine is native, the gate is on). */
  private gated(t: TaskRow): boolean {
    return needsSlot(this.env, t.operation, JSON.parse(t.params) as Record<string, unknown>, this.m.inputsOf(t));
  }

  /**
   * Of the queued tasks `ids` (already moved to processing), those to send now: every ungated one and the gated
   * ones the gate granted. The others are held until their grant. Never throws.
   */
  async admit(ids: string[], now: number, storage: DurableObjectStorage): Promise<string[]> {
    const gated = ids.filter((id) => {
      const t = this.m.task(id);
      return !!t && this.gated(t);
    });
    if (gated.length === 0) return ids;
    const jobId = this.m.job()!.id;
    let granted: Set<string>;
    for (const id of gated) this.asking.add(id);
    try {
      const gate = gateStub(this.env, this.m.job()!.user_name);
      granted = new Set(await gate.acquireSlots(gated.map((taskId) => ({ taskId, jobId }))));
    } catch (err) {
      console.error("the account's gate could not be reached; its tasks are sent without a slot:", err);
      return ids;
    } finally {
      for (const id of gated) this.asking.delete(id);
    }
    const held = gated.filter((id) => !granted.has(id) && !this.grantedEarly.has(id));
    for (const id of gated) this.grantedEarly.delete(id);
    if (held.length) this.m.transaction(storage, () => held.forEach((id) => this.m.move(id, "hold", { now })));
    return ids.filter((id) => !held.includes(id));
  }

  /** The gate granted `ids`: those still held move to sent (event `resend`); returns them, to send. */
  granted(ids: string[], now: number, storage: DurableObjectStorage): string[] {
    const sent = this.m.transaction(storage, () =>
      ids.filter((id) => {
        const t = this.m.task(id);
        return !!t && t.status === "processing" && t.claimed_at === null && this.m.move(id, "resend", { now });
      }),
    );
    for (const id of sent) if (this.asking.has(id)) this.grantedEarly.add(id);
    return sent;
  }

  /** Of `ids`, the tasks of this job that have not ended (the gate's check for lost releases). */
  active(ids: string[]): string[] {
    if (!this.m.job()) return [];
    return ids.filter((id) => {
      const t = this.m.task(id);
      return !!t && !isTerminal(t.status);
    });
  }

  /** The observer of committed changes: remembers processing tasks that ended and may hold a slot. */
  observe(changes: Change[]): void {
    for (const c of changes) {
      if (c.kind !== "task" || c.from !== "processing" || !isTerminal(c.to)) continue;
      const t = this.m.task(c.id);
      if (t && this.gated(t)) this.ended.push(c.id);
    }
  }

  /** Releases the slots of the tasks that ended; a failed call is left to the gate's check. Never throws. */
  async release(): Promise<void> {
    if (this.ended.length === 0 || !this.m.job()) return;
    const ids = this.ended;
    this.ended = [];
    try {
      await gateStub(this.env, this.m.job()!.user_name).releaseSlots(ids);
    } catch (err) {
      console.error("releasing slots failed; the gate's check frees them:", err);
    }
  }
}
