/**
 * The JobDO's state machine with the clock injected (issues 9, 10): the transition table refuses
 * what it does not list, leases follow the work (claim, renew, resend of a lost message as the same
 * attempt, requeue of a vanished runner as the next, RUNNER_LOST after the last), and concurrent
 * retries of one task make exactly one retry that runs.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { JobMachine } from "../../durable-objects/job/machine";
import { SCHEMA } from "../../durable-objects/job/schema";
import { MAX_ATTEMPTS } from "../../durable-objects/job/transitions";
import { DELIVERY_MS, LEASE_MS } from "../../src/runner/host";
import { Db } from "../../src/storage/sql";
import { api, createJob, waitJob } from "./helpers";

const jobDo = (id: string) => env.JOBS.getByName(id);

/** A fresh object holding one job with one queue task `t` (a convert with no inputs, so it is ready at once). */
async function withMachine(fn: (m: JobMachine) => void): Promise<void> {
  await runInDurableObject(jobDo(`machine-${crypto.randomUUID()}`), async (_o, state: DurableObjectState) => {
    state.storage.sql.exec(SCHEMA);
    const m = new JobMachine(new Db(state.storage.sql));
    m.forget(true);
    m.db.run("INSERT INTO job VALUES ('j', 'u', 1, NULL, 0, NULL, 'http://x', 60, 'waiting', 0, NULL, NULL, NULL)");
    m.insertTask(
      {
        id: "t",
        name: "t",
        operation: "convert",
        mode: "queue",
        params: {},
        payload: {},
        inputs: [],
        ignoreError: false,
        timeoutS: 3600,
      },
      0,
    );
    fn(m);
  });
}

describe("task transitions and leases", () => {
  it("dispatches once, claims once per attempt, and refuses reports of an ended task", () =>
    withMachine((m) => {
      expect(m.settle(1000).dispatch).toEqual(["t"]);
      expect(m.settle(1001).dispatch).toEqual([]); // waiting → processing happens once
      expect(m.task("t")).toMatchObject({
        status: "processing",
        attempts: 1,
        claimed_at: null,
        lease_until: 1000 + DELIVERY_MS,
      });
      expect(m.claim("t", 1100, "msg-1")?.attempt).toBe(1);
      expect(m.claim("t", 1200, "msg-2")).toBeNull(); // a duplicate message while the runner lives
      expect(m.claim("t", 1300, "msg-1")?.attempt).toBe(1); // the queue redelivers the claiming message: its consumer gave up
      expect(m.renew("t", 1, 5000)).toBe(true);
      expect(m.task("t")!.lease_until).toBe(5000 + LEASE_MS);
      expect(m.renew("t", 2, 5000)).toBe(false); // not this attempt
      expect(m.move("t", "cancel", { now: 6000, code: "CANCELLED" })).toBe(true);
      expect(m.renew("t", 1, 7000)).toBe(false); // the runner learns it was cancelled
      expect(m.move("t", "complete", { now: 8000 })).toBe(false); // the late report is ignored
      expect(m.task("t")).toMatchObject({ status: "error", code: "CANCELLED" });
      expect(m.drain().map((c) => c.kind === "task" && c.event)).toEqual(["dispatch", "cancel"]);
    }));

  it("sends a lost message again as the same attempt, a vanished runner's task as the next, and gives up after the last", () =>
    withMachine((m) => {
      m.settle(0);
      // Never claimed (the queue lost the message): sent again, the attempt does not count.
      expect(m.sweepTimers(DELIVERY_MS - 1)).toEqual([]);
      expect(m.sweepTimers(DELIVERY_MS)).toEqual(["t"]);
      expect(m.task("t")).toMatchObject({ attempts: 1, claimed_at: null });
      let now = DELIVERY_MS;
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        expect(m.claim("t", now + 1)?.attempt).toBe(attempt);
        now += 1 + LEASE_MS; // the runner dies: no heartbeat
        const sent = m.sweepTimers(now);
        if (attempt < MAX_ATTEMPTS) {
          expect(sent).toEqual(["t"]);
          expect(m.task("t")).toMatchObject({ status: "processing", attempts: attempt + 1 });
        } else {
          expect(sent).toEqual([]);
          expect(m.task("t")).toMatchObject({ status: "error", code: "RUNNER_LOST" });
        }
      }
    }));

  it("ends a task past its deadline with TIMEOUT even while its runner renews the lease", () =>
    withMachine((m) => {
      m.settle(0);
      m.claim("t", 1);
      expect(m.renew("t", 1, 3_599_000)).toBe(true);
      m.sweepTimers(3_600_000);
      expect(m.task("t")).toMatchObject({ status: "error", code: "TIMEOUT" });
    }));
});

describe("concurrent actions on one task", () => {
  it("ten concurrent retries of a finished task make one retry, which runs; the others are refused", async () => {
    // b takes the queue (one ZIP reads bytes), so the retry is still running while the other nine arrive.
    const job = await createJob({
      a: { operation: "import/raw", file: "hi", filename: "a.txt" },
      b: { operation: "export/url", archive_multiple_files: true, input: "a" },
    });
    const done = await waitJob(job.id);
    const b = done.tasks.find((t) => t.name === "b")!;
    const answers = await Promise.all(Array.from({ length: 10 }, () => api("POST", `/v2/tasks/${b.id}/retry`)));
    expect(answers.filter((r) => r.status === 201 || r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 422)).toHaveLength(9);
    const after = await waitJob(job.id);
    expect(after.status).toBe("finished");
    expect(after.tasks.filter((t) => t.status !== "finished")).toEqual([]);
    expect(after.tasks).toHaveLength(3);
  });
});

/** The task table as objects created before issue 20's last schema change have it: `seq` the rowid, a UNIQUE index on `id`. */
const ROWID_TASK_TABLE = `CREATE TABLE task (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL, operation TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('waiting','processing','finished','error')),
  mode TEXT NOT NULL, params TEXT NOT NULL, payload TEXT NOT NULL, inputs TEXT NOT NULL, ignore_error INTEGER NOT NULL,
  timeout_s INTEGER NOT NULL, credits INTEGER, code TEXT, message TEXT, percent INTEGER NOT NULL DEFAULT 0,
  engine TEXT, engine_version TEXT, result TEXT, created_at INTEGER NOT NULL, started_at INTEGER, ended_at INTEGER,
  deadline INTEGER, retry_of TEXT, copy_of TEXT, attempts INTEGER NOT NULL DEFAULT 0, lease_until INTEGER,
  claimed_at INTEGER, claimed_by TEXT)`;

describe("the rows the machine keeps in memory", () => {
  for (const [schema, ddl] of [
    ["the current schema", SCHEMA],
    ["an older object's rowid task table", ROWID_TASK_TABLE + ";" + SCHEMA],
  ] as const) {
    it(`match the stored rows after every kind of write, with ${schema}`, () =>
      runInDurableObject(jobDo(`machine-${crypto.randomUUID()}`), async (_o, state: DurableObjectState) => {
        state.storage.sql.exec(ddl);
        const m = new JobMachine(new Db(state.storage.sql));
        m.createJob({
          id: "j",
          user_name: "u",
          user_num: 1,
          tag: null,
          standalone: 0,
          webhook_url: null,
          base_url: "http://x",
          retention_s: 60,
          created_at: 0,
        });
        const stored = () => ({
          job: state.storage.sql.exec("SELECT * FROM job").one(),
          tasks: state.storage.sql.exec("SELECT * FROM task ORDER BY seq").toArray(),
        });
        const same = () => {
          const s = stored();
          expect(m.job()).toEqual(s.job);
          expect(m.tasks()).toEqual(s.tasks);
        };
        m.insertTask(
          {
            id: "a",
            name: "a",
            operation: "import/raw",
            mode: "ingress",
            params: {},
            payload: {},
            inputs: [],
            ignoreError: false,
            timeoutS: 60,
            preset: {
              status: "finished",
              files: [{ filename: "x.txt", size: 1, key: "k" }],
              engine: "e",
              engineVersion: "1",
            },
          },
          0,
        );
        m.insertTask(
          {
            id: "b",
            name: "b",
            operation: "convert",
            mode: "queue",
            params: { input: "a" },
            payload: {},
            inputs: ["a"],
            ignoreError: false,
            timeoutS: 60,
          },
          0,
        );
        same();
        expect(m.settle(10).dispatch).toEqual(["b"]);
        m.deriveJobStatus(10);
        same();
        expect(m.claim("b", 20, "msg")?.inputs.map((f) => f.filename)).toEqual(["x.txt"]);
        same();
        expect(m.move("b", "fail", { now: 30, code: "X", message: "failed" })).toBe(true);
        m.deriveJobStatus(30);
        same();
        // a retry row sorts after the task it retries
        m.insertTask(
          {
            id: "b2",
            name: "b",
            operation: "convert",
            mode: "queue",
            params: {},
            payload: {},
            inputs: ["a"],
            ignoreError: false,
            timeoutS: 60,
            retryOf: "b",
          },
          40,
        );
        same();
        expect(m.tasks().map((t) => t.id)).toEqual(["a", "b", "b2"]);
        expect(m.effective().map((t) => t.id)).toEqual(["a", "b2"]);
        // a transaction that throws leaves no patched row behind
        expect(() =>
          m.transaction(state.storage, () => {
            m.move("b2", "dispatch", { now: 50 });
            throw new Error("rolled back");
          }),
        ).toThrow("rolled back");
        same();
        expect(m.task("b2")!.status).toBe("waiting");
      }));
  }
});
