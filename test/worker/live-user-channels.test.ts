/**
 * Issue 31: a user channel (`private-user.{id}.jobs|tasks`) subscribed while the user's jobs run
 * hears them. The hub's subscription travels hub → home → the user's index shards (`replicate`
 * with `added`), which register the hub with the jobs they know that have not ended, or ended at
 * or after the subscription (the end raced the subscription). Each job sends the hub its events
 * from then on, and at once those not older than the subscription — each exactly once.
 *
 * The JobDO's calls to the hub (`deliver`) are recorded on the live instance; the calls between
 * objects are the product's own (shard `replicate`, JobDO `liveAddUserHubs`).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type ApiJob, api, createJob, taskByName, waitJob } from "./helpers";
import { shardOf } from "../../src/account/index-shards";
import type { LiveEvent } from "../../src/events/channels";
import type { JobDO } from "../../durable-objects/job";
import type { LiveHost } from "../../durable-objects/job/live";
import type { AccountDO } from "../../durable-objects/account";

// its own user: no-5xx.test.ts fills carol's unfinished-job limit (MAX_OPEN_JOBS) in the same isolate
const KEY = "test-key-d";
const USER = "dave";
const jobDo = (id: string) => env.JOBS.getByName(id);
const shardOfJob = (id: string) => env.ACCOUNTS.getByName(`${USER}#${shardOf(id).toString(16)}`);

/** The private parts of an account shard (its index shard) the tests set. */
const inside = (o: AccountDO) => (o as unknown as { shard(): { bootAt: number; recentEnds: unknown[] } }).shard();

/** Every `deliver` the JobDO makes from now on, as `hub event channel id` lines (the hub answers that everyone listens). */
async function recordDeliveries(jobId: string): Promise<string[]> {
  const got: string[] = [];
  await runInDurableObject(jobDo(jobId), (o: JobDO) => {
    const job = o as unknown as { live: { host: LiveHost } }; // its private parts
    job.live.host.deliver = async (hub: string, events: LiveEvent[]) => {
      for (const e of events) {
        const d = e.data as { job?: { id: string }; task?: { name: string } };
        got.push(`${hub} ${e.event} ${e.channel} ${d.job?.id ?? d.task?.name}`);
      }
      return [];
    };
  });
  return got;
}

/** A job that waits for its upload (`up`), then runs an inline export/url (`out`). */
const waitingJob = () =>
  createJob({ up: { operation: "import/upload" }, out: { operation: "export/url", input: "up" } }, KEY);

/** Posts the upload of `job`'s task `up`: the job then finishes. */
async function upload(job: ApiJob): Promise<void> {
  const form = taskByName(job, "up").result.form;
  const fd = new FormData();
  for (const [k, v] of Object.entries(form.parameters as Record<string, string>)) fd.set(k, v);
  fd.set("file", new File(["payload"], "p.txt"));
  const { exports } = await import("cloudflare:workers");
  expect((await exports.default.fetch(form.url, { method: "POST", body: fd })).status).toBe(201);
}

/** The shard's record of `jobId`'s end has landed (the JobDO tells it after the job ended). */
async function endIndexed(jobId: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const open = await runInDurableObject(shardOfJob(jobId), (_o: unknown, s: DurableObjectState) =>
      s.storage.sql.exec("SELECT 1 FROM jobs WHERE id = ? AND ended_at IS NULL", jobId).toArray(),
    );
    if (!open.length) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("the shard never recorded the job's end");
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A subscription time strictly after what happened so far and before what follows (workerd's clock moves on I/O). */
async function subscriptionTime(): Promise<number> {
  await sleep(5);
  const t = Date.now();
  await sleep(5);
  return t;
}

async function channels() {
  const me = (await api("GET", "/v2/users/me", { key: KEY })).json.data;
  return { jobs: `private-user.${me.id}.jobs`, tasks: `private-user.${me.id}.tasks` };
}

describe("user channels subscribed while jobs run (issue 31)", () => {
  it("a running job hears a user channel subscribed after its creation: its later events, each once", async () => {
    const ch = await channels();
    const job = await waitingJob();
    const got = await recordDeliveries(job.id);
    const since = await subscriptionTime();
    for (const channel of [ch.jobs, ch.tasks])
      await shardOfJob(job.id).replicate({ added: { hub: "hub-a", channel, since } });
    expect(got).toEqual([]); // nothing happened since the subscription
    await upload(job);
    expect((await waitJob(job.id, KEY)).status).toBe("finished");
    // its status changes from now on (job.updated when it starts processing), and its end once
    expect(got.filter((l) => l.includes(" job.")).sort()).toEqual([
      `hub-a job.finished ${ch.jobs} ${job.id}`,
      `hub-a job.updated ${ch.jobs} ${job.id}`,
    ]);
    expect(got.filter((l) => l.includes(" task.finished")).sort()).toEqual([
      `hub-a task.finished ${ch.tasks} out`,
      `hub-a task.finished ${ch.tasks} up`,
    ]);
    expect(got.some((l) => l.includes(".created"))).toBe(false); // created before the subscription
  });

  it("a job that ends while the subscription travels gets it and sends its end once; older subscriptions' news is not resent", async () => {
    const ch = await channels();
    const job = await waitingJob();
    const got = await recordDeliveries(job.id);
    // the shard has been up long before the subscription (it then remembers the ends it records, not reading its index)
    await runInDurableObject(shardOfJob(job.id), (o: AccountDO) => void (inside(o).bootAt = Date.now() - 30_000));
    const since = await subscriptionTime(); // the hub subscribes here…
    await upload(job); // …the job ends before its shard hears of the subscription…
    expect((await waitJob(job.id, KEY)).status).toBe("finished");
    await endIndexed(job.id); // …and even after the shard recorded the end
    expect(got).toEqual([]);
    await shardOfJob(job.id).replicate({ added: { hub: "hub-b", channel: ch.jobs, since } });
    expect(got).toEqual([`hub-b job.finished ${ch.jobs} ${job.id}`]);
    // the same registration again (a second push, or the JobDO's registration answer): nothing more
    await shardOfJob(job.id).replicate({ added: { hub: "hub-b", channel: ch.jobs, since } });
    await jobDo(job.id).liveAddUserHubs([{ hub: "hub-b", channel: ch.jobs }], since);
    // a subscription made after the end hears nothing of it
    await shardOfJob(job.id).replicate({ added: { hub: "hub-c", channel: ch.jobs, since: Date.now() + 1 } });
    expect(got).toEqual([`hub-b job.finished ${ch.jobs} ${job.id}`]);
  });

  it("a shard that lost its memory of recent ends (restarted) finds the raced end in its index", async () => {
    const ch = await channels();
    const job = await waitingJob();
    const got = await recordDeliveries(job.id);
    const since = await subscriptionTime();
    await upload(job);
    await endIndexed(job.id);
    await runInDurableObject(shardOfJob(job.id), (o: AccountDO) => {
      inside(o).recentEnds = [];
      inside(o).bootAt = Date.now();
    });
    await shardOfJob(job.id).replicate({ added: { hub: "hub-d", channel: ch.tasks, since } });
    expect(got.sort()).toEqual([`hub-d task.finished ${ch.tasks} out`, `hub-d task.finished ${ch.tasks} up`]);
  });

  it("a job told by both paths (its registration's answer and the shard's push) sends each event once", async () => {
    const ch = await channels();
    const job = await waitingJob();
    const got = await recordDeliveries(job.id);
    const since = Date.now() - 60_000; // older than the job: created events are due too
    const jobDo_ = jobDo(job.id);
    await jobDo_.liveAddUserHubs([{ hub: "hub-e", channel: ch.jobs }], -Infinity);
    await jobDo_.liveAddUserHubs([{ hub: "hub-e", channel: ch.jobs }], since);
    expect(got).toEqual([`hub-e job.created ${ch.jobs} ${job.id}`]);
    await upload(job);
    expect((await waitJob(job.id, KEY)).status).toBe("finished");
    expect(got).toEqual([
      `hub-e job.created ${ch.jobs} ${job.id}`,
      `hub-e job.updated ${ch.jobs} ${job.id}`,
      `hub-e job.finished ${ch.jobs} ${job.id}`,
    ]);
  });

  it("a job nobody subscribes to writes no live rows, and the shard tells no ended job of a new subscription", async () => {
    const ch = await channels();
    const done = await createJob(
      { a: { operation: "import/raw", file: "x", filename: "x.txt" }, b: { operation: "export/url", input: "a" } },
      KEY,
    );
    expect(done.status).toBe("finished");
    const tables = await runInDurableObject(jobDo(done.id), (_o: unknown, s: DurableObjectState) =>
      s.storage.sql
        .exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'live'")
        .toArray()
        .map((r) => r.name),
    );
    expect(tables).toEqual([]);
    await endIndexed(done.id);
    const got = await recordDeliveries(done.id);
    await shardOfJob(done.id).replicate({ added: { hub: "hub-f", channel: ch.jobs, since: Date.now() + 1 } });
    expect(got).toEqual([]);
    expect(
      await runInDurableObject(jobDo(done.id), (_o: unknown, s: DurableObjectState) =>
        s.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'live'").toArray(),
      ),
    ).toEqual([]);
  });
});
