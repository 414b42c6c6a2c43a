/**
 * The job's state machine as data (issue 9): every status change of a task or of the job is one
 * named event of these tables, with the statuses it may leave from, the status it enters, and the
 * columns it writes. JobMachine.move (a task's) and JobMachine.deriveJobStatus (the job's, through
 * jobEventFor) are the only code that changes a `status` column, so a transition missing here
 * cannot happen, and a report that arrives after its task ended (cancel, timeout, a stale attempt)
 * is refused by the table rather than by scattered checks.
 *
 * Statuses: contract §2.3 (waiting, processing, finished, error). Leases (issue 10): a dispatched
 * task must be claimed by a runner within DELIVERY_MS; a claimed task's runner renews its lease
 * every HEARTBEAT_MS; a lease that lapses is re-sent at once by the object's alarm. The lease
 * timings are the runner's contract with its host (src/runner/host.ts).
 */
import type { Status } from "../../src/model/status";
import type { TaskRow } from "../../src/model/rows";
import { DELIVERY_MS, LEASE_MS } from "../../src/runner/host";

/** Most times a task is handed to a runner before it fails with RUNNER_LOST. */
export const MAX_ATTEMPTS = 3;
/** Back-off before a retryable engine failure is run again: BACKOFF_MS × 2^(attempt−1), in ms. */
export const BACKOFF_MS = 1_000;

/** Columns an event may write besides `status` (TaskRow names; values are SQL-ready). */
export type TaskColumns = Partial<
  Pick<
    TaskRow,
    | "code"
    | "message"
    | "result"
    | "credits"
    | "percent"
    | "engine"
    | "engine_version"
    | "started_at"
    | "ended_at"
    | "deadline"
    | "attempts"
    | "lease_until"
    | "claimed_at"
    | "claimed_by"
  >
>;

/** What an event needs besides the row: the time and, for ends, the outcome. */
export interface TaskEventInput {
  now: number;
  code?: string;
  message?: string;
  result?: unknown;
  credits?: number;
  engine?: string;
  engineVersion?: string;
  /** requeue: extra delay before the task may be claimed (back-off), in ms. */
  delayMs?: number;
  /** claim: the queue message id of the delivery (stable across the queue's redeliveries of one message). */
  token?: string;
  /** renew: the runner's progress, 0–100 (kept below 100 and never moved back until the task ends). */
  percent?: number;
}

interface TaskTransition {
  from: readonly Status[];
  to: Status;
  /** The columns to write, from the current row. */
  set(t: TaskRow, e: TaskEventInput): TaskColumns;
}

const sent = (_t: TaskRow, e: TaskEventInput, attempts: number): TaskColumns => ({
  attempts,
  claimed_at: null,
  claimed_by: null,
  lease_until: e.now + (e.delayMs ?? 0) + DELIVERY_MS,
});

const ended = (t: TaskRow, e: TaskEventInput): TaskColumns => ({
  code: e.code ?? null,
  message: e.message ?? null,
  result: e.result === undefined ? t.result : JSON.stringify(e.result),
  credits: e.credits ?? 0,
  percent: 100,
  engine: e.engine ?? t.engine,
  engine_version: e.engineVersion ?? t.engine_version,
  ended_at: e.now,
  started_at: t.started_at ?? e.now,
  lease_until: null,
  claimed_at: null,
  claimed_by: null,
});

/** Every task event (contract §2.3 for the statuses; issue 10 for leases). */
export const TASK_TRANSITIONS = {
  /** Inputs finished: the task is sent to the queue as attempt n+1. */
  dispatch: {
    from: ["waiting"],
    to: "processing",
    set: (t, e) => ({ ...sent(t, e, t.attempts + 1), started_at: e.now, deadline: e.now + t.timeout_s * 1000 }),
  },
  /** A runner took the sent task: its lease starts. */
  claim: {
    from: ["processing"],
    to: "processing",
    set: (_t, e) => ({ claimed_at: e.now, claimed_by: e.token ?? null, lease_until: e.now + LEASE_MS }),
  },
  /** The runner is alive (heartbeat). */
  renew: {
    from: ["processing"],
    to: "processing",
    set: (t, e) => ({
      lease_until: e.now + LEASE_MS,
      ...(e.percent === undefined ? {} : { percent: Math.min(99, Math.max(t.percent, Math.round(e.percent))) }),
    }),
  },
  /** Sent, never claimed, lease lapsed (the message was lost): send again, same attempt. */
  resend: { from: ["processing"], to: "processing", set: (t, e) => sent(t, e, t.attempts) },
  /** Claimed, then the runner vanished or failed retryably: send again as the next attempt. */
  requeue: { from: ["processing"], to: "processing", set: (t, e) => sent(t, e, t.attempts + 1) },
  /** The queue refused the send: try again after `delayMs`, same attempt. */
  unsent: {
    from: ["processing"],
    to: "processing",
    set: (_t, e) => ({ claimed_at: null, claimed_by: null, lease_until: e.now + (e.delayMs ?? 0) }),
  },
  /**
   * Not sent: the account's gate has no slot for it yet (issue 48, job/slots.ts). No lease lapses before its
   * deadline; the gate's grant sends it (event `resend`).
   */
  hold: {
    from: ["processing"],
    to: "processing",
    set: (t) => ({ claimed_at: null, claimed_by: null, lease_until: t.deadline }),
  },
  /** The runner reported success. */
  complete: { from: ["processing"], to: "finished", set: ended },
  /** The runner reported a failure that is not retried. */
  fail: { from: ["processing"], to: "error", set: ended },
  /** The file of an upload form arrived. */
  upload: { from: ["waiting"], to: "finished", set: (t, e) => ({ ...ended(t, e), message: null }) },
  /** The user cancelled (contract §2.3 CANCELLED). */
  cancel: { from: ["waiting", "processing"], to: "error", set: ended },
  /** An input ended in error (contract §2.3 INPUT_TASK_FAILED). */
  input_failed: { from: ["waiting", "processing"], to: "error", set: ended },
  /** The task's own timeout passed. */
  timeout: { from: ["waiting", "processing"], to: "error", set: ended },
  /** Attempts exhausted with no runner answering, or dead-lettered. */
  runner_lost: { from: ["processing"], to: "error", set: ended },
} satisfies Record<string, TaskTransition>;

export type TaskEvent = keyof typeof TASK_TRANSITIONS;

/** Job events; the job's status is derived from its tasks (graph/state.ts jobStatus), these name the moves. */
export const JOB_TRANSITIONS = {
  /** A task started. */
  start: { from: ["waiting"], to: "processing" },
  /** Every task ended, none failed without ignore_error. */
  finish: { from: ["waiting", "processing"], to: "finished" },
  /** Every task ended, one failed. */
  fail: { from: ["waiting", "processing"], to: "error" },
  /** A task of an ended job was retried (contract §1.2). */
  reopen: { from: ["finished", "error"], to: "processing" },
  /** Tasks were deleted or retried back to waiting. */
  rewait: { from: ["processing", "finished", "error"], to: "waiting" },
} as const satisfies Record<string, { from: readonly Status[]; to: Status }>;

export type JobEvent = keyof typeof JOB_TRANSITIONS;

/** The job event that moves `from` to `to`, or null when they are equal. @throws Error when the table has none (a bug). */
export function jobEventFor(from: Status, to: Status): JobEvent | null {
  if (from === to) return null;
  for (const [name, t] of Object.entries(JOB_TRANSITIONS)) {
    if (t.to === to && (t.from as readonly Status[]).includes(from)) return name as JobEvent;
  }
  throw new Error(`job transition ${from} → ${to} is not in the table`);
}

/** One status change, as the parts that observe changes (notices, live events) receive it. */
export type Change =
  | { kind: "task"; id: string; event: TaskEvent; from: Status; to: Status }
  | { kind: "job"; id: string; event: JobEvent; from: Status; to: Status };
