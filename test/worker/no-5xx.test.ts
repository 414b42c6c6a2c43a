/**
 * No 5xx from input (issue 10): malformed percent-escapes in every path, absurd query values,
 * oversized and malformed bodies answer 4xx with the contract's body `{message, code}`.
 */
import { describe, expect, it } from "vitest";
import { type ApiAnswer, api, createJob, waitJob } from "./helpers";

const ID = "00000000-0000-4000-8000-000000000000";

describe("bad input never answers 5xx", () => {
  const paths = [
    "/v2/files/%",
    "/v2/files/%E0%A4%A",
    "/v2/files/jobs/%zz/x",
    "/v2/jobs/%",
    "/v2/jobs/%E0%A4%A",
    "/v2/tasks/%",
    "/v2/tasks/%zz/retry",
    "/v2/jobs/%/wait",
    "/sync/v2/jobs/%",
    "/v2/upload/%/%",
    "/v2/%",
    "/v2/convert%",
    "/%",
    "/v2/jobs?filter[status]=%",
    "/v2/jobs?page=-1",
    "/v2/jobs?page=1e9",
    "/v2/jobs?per_page=1e9",
    "/v2/jobs?per_page=0",
    "/v2/jobs?page=abc",
    "/v2/tasks?per_page=99999999999999999999",
    "/v2/tasks?filter[job_id]=%",
    "/v2/tasks?include=%",
    "/v2/jobs?include[]=x&include[]=y",
    `/v2/jobs/${ID}?include=%`,
    "/v2/operations?filter[input_format]=%",
    `/v2/jobs/${ID}/wait?timeout=-5`,
    `/v2/files/x?expires=1e999&signature=%`,
  ];
  for (const method of ["GET", "HEAD", "POST", "DELETE"]) {
    it(`${method} on malformed paths and queries`, async () => {
      const bad: string[] = [];
      for (const p of paths) {
        const r = await api(method, p, method === "POST" ? { body: {} } : {});
        if (r.status >= 500) bad.push(`${p} → ${r.status}`);
        else if (method !== "HEAD" && r.status >= 400) expect(typeof r.json?.message, `${p} body`).toBe("string");
      }
      expect(bad).toEqual([]);
    });
  }

  it("refuses bodies over 16 MB with 413, and malformed JSON with 4xx", async () => {
    const { exports } = await import("cloudflare:workers");
    const huge = `{"tasks": {}, "tag": "${"x".repeat(17 * 1024 * 1024)}"}`;
    const res = await exports.default.fetch("http://example.com/v2/jobs", {
      method: "POST",
      headers: { authorization: "Bearer test-key-a", "content-type": "application/json" },
      body: huge,
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as ApiAnswer<unknown>).code).toBe("FILE_TOO_LARGE");
    const broken = await api("POST", "/v2/jobs", { body: undefined });
    expect(broken.status).toBeLessThan(500);
    for (const body of [
      "{",
      "[]",
      "null",
      '{"tasks": 5}',
      '{"tasks": {"a": null}}',
      '{"tasks": {"a": {"operation": 7}}}',
    ]) {
      const { exports: ex } = await import("cloudflare:workers");
      const r = await ex.default.fetch("http://example.com/v2/jobs", {
        method: "POST",
        headers: { authorization: "Bearer test-key-a", "content-type": "application/json" },
        body,
      });
      expect(r.status, body).toBeGreaterThanOrEqual(400);
      expect(r.status, body).toBeLessThan(500);
    }
  });

  it("task actions on ids that are not UUIDs, or of ended and deleted tasks, answer 4xx", async () => {
    const job = await createJob({ a: { operation: "import/raw", file: "x", filename: "x.txt" } });
    const id = job.tasks[0].id;
    for (const [m, p] of [
      ["POST", `/v2/tasks/${id}/cancel`],
      ["POST", "/v2/tasks/not-a-uuid/retry"],
      ["DELETE", `/v2/tasks/${ID}`],
      ["POST", `/v2/tasks/${ID}/cancel`],
    ] as const) {
      const r = await api(m, p);
      expect(r.status, p).toBeGreaterThanOrEqual(400);
      expect(r.status, p).toBeLessThan(500);
    }
  });
});

describe("back-pressure", () => {
  it("answers 429 with Retry-After past MAX_OPEN_JOBS (20 in the tests) unfinished jobs, and admits again once one ends", async () => {
    const key = "test-key-c";
    const jobs = [];
    for (let i = 0; i < 20; i++) jobs.push(await createJob({ up: { operation: "import/upload" } }, key));
    const refused = await api("POST", "/v2/jobs", { key, body: { tasks: { up: { operation: "import/upload" } } } });
    expect(refused.status).toBe(429);
    expect(refused.res.headers.get("retry-after")).toBe("5");
    expect(refused.json).toMatchObject({ code: "TOO_MANY_REQUESTS" });
    expect(refused.json.message).toMatch(/20/);
    const standalone = await api("POST", "/v2/import/upload", { key, body: {} });
    expect(standalone.status).toBe(429);
    // Another user is not affected.
    expect(
      (await api("POST", "/v2/jobs", { key: "test-key-b", body: { tasks: { up: { operation: "import/upload" } } } }))
        .status,
    ).toBe(201);
    expect((await api("POST", `/v2/tasks/${jobs[0].tasks[0].id}/cancel`, { key })).status).toBe(200);
    await waitJob(jobs[0].id, key);
    expect(
      (await api("POST", "/v2/jobs", { key, body: { tasks: { up: { operation: "import/upload" } } } })).status,
    ).toBe(201);
  });
});
