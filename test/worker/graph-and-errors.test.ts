/**
 * Issue 2 in workerd: graph validation (422 naming the task), failure propagation, ignore_error,
 * authentication and tenant isolation, bad inputs — each a clear 4xx or a task error with a code.
 */
import { describe, expect, it } from "vitest";
import { type ApiAnswer, api, createJob, KEY_B, taskByName, waitJob } from "./helpers";

describe("authentication", () => {
  it("answers 401 with CloudConvert's body without or with a wrong key", async () => {
    for (const key of [null, "nope"]) {
      const r = await api("GET", "/v2/jobs", { key });
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ message: "Unauthenticated." });
    }
  });
});

describe("job validation (422 before anything runs)", () => {
  const cases: [string, unknown, string][] = [
    ["missing tasks", undefined, "The tasks field is required."],
    [
      "bad task name",
      { "bad name!": { operation: "import/raw", file: "x", filename: "a" } },
      "Task bad name!: the name may only contain",
    ],
    ["unknown operation", { a: { operation: "teleport" } }, 'Task a: operation "teleport" is not supported'],
    [
      "input naming no task",
      { b: { operation: "export/url", input: "ghost" } },
      'Task b: input task "ghost" does not exist',
    ],
    ["missing input", { b: { operation: "export/url" } }, "Task b: input is required."],
    // an unknown parameter is accepted and ignored with a warning since issue 31 (test/unit/lenient-options.test.ts)
    ["bad parameter type", { a: { operation: "import/url", url: 42 } }, "Task a: url:"],
    [
      "non-http scheme",
      { a: { operation: "import/url", url: "file:///etc/passwd" } },
      "Task a: url: url scheme file: is not allowed",
    ],
    [
      "metadata address",
      { a: { operation: "import/url", url: "http://169.254.169.254/latest/meta-data/" } },
      "Task a: url: url points to a linkLocal address",
    ],
    [
      "IPv6-mapped private address",
      { a: { operation: "import/url", url: "http://[::ffff:10.0.0.1]/x" } },
      "Task a: url: url points to a private address",
    ],
    [
      "decimal IPv4 spelling of a private address",
      { a: { operation: "import/url", url: "http://167772161/x" } },
      "private address",
    ],
    [
      "bad timeout",
      { a: { operation: "import/raw", file: "x", filename: "a", timeout: -1 } },
      "Task a: timeout must be",
    ],
  ];
  for (const [what, tasks, message] of cases) {
    it(`refuses ${what}`, async () => {
      const r = await api("POST", "/v2/jobs", { body: tasks === undefined ? {} : { tasks } });
      expect(r.status).toBe(422);
      expect(r.json.code).toBe("INVALID_DATA");
      expect(Object.values(r.json.errors).flat().join("\n")).toContain(message);
    });
  }

  it("refuses a cycle", async () => {
    const r = await api("POST", "/v2/jobs", {
      body: { tasks: { a: { operation: "export/url", input: "b" }, b: { operation: "export/url", input: "a" } } },
    });
    expect(r.status).toBe(422);
    expect(r.json.errors.tasks[0]).toMatch(/cycle: (a → b → a|b → a → b)/);
  });

  it("refuses malformed JSON with 400 and a body", async () => {
    const { exports } = await import("cloudflare:workers");
    const res = await exports.default.fetch("http://example.com/v2/jobs", {
      method: "POST",
      headers: { authorization: "Bearer test-key-a", "content-type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ApiAnswer<unknown>).message).toContain("not valid JSON");
  });
});

describe("bodies nested without bound (issue 45: a parameter 50,000 deep answered 500)", () => {
  const post = async (path: string, body: string) => {
    const { exports } = await import("cloudflare:workers");
    const res = await exports.default.fetch(`http://example.com${path}`, {
      method: "POST",
      headers: { authorization: "Bearer test-key-a", "content-type": "application/json" },
      body,
    });
    return { status: res.status, json: (await res.json()) as ApiAnswer<unknown> };
  };
  const deep = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);

  it("a task parameter, a job's tag and a standalone task's body nested 50,000 deep are 422 naming the field", async () => {
    const job = await post(
      "/v2/jobs",
      `{"tasks":{"t":{"operation":"import/url","url":"https://example.com/a.png","some_option":${deep(50_000)}}}}`,
    );
    expect(job.status).toBe(422);
    expect(job.json.code).toBe("INVALID_DATA");
    expect(Object.keys(job.json.errors)[0]).toMatch(/^tasks\.t\.some_option/);
    const tag = await post(
      "/v2/jobs",
      `{"tasks":{"t":{"operation":"import/url","url":"https://example.com/a"}},"tag":${deep(50_000)}}`,
    );
    expect(tag.status).toBe(422);
    expect(Object.keys(tag.json.errors)[0]).toMatch(/^tag/);
    const task = await post("/v2/import/url", `{"url":"https://example.com/a.png","headers":${deep(50_000)}}`);
    expect(task.status).toBe(422);
    expect(task.json.code).toBe("INVALID_DATA");
  });

  it("an honest payload 20 levels deep is still accepted", async () => {
    const r = await post(
      "/v2/jobs",
      `{"tasks":{"t":{"operation":"import/url","url":"https://example.com/a.png","some_option":${deep(20)}}}}`,
    );
    expect(r.status).toBe(201);
  });

  it("wide, long, huge and prototype-keyed values are 422 naming the task and field (api/json-depth.ts bounds)", async () => {
    const url = `"operation":"import/url","url":"https://example.com/a.png"`;
    const cases: [string, string, string][] = [
      ["1,001 keys", `{${Array.from({ length: 1001 }, (_, i) => `"k${i}":1`).join(",")}}`, "tasks.t.opt"],
      ["a 10,001-element list", `[${"0,".repeat(10_000)}0]`, "tasks.t.opt"],
      ["a 257-character key", `{"${"k".repeat(257)}":1}`, "tasks.t.opt"],
      ["1e400", "1e400", "tasks.t.opt"],
      ["__proto__", `{"__proto__":{"polluted":true}}`, "tasks.t.opt.__proto__"],
      ["constructor", `{"constructor":{"prototype":{"polluted":true}}}`, "tasks.t.opt.constructor"],
    ];
    for (const [name, value, field] of cases) {
      const r = await post("/v2/jobs", `{"tasks":{"t":{${url},"opt":${value}}}}`);
      expect(r.status, name).toBe(422);
      expect(r.json.code, name).toBe("INVALID_DATA");
      expect(Object.keys(r.json.errors), name).toEqual([field]);
      expect(r.json.errors[field][0], name).toMatch(/^Task t: /);
    }
    const task = await post("/v2/import/url", `{"url":"https://example.com/a.png","timeout":1e400}`);
    expect(task.status).toBe(422);
    expect(task.json.errors).toHaveProperty("timeout");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("failure propagation", () => {
  it("fails dependents with INPUT_TASK_FAILED and the job with error", async () => {
    const job = await createJob({
      in: { operation: "import/url", url: "http://127.0.0.1:9/nothing.png" },
      out: { operation: "export/url", input: "in" },
    });
    const done = await waitJob(job.id);
    expect(done.status).toBe("error");
    expect(taskByName(done, "in")).toMatchObject({ status: "error", code: "IMPORT_FORBIDDEN" });
    expect(taskByName(done, "out")).toMatchObject({
      status: "error",
      code: "INPUT_TASK_FAILED",
      message: "Input task has failed",
      percent: 100,
    });
  });

  it("ignore_error keeps the job finished when an independent task fails", async () => {
    const job = await createJob({
      bad: { operation: "import/url", url: "http://localhost/x", ignore_error: true },
      good: { operation: "import/raw", file: "ok", filename: "ok.txt" },
      out: { operation: "export/url", input: "good" },
    });
    const done = await waitJob(job.id);
    expect(taskByName(done, "bad").status).toBe("error");
    expect(taskByName(done, "out").status).toBe("finished");
    expect(done.status).toBe("finished");
  });

  it("refuses a redirect into a private address as a task error", async () => {
    const real = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      // Like the real fetch: only `redirect: "manual"` shows the 302; any other mode follows it to the private address.
      if (String(input).startsWith("https://files.example.org/")) {
        if (init?.redirect === "manual")
          return new Response(null, { status: 302, headers: { location: "http://169.254.169.254/latest/meta-data/" } });
        return new Response("iam-credentials", { status: 200, headers: { "content-type": "text/plain" } });
      }
      return real(input, init);
    }) as typeof fetch;
    try {
      const job = await createJob({ in: { operation: "import/url", url: "https://files.example.org/a.png" } });
      const done = await waitJob(job.id);
      expect(taskByName(done, "in").code).toBe("IMPORT_FORBIDDEN");
      expect(taskByName(done, "in").message).toContain("Redirect refused");
    } finally {
      globalThis.fetch = real;
    }
  });
});

describe("tenant isolation", () => {
  it("answers 404 for another user's job and task, and lists only one's own", async () => {
    const job = await createJob({ a: { operation: "import/raw", file: "secret", filename: "s.txt" } }, undefined, {
      tag: "isolation",
    });
    const taskId = job.tasks[0].id;
    for (const [m, p] of [
      ["GET", `/v2/jobs/${job.id}`],
      ["DELETE", `/v2/jobs/${job.id}`],
      ["GET", `/v2/tasks/${taskId}`],
      ["POST", `/v2/tasks/${taskId}/cancel`],
      ["DELETE", `/v2/tasks/${taskId}`],
      ["GET", `/sync/v2/jobs/${job.id}`],
    ]) {
      const r = await api(m, p, { key: KEY_B });
      expect(r.status, `${m} ${p}`).toBe(404);
      expect(r.json.code).toBe("NOT_FOUND");
    }
    const list = await api("GET", "/v2/jobs?filter[tag]=isolation", { key: KEY_B });
    expect(list.json.data).toEqual([]);
    const ext = await api("POST", "/v2/export/url", { key: KEY_B, body: { input: taskId } });
    expect(ext.status).toBe(422);
    expect(ext.json.errors.input).toEqual(["Invalid input task."]);
    expect((await api("GET", `/v2/jobs/${job.id}`)).status).toBe(200);
  });

  it("answers 404 for unknown and malformed ids", async () => {
    expect((await api("GET", "/v2/jobs/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await api("GET", "/v2/jobs/../../etc")).status).toBe(404);
    expect((await api("GET", "/v2/tasks/not-a-uuid")).status).toBe(404);
  });
});
