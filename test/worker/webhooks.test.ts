/**
 * Webhooks in workerd (issue 2, contract §4): per-job webhook_url gets job.finished signed with the
 * user's secret; failures are retried from the persisted outbox; 410 Gone disables an account webhook.
 */
import { env, runDurableObjectAlarm } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { type ApiJob, api, createJob, waitJob } from "./helpers";
import type { AccountDO } from "../../durable-objects/account";

const calls: { url: string; body: string; signature: string | null }[] = [];
const real = globalThis.fetch;
let answer = 200;

function stubFetch() {
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.startsWith("https://hooks.example.org/")) {
      calls.push({
        url,
        body: String(init?.body),
        signature: new Headers(init?.headers).get("cloudconvert-signature"),
      });
      return new Response("", { status: answer });
    }
    return real(input, init);
  }) as typeof fetch;
}
afterEach(() => {
  globalThis.fetch = real;
  calls.length = 0;
  answer = 200;
});

async function hmac(secret: string, body: string) {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return [...new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(body)))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

const account = () => env.ACCOUNTS.getByName("alice");

/** The account's alarm as the product armed it, or null. */
const armedAlarmOrNull = async (): Promise<number | null> =>
  (await import("cloudflare:test")).runInDurableObject(account(), (_o: unknown, state: DurableObjectState) =>
    state.storage.getAlarm(),
  );

/**
 * The account's alarm as the product armed it (fails when none is armed within 3 s: a job's end
 * reaches the home object after the job's waiters, through the job's index shard).
 */
async function armedAlarm(): Promise<number> {
  let at = await armedAlarmOrNull();
  for (let i = 0; i < 150 && at === null; i++) {
    await new Promise((r) => setTimeout(r, 20));
    at = await armedAlarmOrNull();
  }
  expect(at, "the product armed no alarm").not.toBeNull();
  return at!;
}

/** Moves the AccountDO's clock to real time + `ms`. */
const setAccountClock = async (ms: number) =>
  (await import("cloudflare:test")).runInDurableObject<AccountDO, void>(account(), (o) => {
    o.clock = () => Date.now() + ms;
  });

/** Credits the user has left per GET /v2/users/me (an allowance minus what the 16 index shards counted). */
const creditsLeft = async (): Promise<number> => (await api<ApiUser>("GET", "/v2/users/me")).json.data.credits;

/** GET /v2/users/me, the fields read here. */
interface ApiUser {
  credits: number;
  webhook_signing_secret: string;
}

/** A webhook as GET /v2/users/me/webhooks lists it, the fields read here. */
interface ApiWebhook {
  id: string;
  disabled: boolean;
}

/** The credits of a job's tasks as its result shows them. */
const creditsOf = (job: ApiJob): number => job.tasks.reduce((n: number, t) => n + (t.credits ?? 0), 0);

/**
 * GET /v2/users/me's credits once they differ from `from` (and equal `target` when given), polled for up to
 * 10 s: the shard counts a job's credits after its waiters were told it ended. Returns what it read last.
 */
async function creditsLeftOnceChanged(from: number, target?: number): Promise<number> {
  const deadline = Date.now() + 10_000;
  let now = await creditsLeft();
  while ((now === from || (target !== undefined && now !== target)) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    now = await creditsLeft();
  }
  return now;
}

describe("webhooks", () => {
  it("calls a job's webhook_url with job.finished, signed with the user's secret", async () => {
    stubFetch();
    const job = await createJob({ a: { operation: "import/raw", file: "x", filename: "x.txt" } }, undefined, {
      webhook_url: "https://hooks.example.org/job",
    });
    await waitJob(job.id);
    await armedAlarm();
    await runDurableObjectAlarm(account());
    const mine = calls.filter((c) => c.url.endsWith("/job"));
    expect(mine.length).toBe(1);
    const body = JSON.parse(mine[0].body);
    expect(body.event).toBe("job.finished");
    expect(body.job.id).toBe(job.id);
    expect(body.job.tasks[0].status).toBe("finished");
    const secret = (await api<ApiUser>("GET", "/v2/users/me")).json.data.webhook_signing_secret;
    expect(mine[0].signature).toBe(await hmac(secret, mine[0].body));
  });

  it("retries a failing delivery at the product's back-off (2 s, 15 s, 60 s), then marks the webhook failing", async () => {
    stubFetch();
    const created = await api<ApiWebhook>("POST", "/v2/webhooks", {
      body: { url: "https://hooks.example.org/flaky", events: ["job.failed"] },
    });
    answer = 503;
    const job = await createJob({ a: { operation: "import/url", url: "http://localhost/x" } });
    expect((await waitJob(job.id)).status).toBe("error");
    const flaky = () => calls.filter((c) => c.url.endsWith("/flaky")).length;
    let skew = 0;
    for (const [i, backoff] of [2_000, 15_000, 60_000, null].entries()) {
      const t0 = await armedAlarm();
      await runDurableObjectAlarm(account());
      expect(flaky()).toBe(i + 1);
      if (backoff === null) break;
      // The product re-armed the alarm `backoff` after the attempt (its clock, skewed by `skew`).
      const next = await armedAlarm();
      expect(next - (Date.now() + skew)).toBeGreaterThan(backoff - 3_000);
      expect(next - (Date.now() + skew)).toBeLessThanOrEqual(backoff);
      expect(next).toBeGreaterThanOrEqual(t0);
      skew += backoff + 100;
      await setAccountClock(skew);
    }
    expect(await armedAlarmOrNull()).toBeNull(); // nothing left to deliver
    const hook = (await api<ApiWebhook[]>("GET", "/v2/users/me/webhooks")).json.data.find(
      (h) => h.id === created.json.data.id,
    );
    expect(hook).toMatchObject({ failing: true, disabled: false });
    await api("DELETE", `/v2/webhooks/${created.json.data.id}`);
  });

  it("410 Gone disables an account webhook at once", async () => {
    stubFetch();
    const created = await api<ApiWebhook>("POST", "/v2/webhooks", {
      body: { url: "https://hooks.example.org/gone", events: ["job.failed"] },
    });
    answer = 410;
    const job = await createJob({ a: { operation: "import/url", url: "http://localhost/x" } });
    expect((await waitJob(job.id)).status).toBe("error");
    await armedAlarm();
    await runDurableObjectAlarm(account());
    expect(calls.filter((c) => c.url.endsWith("/gone")).length).toBe(1);
    const hooks = (await api<ApiWebhook[]>("GET", "/v2/users/me/webhooks")).json.data;
    expect(hooks.find((h) => h.id === created.json.data.id)!.disabled).toBe(true);
    expect(await armedAlarmOrNull()).toBeNull(); // no retry after 410
    expect((await api("DELETE", `/v2/webhooks/${created.json.data.id}`)).status).toBe(204);
  });

  it("sends job.finished once and counts credits once when the JobDO delivers its notice again", async () => {
    stubFetch();
    const created = await api<ApiWebhook>("POST", "/v2/webhooks", {
      body: { url: "https://hooks.example.org/once", events: ["job.finished"] },
    });
    const before = await creditsLeft();
    const job = await createJob({
      a: { operation: "import/raw", file: "x", filename: "x.txt" },
      z: { operation: "archive", input: "a", output_format: "zip" },
      t: { operation: "archive", input: "a", output_format: "tar" },
    });
    const done = await waitJob(job.id);
    expect(done.status).toBe("finished");
    // the tasks' own credits (contract §7: an import is free, an archive costs 1) are what the user pays
    expect(Object.fromEntries(done.tasks.map((t) => [t.name, t.credits]))).toEqual({ a: 0, z: 1, t: 1 });
    const cost = creditsOf(done);
    await armedAlarm();
    await runDurableObjectAlarm(account());
    expect(await creditsLeftOnceChanged(before)).toBe(before - cost);
    const { runInDurableObject } = await import("cloudflare:test");
    // The job's index shard (src/account/index-shards.ts) takes the same notice again.
    const shard = env.ACCOUNTS.getByName(`alice#${job.id.slice(-1)}`);
    await runInDurableObject<AccountDO, void>(shard, async (instance: AccountDO, state: DurableObjectState) => {
      const endedAt = Number(state.storage.sql.exec("SELECT ended_at FROM jobs WHERE id = ?", job.id).one().ended_at);
      await instance.jobEnded({
        user: "alice",
        jobId: job.id,
        status: "finished",
        endedAt,
        credits: cost,
        job: done,
        webhookUrl: null,
      });
    });
    await runDurableObjectAlarm(account());
    expect(calls.filter((c) => c.url.endsWith("/once")).length).toBe(1);
    expect(await creditsLeft()).toBe(before - cost);
    await api("DELETE", `/v2/webhooks/${created.json.data.id}`);
  });

  it("credits of jobs on several index shards add up in GET /v2/users/me, each counted by its own shard", async () => {
    const shardUsed = (s: string) => env.ACCOUNTS.getByName(`alice#${s}`).creditsUsed() as Promise<number>;
    const before = await creditsLeft();
    const shardBefore = await Promise.all(Array.from({ length: 16 }, (_, n) => shardUsed(n.toString(16))));
    const jobs: ApiJob[] = [];
    // job i costs i+1 credits (i+1 archives); jobs until three shards hold one (a job's shard is its id's last digit)
    for (let i = 0; new Set(jobs.map((j) => j.id.slice(-1))).size < 3; i++) {
      expect(i, "16 random job ids fell on fewer than 3 shards").toBeLessThan(16);
      const archives = Object.fromEntries(
        Array.from({ length: (i % 3) + 1 }, (_, k) => [
          `z${k}`,
          { operation: "archive", input: "a", output_format: "zip" },
        ]),
      );
      jobs.push(await createJob({ a: { operation: "import/raw", file: `x${i}`, filename: "x.txt" }, ...archives }));
    }
    const shards = [...new Set(jobs.map((j) => j.id.slice(-1) as string))];
    const ended = await Promise.all(jobs.map((j) => waitJob(j.id)));
    for (const [i, j] of ended.entries()) expect(creditsOf(j), `job ${i}`).toBe((i % 3) + 1);
    const total = ended.reduce((n, j) => n + creditsOf(j), 0);
    expect(await creditsLeftOnceChanged(before, before - total)).toBe(before - total);
    for (let n = 0; n < 16; n++) {
      const s = n.toString(16);
      const mine = ended.filter((j) => j.id.slice(-1) === s).reduce((c, j) => c + creditsOf(j), 0);
      expect((await shardUsed(s)) - shardBefore[n]!, `shard ${s}`).toBe(mine);
    }
    expect(shards.length).toBeGreaterThanOrEqual(3);
  });

  it("sends job.created before job.finished for a job that ends inside its create (one registration carries both)", async () => {
    stubFetch();
    const created = await api<ApiWebhook>("POST", "/v2/webhooks", {
      body: { url: "https://hooks.example.org/order", events: ["job.created", "job.finished"] },
    });
    const job = await createJob({
      a: { operation: "import/raw", file: "x", filename: "x.txt" },
      e: { operation: "export/url", input: "a" },
    });
    expect(job.status).toBe("finished"); // the export ran inline: the job ended before it was registered
    await armedAlarm();
    await runDurableObjectAlarm(account());
    const mine = calls.filter((c) => c.url.endsWith("/order")).map((c) => JSON.parse(c.body));
    expect(mine.map((b) => b.event)).toEqual(["job.created", "job.finished"]);
    expect(mine.map((b) => b.job.id)).toEqual([job.id, job.id]);
    expect(mine[0].job.status).not.toBe("finished"); // job.created shows the job as created
    // the job's shard indexed its end and counted it; the JobDO has no notice left
    const { runInDurableObject } = await import("cloudflare:test");
    const shard = env.ACCOUNTS.getByName(`alice#${job.id.slice(-1)}`);
    const row = await runInDurableObject(shard, (_o: unknown, st: DurableObjectState) =>
      st.storage.sql.exec("SELECT status, ended_at FROM jobs WHERE id = ?", job.id).one(),
    );
    expect(row.status).toBe("finished");
    expect(row.ended_at).not.toBeNull();
    // the end went with the registration: no notice row was ever written (the table is created by the first one)
    const noticeTable = await runInDurableObject(
      env.JOBS.getByName(job.id),
      (_o: unknown, st: DurableObjectState) =>
        st.storage.sql.exec("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'notice'").one().n,
    );
    expect(noticeTable).toBe(0);
    await api("DELETE", `/v2/webhooks/${created.json.data.id}`);
  });

  it("refuses webhooks to private addresses", async () => {
    const r = await api("POST", "/v2/webhooks", { body: { url: "http://10.0.0.1/hook", events: ["job.finished"] } });
    expect(r.status).toBe(422);
    expect(r.json.errors.url[0]).toContain("private");
  });
});
