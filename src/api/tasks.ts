/**
 * Tasks resource (contract §1.2): show (include=payload,depends_on_tasks,job,retries), list with
 * filters, wait (legacy and sync host), cancel, retry, delete, and standalone creation
 * POST /v2/{operation} (input by task id; 201).
 */
import { jobStub, accountStub } from "../env";
import { Hono, type Context } from "hono";
import type { TaskJson } from "../model/types";
import { handlersOf } from "../operations/registry";
import { requireUser } from "./auth";
import { baseUrlOf, includes, isUuid, maxWaitMs, q, type AppEnv } from "./context";
import { createStandaloneTask } from "./create";
import { ApiError, notFound } from "./errors";
import { readJsonObject, standaloneFileString } from "./json-depth";
import { listBody, pageOf } from "./pagination";

import { allIndexes, findTask, indexOf, mergedPage, taskIdFor } from "../account/index-shards";
export const tasks = new Hono<AppEnv>();
tasks.use("*", requireUser);

/** Where the caller's task lives, or 404 (unknown or another user's: tenant isolation through the AccountDO index). */
async function locate(c: Context<AppEnv>, id: string) {
  if (!isUuid(id)) throw notFound();
  const loc = await findTask(c.env, c.get("user").name, id);
  if (!loc) throw notFound();
  return { ...loc, stub: jobStub(c.env, loc.holder) };
}

/** Adds the `job`, `retries` and `depends_on_tasks` includes (contract §1.2); dependencies may live in other objects. */
async function withIncludes(c: Context<AppEnv>, t: TaskJson, inc: Set<string>, holder: string) {
  const out: Record<string, unknown> = { ...t };
  const stub = jobStub(c.env, holder);
  if (inc.has("job") && t.job_id) {
    const j = await stub.getJob(false);
    if (j) {
      const { _owner, ...json } = j;
      out.job = json;
    }
  }
  if (inc.has("retries")) out.retries = (await stub.listTasks()).filter((x) => x.retry_of_task_id === t.id);
  if (inc.has("depends_on_tasks")) {
    const deps = await Promise.all(
      t.depends_on_task_ids.map(async (id) => {
        const loc = await findTask(c.env, c.get("user").name, id);
        return loc ? jobStub(c.env, loc.holder).getTask(id) : null;
      }),
    );
    out.depends_on_tasks = deps.filter((d) => d !== null);
  }
  return out;
}

tasks.get("/v2/tasks", async (c) => {
  const p = pageOf(c.req.query());
  const status = q(c.req.query("filter[status]"));
  // Every index object answers its newest offset+limit rows and the page is cut from their merge; a
  // job's tasks are in its shard (and home, for jobs from before sharding).
  const jobId = q(c.req.query("filter[job_id]"));
  const user = c.get("user").name;
  const where = jobId ? [accountStub(c.env, user), indexOf(c.env, user, jobId)] : allIndexes(c.env, user);
  const rows = await mergedPage(
    where.map((s) =>
      s.listTasks({
        jobId,
        operation: q(c.req.query("filter[operation]")),
        offset: 0,
        limit: p.offset + p.perPage + 1,
      }),
    ),
    p.offset,
    p.perPage + 1,
  );
  const page = rows.slice(0, p.perPage);
  const holders = [...new Set(page.map((r) => r.holder))];
  const byHolder = new Map(
    await Promise.all(holders.map(async (h) => [h, await jobStub(c.env, h).listTasks()] as const)),
  );
  const data = page
    .map((r) => byHolder.get(r.holder)?.find((t) => t.id === r.id))
    .filter((t): t is TaskJson => !!t && (!status || t.status === status));
  return c.json(listBody(c.req.url, p, data, rows.length > p.perPage));
});

tasks.get("/v2/tasks/:id", async (c) => {
  const id = c.req.param("id");
  const inc = includes(c.req.query("include"));
  const { stub, holder } = await locate(c, id);
  const t = await stub.getTask(id);
  if (!t) throw notFound();
  return c.json({ data: await withIncludes(c, t, inc, holder) });
});

const wait = async (c: Context<AppEnv>) => {
  const id = c.req.param("id")!;
  const inc = includes(c.req.query("include"));
  const { stub, holder } = await locate(c, id);
  const t = await stub.waitTask(id, maxWaitMs(c.env));
  if (!t) throw notFound();
  return c.json({ data: await withIncludes(c, t, inc, holder) }, 200);
};
tasks.get("/v2/tasks/:id/wait", wait);
tasks.get("/sync/v2/tasks/:id", wait);

/** Maps a refused state change to the contract's 422 body (contract §1.2). */
function refusedOr(r: TaskJson | { refused: string } | null) {
  if (!r) throw notFound();
  if ("refused" in r) throw new ApiError(422, "The given data was invalid.", "INVALID_DATA", { status: [r.refused] });
  return r;
}

tasks.post("/v2/tasks/:id/cancel", async (c) => {
  const id = c.req.param("id");
  const { stub } = await locate(c, id);
  return c.json({ data: refusedOr(await stub.cancelTask(id)) }, 200);
});

tasks.post("/v2/tasks/:id/retry", async (c) => {
  const id = c.req.param("id");
  const { stub, holder } = await locate(c, id);
  return c.json({ data: refusedOr(await stub.retryTask(id, taskIdFor(holder))) }, 201);
});

tasks.delete("/v2/tasks/:id", async (c) => {
  const id = c.req.param("id");
  const { stub } = await locate(c, id);
  if (!(await stub.deleteTask(id))) throw notFound();
  return c.body(null, 204);
});

/** POST /v2/{operation}: a standalone task. Node may send no body and no Content-Type (contract §1.2). */
tasks.post("/v2/:operation{.+}", async (c) => {
  const operation = c.req.param("operation");
  if (!handlersOf(operation)) throw notFound(`Unknown operation ${operation}.`);
  const body = await readJsonObject(c, "body", standaloneFileString(operation));
  const task = await createStandaloneTask(c.env, c.get("user"), baseUrlOf(c.req.url), operation, body);
  return c.json({ data: task }, 201);
});
