/**
 * Creating jobs and standalone tasks: validation (422 before anything runs), ingress operations
 * (import/raw, import/base64 stored before the job exists), upload forms, then the JobDO.
 * Shared by POST /v2/jobs, POST /sync/v2/jobs and POST /v2/{operation}.
 */
import { jobStub } from "../env";
import type { NewJob, NewTask } from "../model/rpc";
import { toFailure } from "../engines/errors";
import type { Env } from "../env";
import { parseTask, type TaskSpec } from "../graph/parse";
import { validateJobBody } from "./job-body";
import { uploadForm } from "../operations/io/upload-export";
import { handlersOf } from "../operations/registry";
import { TASK_CATALOG } from "../operations/validate";
import type { JobJson } from "../model/types";
import { R2FileStore } from "../storage/r2-store";
import { execute, storeOutputs } from "../runner/execute";
import { operationContext } from "../runner/context";
import { workerdEngines } from "../runtime/workerd/engines";
import { retentionSeconds, runtimeSettings, signingSecret, sizeSettings } from "../settings";
import type { User } from "../security/keys";
import { invalid } from "./errors";
import { admit } from "./admission";
import { findTask, taskIdFor } from "../account/index-shards";
import { PhaseClock } from "../engines/profile";

/** Validates and creates a job from a POST /v2/jobs body. Throws ApiError 422 on any invalid part. */
export async function createJob(
  env: Env,
  user: User,
  baseUrl: string,
  body: Record<string, unknown>,
): Promise<JobJson> {
  const { parsed, tag, webhookUrl } = validateJobBody(body, env.ALLOW_PRIVATE_IMPORTS === "true");
  const profile = env.WEB_PROFILE === "1" ? new PhaseClock() : null;
  await admit(env, user.name);
  profile?.mark("admit");
  const jobId = crypto.randomUUID();
  const tasks = await Promise.all(parsed.specs.map((s) => prepareTask(env, jobId, taskIdFor(jobId), s, baseUrl)));
  profile?.mark("ingress");
  const failed = tasks.filter((t): t is { error: string; name: string } => "error" in t);
  if (failed.length) throw invalid(Object.fromEntries(failed.map((f) => [`tasks.${f.name}`, [f.error]])));
  const job: NewJob = {
    jobId,
    userName: user.name,
    userNum: user.num,
    tag,
    webhookUrl,
    baseUrl,
    retentionS: retentionSeconds(env),
    standalone: false,
    tasks: tasks as NewTask[],
  };
  const created = await jobStub(env, jobId).create(job);
  profile?.mark("create");
  profile?.log("create-profile", { job: jobId, at: Date.now() });
  return created;
}

/** Validates and creates a standalone task (POST /v2/{operation}); `input` holds task ids (contract §1.2). */
export async function createStandaloneTask(
  env: Env,
  user: User,
  baseUrl: string,
  operation: string,
  body: Record<string, unknown>,
) {
  const errors: string[] = [];
  const spec = parseTask("task", { ...body, operation }, TASK_CATALOG, (m) => errors.push(m));
  if (!spec) throw invalid({ [fieldOf(errors[0])]: errors });
  // a standalone task's payload is what was posted, without `operation` (it is in the URL): CloudConvert's
  // (the PHP SDK's TaskTest::testCreateImportUrlTask asserts exactly {url, filename}); a job's tasks keep it (issue 31)
  const { operation: _op, ...payload } = spec.payload;
  spec.payload = payload;
  await admit(env, user.name);
  const externalInputs: { taskId: string; jobId: string }[] = [];
  for (const id of spec.input) {
    const loc = /^[0-9a-f-]{36}$/i.test(id) ? await findTask(env, user.name, id) : null;
    if (!loc) throw invalid({ input: ["Invalid input task."] });
    externalInputs.push({ taskId: id, jobId: loc.holder });
  }
  const holder = crypto.randomUUID();
  const taskId = taskIdFor(holder);
  const task = await prepareTask(env, holder, taskId, spec, baseUrl);
  if ("error" in task) throw invalid({ [spec.operation]: [task.error] });
  const job: NewJob = {
    jobId: holder,
    userName: user.name,
    userNum: user.num,
    tag: null,
    webhookUrl: null,
    baseUrl,
    retentionS: retentionSeconds(env),
    standalone: true,
    tasks: [task],
    externalInputs,
  };
  const stub = jobStub(env, holder);
  const created = await stub.create(job);
  return created.tasks?.find((t) => t.id === taskId) ?? (await stub.getTask(taskId))!;
}

function fieldOf(message: string | undefined): string {
  const m = /^(\w+)[: ]/.exec(message ?? "");
  return m ? m[1] : "task";
}

/**
 * Turns a validated spec into a NewTask, building upload forms and running ingress operations
 * (import/raw, import/base64) through the runner's execute, so their file is stored before the job
 * exists and no file bytes ever reach the Durable Object or the queue.
 */
async function prepareTask(
  env: Env,
  jobId: string,
  id: string,
  s: TaskSpec,
  baseUrl: string,
): Promise<NewTask | { error: string; name: string }> {
  const mode = handlersOf(s.operation)?.[0]?.mode ?? "queue";
  const base: NewTask = {
    id,
    name: s.name,
    operation: s.operation,
    mode,
    params: s.params,
    payload: s.payload,
    inputs: s.input,
    ignoreError: s.ignoreError,
    timeoutS: s.timeout,
  };
  if (mode === "upload") {
    const form = await uploadForm(baseUrl, signingSecret(env), jobId, id, Math.floor(Date.now() / 1000));
    return { ...base, preset: { status: "waiting", result: { form }, message: "Waiting for file upload" } };
  }
  if (mode === "ingress") {
    try {
      const store = new R2FileStore(env.FILES, sizeSettings(env).r2);
      const ctx = operationContext(
        { taskName: s.name, taskId: id, jobId },
        {
          signal: AbortSignal.timeout(30_000),
          files: store,
          engines: workerdEngines(env),
          settings: runtimeSettings(env, baseUrl, retentionSeconds(env)),
          refsOf: () => [],
        },
      );
      const { out, engine } = await execute(s.operation, s.params, [], ctx);
      const files = await storeOutputs(store, jobId, id, out.files);
      return { ...base, preset: { status: "finished", files, engine: engine.name, engineVersion: engine.version } };
    } catch (err) {
      return { error: `Task ${s.name}: ${toFailure(err).message}`, name: s.name };
    }
  }
  return base;
}
