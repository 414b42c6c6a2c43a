/**
 * The job machinery through the product's own paths (issue 11), with the JobDO's clock moved
 * forward on the instance (`clock`) instead of state written by hand: every alarm that runs here
 * was armed by the product (each test checks `getAlarm()` first), every state change comes from an
 * RPC or an HTTP call a runner, the queue or a user makes.
 *
 * A lost queue message is a queue that accepts and drops (`dropQueue`): the failure mode, not a
 * stand-in for the queue (the real queue delivers every other message here).
 */
import {
  createExecutionContext,
  createMessageBatch,
  env,
  getQueueResult,
  runDurableObjectAlarm,
  runInDurableObject,
} from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import type { JobDO } from "../../durable-objects/job";
import { MAX_ATTEMPTS } from "../../durable-objects/job/transitions";
import { DELIVERY_MS, LEASE_MS, type TaskHost } from "../../src/runner/host";
import type { TaskMessage } from "../../src/env";
import { type ApiJob, type ApiTask, api, createJob, taskByName, waitJob } from "./helpers";

const jobDo = (id: string) => env.JOBS.getByName(id);

/** Sends every message into `sent` and never delivers it (a lost message). */
function dropQueue(sent: { body: unknown; delaySeconds?: number }[]) {
  return {
    sendBatch: async (msgs: { body: unknown; delaySeconds?: number }[]) => void sent.push(...msgs),
    send: async (body: unknown) => void sent.push({ body }),
  };
}

/** The members of the live JobDO these tests replace: its clock, and its private queue and runner host. */
interface JobInside {
  clock: () => number;
  dispatch: { queue: Queue<TaskMessage> | ReturnType<typeof dropQueue> };
  asHost: TaskHost;
}

/** Runs `fn` on the live JobDO instance (its parts and clock) and its storage. */
const onObject = <T>(jobId: string, fn: (o: JobInside, state: DurableObjectState) => T | Promise<T>) =>
  runInDurableObject<JobDO, T>(jobDo(jobId), (o, state) => fn(o as unknown as JobInside, state));

/** Moves the object's clock to real time + `ms`. */
const skew = (jobId: string, ms: number) =>
  onObject(jobId, (o) => {
    o.clock = () => Date.now() + ms;
  });

/** The alarm the product armed (fails the test when there is none), then runs it. */
async function fireArmedAlarm(jobId: string): Promise<number> {
  const at = await onObject(jobId, (_o, s) => s.storage.getAlarm());
  expect(at, "the product armed no alarm").not.toBeNull();
  expect(await runDurableObjectAlarm(jobDo(jobId))).toBe(true);
  return at as number;
}

/**
 * A job whose `out` task is dispatched when its upload arrives; the queue is swapped for `dropQueue(sent)` first.
 * `out` is export/url as one ZIP (archive_multiple_files), which reads bytes and so takes the queue; a plain
 * export/url runs inside the JobDO (issue 20, see "inline tasks" below).
 */
async function jobWithLostDispatch(timeout?: number) {
  const job = await createJob({
    up: { operation: "import/upload" },
    out: { operation: "export/url", archive_multiple_files: true, input: "up", ...(timeout ? { timeout } : {}) },
  });
  const sent: { body: TaskMessage; delaySeconds?: number }[] = [];
  await onObject(job.id, (o) => {
    o.dispatch.queue = dropQueue(sent);
  });
  const form = taskByName(job, "up").result.form;
  const fd = new FormData();
  for (const [k, v] of Object.entries(form.parameters as Record<string, string>)) fd.set(k, v);
  fd.set("file", new File(["payload"], "p.txt"));
  const { exports } = await import("cloudflare:workers");
  expect((await exports.default.fetch(form.url, { method: "POST", body: fd })).status).toBe(201);
  const outId = taskByName(job, "out").id;
  expect(sent.map((m) => m.body.taskId)).toEqual([outId]);
  return { job, outId, sent, stub: jobDo(job.id) as unknown as TaskHost }; // the JobDO as its runner sees it
}

const task = async (id: string) => (await api<ApiTask>("GET", `/v2/tasks/${id}`)).json.data;

describe("leases, through the product's alarm", () => {
  it("a lost queue message: the lease lapses, the task is sent again as the same attempt, and it finishes", async () => {
    const { job, outId } = await jobWithLostDispatch();
    const armed = await onObject(job.id, (_o, s) => s.storage.getAlarm());
    expect(armed! - Date.now()).toBeGreaterThan(DELIVERY_MS - 5_000); // armed for the delivery lease, not minutes away
    expect(armed! - Date.now()).toBeLessThanOrEqual(DELIVERY_MS);
    await onObject(job.id, (o) => {
      o.dispatch.queue = env.TASKS;
    });
    await skew(job.id, DELIVERY_MS + 1_000);
    await fireArmedAlarm(job.id);
    const done = await waitJob(job.id);
    expect(done.status).toBe("finished");
    const row = await onObject(job.id, (_o, s) =>
      s.storage.sql.exec("SELECT attempts FROM task WHERE id = ?", outId).one(),
    );
    expect(row.attempts).toBe(1); // a lost message is not an attempt
  });

  it("runners that claim and vanish: the next attempt after each lapsed lease, RUNNER_LOST after the last", async () => {
    const { job, outId, sent, stub } = await jobWithLostDispatch();
    let offset = 0;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const claim = await stub.claimTask(outId, `dead-runner-${attempt}`);
      expect(claim?.attempt).toBe(attempt);
      offset += LEASE_MS + 1_000; // no heartbeat
      await skew(job.id, offset);
      await fireArmedAlarm(job.id);
    }
    expect(await task(outId)).toMatchObject({ status: "error", code: "RUNNER_LOST" });
    expect(sent).toHaveLength(MAX_ATTEMPTS); // the first dispatch and one resend per lapsed lease but the last
    expect((await waitJob(job.id)).status).toBe("error");
  });

  it("a retryable engine failure is sent again after a growing back-off; a non-retryable one ends the task", async () => {
    const { outId, sent, stub } = await jobWithLostDispatch();
    await stub.claimTask(outId, "m1");
    await stub.failTask(outId, 1, { code: "INTERNAL_ERROR", message: "engine crashed", retryable: true });
    expect(sent.at(-1)).toMatchObject({ body: { taskId: outId }, delaySeconds: 1 });
    await stub.claimTask(outId, "m2");
    await stub.failTask(outId, 2, { code: "INTERNAL_ERROR", message: "engine crashed", retryable: true });
    expect(sent.at(-1)).toMatchObject({ body: { taskId: outId }, delaySeconds: 2 });
    await stub.claimTask(outId, "m3");
    await stub.failTask(outId, 3, { code: "INTERNAL_ERROR", message: "engine crashed again", retryable: true });
    expect(await task(outId)).toMatchObject({
      status: "error",
      code: "INTERNAL_ERROR",
      message: "engine crashed again",
    });
  });

  it("the dead-letter consumer ends a task with RUNNER_LOST and acks the message", async () => {
    const { job, outId } = await jobWithLostDispatch();
    const batch = createMessageBatch("edge-convert-tasks-dlq", [
      { id: "dead-1", timestamp: new Date(), attempts: 6, body: { jobId: job.id, taskId: outId } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch as never, env as never);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(["dead-1"]);
    expect(await task(outId)).toMatchObject({ status: "error", code: "RUNNER_LOST" });
  });

  it("cancel of a processing task: the runner's next heartbeat is refused and its late report ignored", async () => {
    const { job, outId, stub } = await jobWithLostDispatch();
    const claim = (await stub.claimTask(outId, "m1"))!;
    expect(await stub.renewLease(outId, claim.attempt)).toBe(true);
    expect((await api("POST", `/v2/tasks/${outId}/cancel`)).status).toBe(200);
    expect(await stub.renewLease(outId, claim.attempt)).toBe(false);
    await stub.completeTask(outId, claim.attempt, { files: [], engine: "cloudflare", engineVersion: "1", credits: 0 });
    expect(await task(outId)).toMatchObject({ status: "error", code: "CANCELLED" });
    expect((await waitJob(job.id)).status).toBe("error");
  });

  it("a task over its timeout while its runner still renews ends with TIMEOUT at the product's alarm", async () => {
    const { job, outId, stub } = await jobWithLostDispatch(20);
    const claim = (await stub.claimTask(outId, "m1"))!;
    await skew(job.id, 19_000);
    expect(await stub.renewLease(outId, claim.attempt)).toBe(true);
    await skew(job.id, 21_000);
    await fireArmedAlarm(job.id);
    expect(await task(outId)).toMatchObject({ status: "error", code: "TIMEOUT" });
    expect(await stub.renewLease(outId, claim.attempt)).toBe(false);
  });
});

describe("retention, through the product's alarm", () => {
  it("deletes the job, its R2 files and the account's index entries RETENTION_SECONDS (600 in the tests) after it ends", async () => {
    const job = await createJob({ a: { operation: "import/raw", file: "bye", filename: "bye.txt" } });
    const done = await waitJob(job.id);
    expect(done.status).toBe("finished");
    const row = await onObject(job.id, (_o, st) => st.storage.sql.exec("SELECT ended_at, expires_at FROM job").one());
    expect(Number(row.expires_at) - Number(row.ended_at)).toBe(600_000);
    expect((await env.FILES.list({ prefix: `jobs/${job.id}/` })).objects.length).toBe(1);
    await skew(job.id, 599_000);
    // The product may hold an earlier alarm (a notice retry 5 s after the end); each firing re-arms for the next timer, and the last one is retention.
    let at = 0;
    for (let i = 0; i < 3 && at !== Number(row.expires_at); i++) at = await fireArmedAlarm(job.id);
    expect(at).toBe(Number(row.expires_at));
    expect((await api("GET", `/v2/jobs/${job.id}`)).status).toBe(200);
    await skew(job.id, 601_000);
    await fireArmedAlarm(job.id);
    expect((await api("GET", `/v2/jobs/${job.id}`)).status).toBe(404);
    expect((await api("GET", `/v2/tasks/${job.tasks[0].id}`)).status).toBe(404);
    expect((await api<ApiJob[]>("GET", "/v2/jobs")).json.data.map((j) => j.id)).not.toContain(job.id);
    expect((await env.FILES.list({ prefix: `jobs/${job.id}/` })).objects.length).toBe(0);
  });
});

describe("inline tasks (issue 20): export/url runs inside the JobDO, no queue hop, same guarantees", () => {
  /** A job of upload → plain export/url, with the queue swapped for `dropQueue(sent)` before the upload arrives. */
  async function uploadThenExport(prepare?: (o: JobInside) => void, awaitUpload = true) {
    const job = await createJob({ up: { operation: "import/upload" }, out: { operation: "export/url", input: "up" } });
    const sent: { body: TaskMessage; delaySeconds?: number }[] = [];
    await onObject(job.id, (o) => {
      o.dispatch.queue = dropQueue(sent);
      prepare?.(o);
    });
    const form = taskByName(job, "up").result.form;
    const fd = new FormData();
    for (const [k, v] of Object.entries(form.parameters as Record<string, string>)) fd.set(k, v);
    fd.set("file", new File(["payload"], "p.txt"));
    const { exports } = await import("cloudflare:workers");
    const uploaded = exports.default.fetch(form.url, { method: "POST", body: fd });
    if (awaitUpload) expect((await uploaded).status).toBe(201);
    return { job, sent, outId: taskByName(job, "out").id as string };
  }

  it("the job of import/raw → export/url is finished in the answer of POST /v2/jobs", async () => {
    const r = await api("POST", "/v2/jobs", {
      body: {
        tasks: {
          a: { operation: "import/raw", file: "hi", filename: "a.txt" },
          b: { operation: "export/url", input: "a" },
        },
      },
    });
    expect(r.status).toBe(201);
    expect(r.json.data.status).toBe("finished");
    const url = taskByName(r.json.data, "b").result.files[0].url;
    const { exports } = await import("cloudflare:workers");
    expect(await (await exports.default.fetch(url)).text()).toBe("hi");
  });

  it("an export/url made ready by an upload finishes without any queue message", async () => {
    const { job, sent, outId } = await uploadThenExport();
    expect(sent).toEqual([]);
    expect(await task(outId)).toMatchObject({ status: "finished", engine: "cloudflare" });
    expect((await waitJob(job.id)).status).toBe("finished");
  });

  it("an inline run that never reports (the object died mid-run) is sent to the queue when its lease lapses, and finishes there", async () => {
    // completeTask never answers: what the storage sees when the object is evicted between claim and report.
    // (The upload's own answer waits for that run, so it is not awaited.)
    const { job, sent, outId } = await uploadThenExport((o) => {
      o.asHost = { ...o.asHost, completeTask: () => new Promise(() => {}) };
    }, false);
    for (
      let i = 0;
      i < 100 &&
      (await onObject(
        job.id,
        (_o, st) => st.storage.sql.exec("SELECT claimed_by FROM task WHERE id = ?", outId).one().claimed_by,
      )) !== "inline";
      i++
    )
      await new Promise((r) => setTimeout(r, 20));
    expect(sent).toEqual([]);
    expect(await task(outId)).toMatchObject({ status: "processing" });
    await skew(job.id, LEASE_MS + 1_000);
    await fireArmedAlarm(job.id);
    expect(sent.map((m) => m.body.taskId)).toEqual([outId]);
    const batch = createMessageBatch<TaskMessage>("edge-convert-tasks", [
      { id: "m-inline", timestamp: new Date(), attempts: 1, body: sent[0].body },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    await getQueueResult(batch, ctx);
    expect(await task(outId)).toMatchObject({ status: "finished" });
    expect((await waitJob(job.id)).status).toBe("finished");
  });
});
