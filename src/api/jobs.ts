/**
 * Jobs resource (contract §1.1): create, show, list, delete, and the blocking waits
 * (GET /v2/jobs/{id}/wait and the sync host form under /sync/v2/, `redirect=true` → 302).
 */
import { jobStub } from "../env";
import { allIndexes, mergedPage } from "../account/index-shards";
import { Hono, type Context } from "hono";
import type { JobJson } from "../model/types";
import { requireUser } from "./auth";
import { baseUrlOf, includes, isUuid, maxWaitMs, q, type AppEnv } from "./context";
import { createJob } from "./create";
import { notFound } from "./errors";
import { readJsonObject } from "./json-depth";
import { listBody, pageOf } from "./pagination";

export const jobs = new Hono<AppEnv>();
jobs.use("*", requireUser);

/**
 * The JSON object body, at most 16 MB and within the bounds of api/json-depth.ts.
 * @throws ApiError 413 FILE_TOO_LARGE | 422 not an object, or a value past a bound (naming the task and field);
 *   SyntaxError → 400
 */
const readJson = (c: Context<AppEnv>): Promise<Record<string, unknown>> => readJsonObject(c, "tasks");

/** The caller's job, or 404 when unknown or another user's. */
async function ownJob(c: Context<AppEnv>, id: string, includeTasks: boolean) {
  if (!isUuid(id)) throw notFound();
  const job = await jobStub(c.env, id).getJob(includeTasks);
  if (!job || job._owner !== c.get("user").name) throw notFound();
  const { _owner, ...json } = job;
  return json as JobJson;
}

/** 302 to the first exported file when `redirect` is asked (contract §1.1). */
function maybeRedirect(c: Context<AppEnv>, job: JobJson, redirect: unknown) {
  if (redirect !== true && redirect !== "true" && redirect !== "1") return null;
  const exp = job.tasks?.find((t) => t.operation === "export/url" && t.status === "finished");
  const url = (exp?.result?.files as { url: string }[] | undefined)?.[0]?.url;
  return url ? c.redirect(url, 302) : null;
}

jobs.post("/v2/jobs", async (c) =>
  c.json({ data: await createJob(c.env, c.get("user"), baseUrlOf(c.req.url), await readJson(c)) }, 201),
);

jobs.post("/sync/v2/jobs", async (c) => {
  const body = await readJson(c);
  const created = await createJob(c.env, c.get("user"), baseUrlOf(c.req.url), body);
  const job = await jobStub(c.env, created.id).waitJob(maxWaitMs(c.env));
  if (!job) throw notFound();
  const { _owner, ...json } = job;
  return maybeRedirect(c, json, body.redirect) ?? c.json({ data: json }, 200);
});

jobs.get("/v2/jobs", async (c) => {
  const p = pageOf(c.req.query());
  const status = q(c.req.query("filter[status]"));
  const tag = q(c.req.query("filter[tag]"));
  const rows = await mergedPage(
    allIndexes(c.env, c.get("user").name).map((s) =>
      s.listJobs({ status, tag, offset: 0, limit: p.offset + p.perPage + 1 }),
    ),
    p.offset,
    p.perPage + 1,
  );
  const ids = rows.map((r) => r.id);
  const withTasks = includes(c.req.query("include")).has("tasks");
  const found = await Promise.all(ids.slice(0, p.perPage).map((id) => jobStub(c.env, id).getJob(withTasks)));
  const data = found
    .filter((j) => j && (!status || j.status === status))
    .map((j) => {
      const { _owner, ...json } = j!;
      return json;
    });
  return c.json(listBody(c.req.url, p, data, ids.length > p.perPage));
});

jobs.get("/v2/jobs/:id", async (c) => {
  const job = await ownJob(c, c.req.param("id"), true);
  return maybeRedirect(c, job, c.req.query("redirect")) ?? c.json({ data: job });
});

const wait = async (c: Context<AppEnv>) => {
  const id = c.req.param("id")!;
  if (!isUuid(id)) throw notFound();
  const job = await jobStub(c.env, id).waitJob(maxWaitMs(c.env), c.get("user").name);
  if (!job) throw notFound();
  const { _owner, ...json } = job;
  return maybeRedirect(c, json, c.req.query("redirect")) ?? c.json({ data: json }, 200);
};
jobs.get("/v2/jobs/:id/wait", wait);
jobs.get("/sync/v2/jobs/:id", wait);

/** The job's events as Server-Sent Events (issue 18): the current state first, then every change; ends with the job. */
jobs.get("/v2/jobs/:id/events", async (c) => {
  const id = c.req.param("id");
  await ownJob(c, id, false);
  return jobStub(c.env, id).fetch(new Request("https://job/events"));
});

jobs.delete("/v2/jobs/:id", async (c) => {
  const id = c.req.param("id");
  await ownJob(c, id, false);
  await jobStub(c.env, id).deleteJob();
  return c.body(null, 204);
});
