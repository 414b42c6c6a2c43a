/**
 * Issue 2 in workerd: timeouts through the JobDO alarm; cancel, retry,
 * standalone tasks, uploads, signed downloads, pagination and the generated catalogue.
 */
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type ApiJob, type ApiOperation, type ApiTask, api, createJob, KEY_A, taskByName, waitJob } from "./helpers";
import { signFileUrl, uploadSignature } from "../../src/security/signing";

/** URL_SIGNING_SECRET of the worker test project (vitest.config.mts). */
const SECRET = "test-signing-secret";

const jobDo = (id: string) => env.JOBS.getByName(id);

describe("timers through the alarm", () => {
  it("ends a task over its timeout with TIMEOUT, and its dependents with INPUT_TASK_FAILED", async () => {
    const job = await createJob({
      up: { operation: "import/upload", timeout: 1 },
      out: { operation: "export/url", input: "up" },
    });
    const created = Date.now();
    // the JobDO armed its alarm for the task's deadline, at most the 1 s timeout away
    const at = await runInDurableObject(jobDo(job.id), (_o: unknown, st: DurableObjectState) => st.storage.getAlarm());
    expect(at).not.toBeNull();
    expect(at! - created).toBeLessThanOrEqual(1_000);
    // wait for the task's end itself: once the alarm is due it is run (workerd may also have run it), polled up to 15 s
    const ended = (d: ApiJob) => taskByName(d, "up").status === "error";
    let done = (await api("GET", `/v2/jobs/${job.id}`)).json.data;
    for (const deadline = Date.now() + 15_000; !ended(done) && Date.now() < deadline;) {
      if (Date.now() >= at!) await runDurableObjectAlarm(jobDo(job.id));
      await new Promise((r) => setTimeout(r, 50));
      done = (await api("GET", `/v2/jobs/${job.id}`)).json.data;
    }
    // not ended before its deadline (whole seconds, as the API shows them: truncation keeps a gap of ≥ 1 s at ≥ 1)
    const up = taskByName(done, "up");
    expect(Date.parse(up.ended_at!) - Date.parse(up.created_at)).toBeGreaterThanOrEqual(1_000);
    expect(done.status).toBe("error");
    expect(taskByName(done, "up")).toMatchObject({ status: "error", code: "TIMEOUT" });
    expect(taskByName(done, "out").code).toBe("INPUT_TASK_FAILED");
  });
  // Leases, RUNNER_LOST, back-off, the DLQ, cancel mid-run and retention: machinery.test.ts (product-armed alarms, injected clock).
});

describe("task actions", () => {
  it("cancels a waiting task (CANCELLED), fails its dependents, and refuses a second cancel", async () => {
    const job = await createJob({ up: { operation: "import/upload" }, out: { operation: "export/url", input: "up" } });
    const up = taskByName(job, "up");
    const r = await api("POST", `/v2/tasks/${up.id}/cancel`);
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ status: "error", code: "CANCELLED" });
    const again = await api("POST", `/v2/tasks/${up.id}/cancel`);
    expect(again.status).toBe(422);
    expect(again.json.errors.status[0]).toContain("already completed");
    const done = await waitJob(job.id);
    expect(done.status).toBe("error");
    expect(taskByName(done, "out").code).toBe("INPUT_TASK_FAILED");
  });

  it("retries a failed task as a new task with retry_of_task_id", async () => {
    const job = await createJob({ in: { operation: "import/url", url: "http://localhost/x.png" } });
    const done = await waitJob(job.id);
    const failed = taskByName(done, "in");
    const r = await api<ApiTask>("POST", `/v2/tasks/${failed.id}/retry`);
    expect(r.status).toBe(201);
    expect(r.json.data).toMatchObject({ retry_of_task_id: failed.id, copy_of_task_id: failed.id, name: "in" });
    const waited = (await api<ApiTask>("GET", `/sync/v2/tasks/${r.json.data.id}`)).json.data;
    expect(waited.code).toBe("IMPORT_FORBIDDEN");
    const withRetries = (await api<ApiTask>("GET", `/v2/tasks/${failed.id}?include=retries`)).json.data;
    expect(withRetries.retries.map((t) => t.id)).toEqual([r.json.data.id]);
  });

  it("a storage task that ends keeps no credentials, so it is not retried (issue 35)", async () => {
    const secret = `s3-secret-${crypto.randomUUID()}`;
    const job = await createJob({
      in: {
        operation: "import/s3",
        bucket: "b",
        region: "us-east-1",
        key: "k.png",
        access_key_id: "AKIDEXAMPLE",
        secret_access_key: secret,
        endpoint: "http://127.0.0.1:9/",
      },
    });
    const done = await waitJob(job.id);
    const failed = taskByName(done, "in");
    expect(failed.status).toBe("error");
    // the Durable Object's own rows, read in place: the secret is in no column of any task
    const rows = await runInDurableObject(jobDo(job.id), (_o: unknown, st: DurableObjectState) =>
      st.storage.sql.exec("SELECT * FROM task").toArray(),
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(JSON.parse(String(rows[0].params))).toMatchObject({ access_key_id: "AKIDEXAMPLE", bucket: "b" });
    const r = await api("POST", `/v2/tasks/${failed.id}/retry`);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(JSON.stringify(r.json)).toMatch(/credentials are not kept/);
  });

  it("runs standalone tasks with job_id null and input by task id", async () => {
    const raw = await api<ApiTask>("POST", "/v2/import/raw", {
      body: { file: "standalone", filename: "s.txt", name: null },
    });
    expect(raw.status).toBe(201);
    expect(raw.json.data).toMatchObject({ job_id: null, status: "finished", operation: "import/raw" });
    const exp = await api<ApiTask>("POST", "/v2/export/url", { body: { input: raw.json.data.id } });
    expect(exp.status).toBe(201);
    const done = (await api<ApiTask>("GET", `/v2/tasks/${exp.json.data.id}/wait?include=depends_on_tasks`)).json.data;
    expect(done.status).toBe("finished");
    expect(done.depends_on_task_ids).toEqual([raw.json.data.id]);
    expect(done.depends_on_tasks[0].id).toBe(raw.json.data.id);
    const res = await (await import("cloudflare:workers")).exports.default.fetch(done.result.files[0].url);
    expect(await res.text()).toBe("standalone");
    expect((await api("DELETE", `/v2/tasks/${raw.json.data.id}`)).status).toBe(204);
    expect((await api("GET", `/v2/tasks/${raw.json.data.id}`)).status).toBe(404);
  });

  it("runs a standalone task once its standalone input, still waiting for an upload, finishes", async () => {
    const up = (await api<ApiTask>("POST", "/v2/import/upload")).json.data;
    expect(up.status).toBe("waiting");
    const exp = (await api<ApiTask>("POST", "/v2/export/url", { body: { input: [up.id] } })).json.data;
    expect(exp.status).toBe("waiting");
    const fd = new FormData();
    for (const [k, v] of Object.entries(up.result.form.parameters)) fd.set(k, v as string);
    fd.set("file", new File(["late bytes"], "late.txt"));
    const { exports } = await import("cloudflare:workers");
    expect((await exports.default.fetch(up.result.form.url, { method: "POST", body: fd })).status).toBe(201);
    const done = (await api<ApiTask>("GET", `/sync/v2/tasks/${exp.id}`)).json.data;
    expect(done.status).toBe("finished");
    expect(done.result.files[0].filename).toBe("late.txt");
    expect(await (await exports.default.fetch(done.result.files[0].url)).text()).toBe("late bytes");
  });

  it("answers 404 for an unknown standalone operation", async () => {
    expect((await api("POST", "/v2/teleport", { body: {} })).status).toBe(404);
  });
});

describe("uploads and downloads", () => {
  it("refuses a forged upload signature and a second upload", async () => {
    const job = await createJob({ up: { operation: "import/upload" } });
    const form = taskByName(job, "up").result.form;
    expect(Object.values(form.parameters).every((v) => typeof v === "string")).toBe(true);
    const send = async (sig: string) => {
      const fd = new FormData();
      fd.set("expires", form.parameters.expires);
      fd.set("signature", sig);
      fd.set("file", new File(["abc"], "a.txt"));
      return (await import("cloudflare:workers")).exports.default.fetch(form.url, { method: "POST", body: fd });
    };
    expect((await send("0".repeat(64))).status).toBe(403);
    expect((await send(form.parameters.signature)).status).toBe(201);
    expect((await send(form.parameters.signature)).status).toBe(422);
    const done = await waitJob(job.id);
    expect(taskByName(done, "up").result.files).toEqual([{ filename: "a.txt", size: 3 }]);
  });

  it("refuses a correctly signed download link past its expiry, and a tampered one, each with its own reason", async () => {
    const job = await createJob({
      a: { operation: "import/raw", file: "x", filename: "x.txt" },
      e: { operation: "export/url", input: "a", inline: true },
    });
    const url = new URL(taskByName(await waitJob(job.id), "e").result.files[0].url);
    const fetchIt = async (u: URL) => (await import("cloudflare:workers")).exports.default.fetch(u.toString());
    const ok = await fetchIt(url);
    expect(ok.headers.get("content-disposition")).toMatch(/^inline; filename="x.txt"/);
    const key = decodeURIComponent(url.pathname.slice("/v2/files/".length));
    // Signed with the deployment's secret, valid signature, one second in the past: only the expiry check refuses it.
    const past = Math.floor(Date.now() / 1000) - 1;
    const expired = new URL(await signFileUrl("http://example.com", SECRET, { key, expires: past, inline: true }));
    const r1 = await fetchIt(expired);
    expect(r1.status).toBe(403);
    expect(((await r1.json()) as { message: string }).message).toMatch(/expired/);
    // A future expiry with the old signature: only the HMAC check refuses it.
    const tampered = new URL(url);
    tampered.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 60));
    const r2 = await fetchIt(tampered);
    expect(r2.status).toBe(403);
    expect(((await r2.json()) as { message: string }).message).toMatch(/signature/);
  });

  it("refuses a correctly signed upload form past its expiry", async () => {
    const job = await createJob({ up: { operation: "import/upload" } });
    const form = taskByName(job, "up").result.form;
    const expires = Math.floor(Date.now() / 1000) - 1;
    const [jobId, taskId] = new URL(form.url).pathname.split("/").slice(-2);
    const fd = new FormData();
    fd.set("expires", String(expires));
    fd.set("signature", await uploadSignature(SECRET, jobId, taskId, expires));
    fd.set("file", new File(["abc"], "a.txt"));
    const res = await (
      await import("cloudflare:workers")
    ).exports.default.fetch(form.url, { method: "POST", body: fd });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toMatch(/expired/);
  });
});

describe("sync host", () => {
  it("POST /sync/v2/jobs with redirect answers 302 to the exported file; GET /v2/jobs/{id}/wait answers 200 on error", async () => {
    const { exports } = await import("cloudflare:workers");
    const res = await exports.default.fetch("http://example.com/sync/v2/jobs", {
      method: "POST",
      redirect: "manual",
      headers: { authorization: `Bearer ${KEY_A}`, "content-type": "application/json" },
      body: JSON.stringify({
        redirect: true,
        tasks: {
          a: { operation: "import/raw", file: "redirected", filename: "r.txt" },
          e: { operation: "export/url", input: "a" },
        },
      }),
    });
    expect(res.status).toBe(302);
    const file = await exports.default.fetch(res.headers.get("location")!);
    expect(await file.text()).toBe("redirected");
    const failed = await createJob({ a: { operation: "import/url", url: "http://localhost/x" } });
    const waited = await api("GET", `/v2/jobs/${failed.id}/wait`);
    expect(waited.status).toBe(200);
    expect(waited.json.data.status).toBe("error");
  });
});

describe("lists and catalogue", () => {
  it("paginates jobs with links and meta", async () => {
    for (let i = 0; i < 3; i++)
      await createJob({ a: { operation: "import/raw", file: "x", filename: "x.txt" } }, KEY_A, { tag: "paged" });
    const p1 = (await api<ApiJob[]>("GET", "/v2/jobs?filter[tag]=paged&per_page=2&page=1&filter[status]=")).json;
    expect(p1.data.length).toBe(2);
    expect(p1.data[0].links.self).toContain("/v2/jobs/");
    expect(p1.links.next).toContain("page=2");
    expect(p1.meta).toMatchObject({ current_page: 1, per_page: 2, from: 1, to: 2 });
    const p2 = (await api<ApiJob[]>("GET", "/v2/jobs?filter[tag]=paged&per_page=2&page=2")).json;
    expect(p2.data.length).toBe(1);
    expect(p2.links.next).toBeNull();
  });

  it("lists tasks with job, operation and status filters", async () => {
    const job = await createJob(
      { a: { operation: "import/raw", file: "x", filename: "x.txt" }, up: { operation: "import/upload" } },
      KEY_A,
      { tag: "tasks-list" },
    );
    const all = (await api<ApiTask[]>("GET", `/v2/tasks?filter[job_id]=${job.id}`)).json;
    expect(all.data.map((t) => t.name).sort()).toEqual(["a", "up"]);
    const raw = (await api<ApiTask[]>("GET", `/v2/tasks?filter[job_id]=${job.id}&filter[operation]=import/raw`)).json
      .data;
    expect(raw.map((t) => t.name)).toEqual(["a"]);
    const waiting = (await api<ApiTask[]>("GET", `/v2/tasks?filter[job_id]=${job.id}&filter[status]=waiting`)).json
      .data;
    expect(waiting.map((t) => t.name)).toEqual(["up"]);
    expect((await api("GET", `/v2/tasks?filter[job_id]=${job.id}`, { key: "test-key-b" })).json.data).toEqual([]);
  });

  it("generates the catalogue from the registry, with options", async () => {
    const r = await api<ApiOperation[]>("GET", "/v2/operations?filter[operation]=import/url&include=options", {
      key: null,
    });
    expect(r.status).toBe(200);
    expect(r.json.data).toHaveLength(1);
    expect(r.json.data[0].options.map((o) => o.name).sort()).toEqual(["filename", "headers", "url"]);
    expect(r.json.data[0].options.find((o) => o.name === "headers")!.type).toBe("dictionary");
  });
});
