/**
 * Issue 18: the SDK's live events over socket.io (every subscription method), late subscribers,
 * another user's channel refused, the same events as Server-Sent Events, signed URLs made by the
 * SDK's `signedUrls.sign` (with and without cache_key, tampered), and the upload form's `redirect`
 * — all through the official SDK against `wrangler dev`.
 */
import { io } from "socket.io-client";
import { beforeAll, describe, expect, it } from "vitest";
import { type JobBody, sdk } from "../support/sdk";
import { sharedServer, type SharedServer } from "../support/servers";
import { sleep, until } from "../support/wait";

let server: SharedServer;
beforeAll(async () => {
  server = sharedServer("guarded");
});

const rawJob: JobBody = {
  tasks: {
    in: { operation: "import/raw", file: "hello", filename: "a.txt" },
    out: { operation: "export/url", input: "in" },
  },
};
const slowJob: JobBody = {
  tasks: {
    in: {
      operation: "import/raw",
      file: "<svg xmlns='http://www.w3.org/2000/svg' width='40' height='40'><rect width='40' height='40' fill='red'/></svg>",
      filename: "a.svg",
    },
    png: { operation: "convert", input: "in", output_format: "png" },
    out: { operation: "export/url", input: "png" },
  },
};
/** Resolves with the first callback value, or rejects after `ms`. */
function first<T>(subscribe: (cb: (v: T) => void) => void, ms = 20_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error("no event within " + ms + " ms")), ms);
    subscribe((v) => (clearTimeout(t), resolve(v)));
  });
}

describe("live events through the SDK", () => {
  it("jobs.subscribeEvent: finished arrives for a running job and, at once, for one that already ended", async () => {
    const cc = sdk("key-a", server.base);
    try {
      const job = await cc.jobs.create(slowJob);
      const finished = await first<{ job: { id: string; status: string; tasks: unknown[] } }>((cb) =>
        cc.jobs.subscribeEvent(job.id, "finished", cb as never),
      );
      expect(finished.job.id).toBe(job.id);
      expect(finished.job.status).toBe("finished");
      expect(finished.job.tasks).toHaveLength(3);
      // a job that ended before anyone subscribed: its final event is sent on subscription
      const quick = await cc.jobs.create(rawJob);
      await cc.jobs.wait(quick.id);
      const late = await first<{ job: { id: string; status: string } }>(
        (cb) => cc.jobs.subscribeEvent(quick.id, "finished", cb as never),
        5_000,
      );
      expect(late.job).toMatchObject({ id: quick.id, status: "finished" });
    } finally {
      cc.closeSocket();
    }
  });

  it("jobs.subscribeTaskEvent and tasks.subscribeEvent: each task's finished event, with its result", async () => {
    const cc = sdk("key-a", server.base);
    try {
      const job = await cc.jobs.create(slowJob);
      const seen = new Map<string, { status: string; result?: { files?: { filename: string }[] } }>();
      const all = new Promise<void>((resolve) =>
        cc.jobs.subscribeTaskEvent(job.id, "finished", ((e: { task: { name: string; status: string } }) => {
          seen.set(e.task.name, e.task);
          if (seen.size === 3) resolve();
        }) as never),
      );
      const png = job.tasks.find((t) => t.name === "png")!;
      const one = await first<{ task: { id: string; status: string; result: { files: { filename: string }[] } } }>(
        (cb) => cc.tasks.subscribeEvent(png.id, "finished", cb as never),
      );
      expect(one.task).toMatchObject({ id: png.id, status: "finished" });
      expect(one.task.result.files[0].filename).toBe("a.png");
      await Promise.race([
        all,
        sleep(20_000).then(() => {
          throw new Error(`only ${[...seen.keys()]}`);
        }),
      ]);
      expect([...seen.keys()].sort()).toEqual(["in", "out", "png"]);
      expect([...seen.values()].every((t) => t.status === "finished")).toBe(true);
    } finally {
      cc.closeSocket();
    }
  });

  it("users.subscribeJobEvent and users.subscribeTaskEvent: created and finished events of the user's new jobs", async () => {
    const cc = sdk("key-a", server.base);
    try {
      const me = await cc.users.me();
      const created: string[] = [];
      const jobsFinished: string[] = [];
      const tasksFinished: string[] = [];
      cc.users.subscribeJobEvent(me.id, "created", ((e: { job: { id: string } }) => created.push(e.job.id)) as never);
      cc.users.subscribeJobEvent(me.id, "finished", ((e: { job: { id: string } }) =>
        jobsFinished.push(e.job.id)) as never);
      cc.users.subscribeTaskEvent(me.id, "finished", ((e: { task: { job_id: string; name: string } }) =>
        tasksFinished.push(`${e.task.job_id}/${e.task.name}`)) as never);
      // The subscriptions travel to a hub and the account with no acknowledgement: probe jobs until one's job.created and
      // its tasks' task.finished arrive, which shows both channels registered, before the job under test is created.
      const probes: string[] = [];
      const probed = () => probes.some((id) => created.includes(id) && tasksFinished.includes(`${id}/out`));
      await until(async () => {
        probes.push((await cc.jobs.create(rawJob)).id);
        const tick = Date.now() + 1_000;
        await until(() => probed() || Date.now() > tick);
        return probed();
      }, "the user's channels never delivered a probe job's events");
      // the job ends inside its create: its events may come before create answers, so they are collected, then awaited
      const job = await cc.jobs.create(rawJob);
      await until(() => jobsFinished.includes(job.id), "no job.finished");
      expect(created).toContain(job.id);
      await until(
        () => [`${job.id}/in`, `${job.id}/out`].every((k) => tasksFinished.includes(k)),
        `tasks finished: ${tasksFinished}`,
      );
      expect(created.indexOf(job.id)).toBe(created.lastIndexOf(job.id)); // once each
      expect(jobsFinished.indexOf(job.id)).toBe(jobsFinished.lastIndexOf(job.id));
    } finally {
      cc.closeSocket();
    }
  });

  it("refuses another user's channel and a bad key, and sends nothing of that job", async () => {
    const alice = sdk("key-a", server.base);
    const job = await alice.jobs.create(rawJob);
    await alice.jobs.wait(job.id);
    const socket = io(server.base, { transports: ["websocket"] });
    try {
      const errors: string[] = [];
      const events: unknown[] = [];
      socket.on("subscription_error", (channel: string) => errors.push(channel));
      socket.on("job.finished", (...args: unknown[]) => events.push(args));
      socket.emit("subscribe", {
        channel: `private-job.${job.id}`,
        auth: { headers: { Authorization: "Bearer key-b" } },
      });
      socket.emit("subscribe", {
        channel: `private-job.${job.id}.tasks`,
        auth: { headers: { Authorization: "Bearer wrong" } },
      });
      socket.emit("subscribe", {
        channel: `private-user.1.jobs`,
        auth: { headers: { Authorization: "Bearer key-b" } },
      });
      await until(
        () => errors.length >= 3,
        `subscription errors: ${errors} events: ${JSON.stringify(events).slice(0, 300)}`,
      );
      expect(errors.sort()).toEqual(
        [`private-job.${job.id}`, `private-job.${job.id}.tasks`, "private-user.1.jobs"].sort(),
      );
      // the owner's subscription on the same socket gets the ended job's job.finished at once: what the refused ones
      // would have been sent had they been accepted, and it comes after them, so they sent nothing
      socket.emit("subscribe", {
        channel: `private-job.${job.id}`,
        auth: { headers: { Authorization: "Bearer key-a" } },
      });
      await until(() => events.length > 0, "the owner's subscription delivered no job.finished");
      expect(events).toHaveLength(1);
      expect((events[0] as [string, { job: { id: string } }])[1].job.id).toBe(job.id);
    } finally {
      socket.close();
    }
  });
});

describe("Server-Sent Events", () => {
  it("GET /v2/jobs/{id}/events streams the job's events and ends with job.finished", async () => {
    const cc = sdk("key-a", server.base);
    const job = await cc.jobs.create(slowJob);
    const res = await fetch(`${server.base}/v2/jobs/${job.id}/events`, { headers: { authorization: "Bearer key-a" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const text = await res.text(); // the stream ends with the job
    const events = [...text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
    expect(events[events.length - 1]).toBe("job.finished");
    const last = JSON.parse(text.trim().split("\n").pop()!.slice("data: ".length));
    expect(last.job).toMatchObject({ id: job.id, status: "finished" });
    expect(
      (await fetch(`${server.base}/v2/jobs/${job.id}/events`, { headers: { authorization: "Bearer key-b" } })).status,
    ).toBe(404);
  });
});

describe("import/upload redirect", () => {
  it("answers 303 to the task's redirect after a successful upload; a non-http redirect is a 422", async () => {
    const cc = sdk("key-a", server.base);
    const task = await cc.tasks.create("import/upload", { redirect: "https://example.com/uploaded?x=1" });
    const form = task.result!.form as { url: string; parameters: Record<string, string> };
    const body = new FormData();
    for (const [k, v] of Object.entries(form.parameters)) body.append(k, v);
    body.append("file", new Blob(["hello"]), "hello.txt");
    const res = await fetch(form.url, { method: "POST", body, redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("https://example.com/uploaded?x=1");
    const done = await cc.tasks.wait(task.id);
    expect(done.status).toBe("finished");
    const bad = await fetch(`${server.base}/v2/import/upload`, {
      method: "POST",
      headers: { authorization: "Bearer key-a", "content-type": "application/json" },
      body: JSON.stringify({ redirect: "javascript:alert(1)" }),
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bad.json())).toMatch(/redirect must be an http\(s\) URL/);
  });
});

describe("signed URLs", () => {
  const job = (text: string): JobBody => ({
    tasks: {
      in: { operation: "import/raw", file: text, filename: "note.txt" },
      out: { operation: "export/url", input: "in" },
    },
  });
  const api = (path: string, init: RequestInit = {}, key = "key-a") =>
    fetch(`${server.base}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...(init.headers ?? {}) },
    });

  it("a base is created, listed and deleted; the SDK's signed URL runs the job and redirects to its file", async () => {
    const created = await api("/v2/signed-url-bases", { method: "POST" });
    expect(created.status).toBe(201);
    const base = (await created.json()).data as { id: string; url: string; signing_secret: string };
    expect(base.url).toBe(`${server.base}/s/${base.id}`);
    const listed = (await (await api("/v2/users/me/signed-url-bases")).json()).data as { id: string }[];
    expect(listed.map((b) => b.id)).toContain(base.id);
    expect(
      (await (await api("/v2/users/me/signed-url-bases", {}, "key-b")).json()).data.map((b: { id: string }) => b.id),
    ).not.toContain(base.id);

    const cc = sdk("key-a", server.base);
    const before = (await cc.jobs.all()).length;
    const url = cc.signedUrls.sign(base.url, base.signing_secret, job("signed hello"), undefined as never);
    const res = await fetch(url, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(await (await fetch(res.headers.get("location")!)).text()).toBe("signed hello");
    // without cache_key, every hit is a new job
    const again = await fetch(url, { redirect: "manual" });
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).not.toBe(res.headers.get("location"));
    expect((await cc.jobs.all()).length).toBe(before + 2);

    expect((await api(`/v2/signed-url-bases/${base.id}`, { method: "DELETE" }, "key-b")).status).toBe(404);
    expect((await api(`/v2/signed-url-bases/${base.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await fetch(url, { redirect: "manual" })).status).toBe(404);
  });

  it("cache_key reuses the job's result; a tampered or unknown URL is a 4xx and runs no job", async () => {
    const base = (await (await api("/v2/signed-url-bases", { method: "POST" })).json()).data as {
      id: string;
      url: string;
      signing_secret: string;
    };
    const cc = sdk("key-a", server.base);
    const keyed = cc.signedUrls.sign(base.url, base.signing_secret, job("cached"), "report-2026");
    const first = await fetch(keyed, { redirect: "manual" });
    expect(first.status).toBe(302);
    const count = (await cc.jobs.all()).length;
    const second = await fetch(keyed, { redirect: "manual" });
    expect(second.status).toBe(302);
    expect(second.headers.get("location")!.split("?")[0]).toBe(first.headers.get("location")!.split("?")[0]);
    expect((await cc.jobs.all()).length).toBe(count);

    const other = cc.signedUrls.sign(base.url, base.signing_secret, job("other"), undefined as never);
    const tampered = other.replace(/job=([A-Za-z0-9])/, (_m, ch: string) => `job=${ch === "e" ? "f" : "e"}`);
    const refused = await fetch(tampered, { redirect: "manual" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "INVALID_SIGNATURE" });
    const wrongSecret = cc.signedUrls.sign(base.url, "not-the-secret", job("other"), undefined as never);
    expect((await fetch(wrongSecret, { redirect: "manual" })).status).toBe(403);
    const unknownBase = cc.signedUrls.sign(
      `${server.base}/s/00000000-0000-4000-8000-000000000000`,
      base.signing_secret,
      job("x"),
      undefined as never,
    );
    expect((await fetch(unknownBase, { redirect: "manual" })).status).toBe(404);
    const noExport = cc.signedUrls.sign(
      base.url,
      base.signing_secret,
      { tasks: { in: { operation: "import/raw", file: "x", filename: "x.txt" } } },
      undefined as never,
    );
    expect((await fetch(noExport, { redirect: "manual" })).status).toBe(422);
    expect((await cc.jobs.all()).length).toBe(count);
  });
});
