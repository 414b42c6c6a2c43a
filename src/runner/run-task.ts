/**
 * The task runner: the queue consumer's work for one message (DESIGN.md flow). It claims the task
 * from its JobDO (renewing its lease while it runs), reads inputs from R2 by key, runs the operation with a deadline and engine
 * fallback (execute.ts), writes outputs to R2 and reports back by RPC. Every failure is reported
 * as data ({code, message, retryable}).
 */
import { jobStub } from "../env";
import { TaskError, toFailure } from "../engines/errors";
import type { Env, TaskMessage } from "../env";
import { R2FileStore } from "../storage/r2-store";
import { workerdEngines } from "../runtime/workerd/engines";
import { execute, storeOutputs } from "./execute";
import { runtimeSettings, sizeSettings } from "../settings";
import { inputFile, operationContext } from "./context";
import { parseEngineOrder } from "../engines/routing";
import { HEARTBEAT_MS, type TaskHost } from "./host";
import { PhaseClock } from "../engines/profile";

/**
 * Runs one queued task to its report. `messageId` (the queue message's id) lets a redelivery of the
 * same message claim the task again. Throws only when the JobDO cannot be reached (the queue retries).
 */
export async function runTask(env: Env, msg: TaskMessage, messageId?: string, host?: TaskHost): Promise<void> {
  const stub = host ?? jobStub(env, msg.jobId);
  const profile = env.WEB_PROFILE === "1" ? new PhaseClock() : null;
  const claim = await stub.claimTask(msg.taskId, messageId);
  profile?.mark("claim");
  if (!claim) return;
  const files = new R2FileStore(env.FILES, sizeSettings(env).r2);
  const controller = new AbortController();
  const tried: { engine?: { name: string; version: string } } = {};
  const timer = setTimeout(
    () => controller.abort(new TaskError("TIMEOUT", "The task exceeded its timeout.")),
    Math.max(0, claim.deadline - Date.now()),
  );
  // The lease follows the work (issue 10): renewed while the task runs; a refusal means the task was
  // cancelled, timed out or given to another attempt, so this run stops. A failed call is not a
  // refusal (the object may be busy): the next beat tries again, and the lease outlives two misses.
  let percent: number | undefined; // the operation's progress, sent with the next heartbeat
  const heartbeat = setInterval(() => {
    stub.renewLease(claim.taskId, claim.attempt, percent).then(
      (held) => {
        if (!held) controller.abort(new TaskError("CANCELLED", "The task no longer belongs to this run."));
      },
      (err: unknown) => console.error(`lease renewal of ${claim.taskId} failed:`, err),
    );
  }, HEARTBEAT_MS);
  try {
    const signal = controller.signal;
    const ctx = operationContext(claim, {
      signal,
      files,
      engines: workerdEngines(env, { signal, timeoutMs: claim.deadline - Date.now() }),
      engineOrder: parseEngineOrder(env.ENGINE_ORDER),
      settings: runtimeSettings(env, claim.baseUrl, claim.retentionS),
      refsOf: (name) => claim.refs[name],
      progress: (p) => {
        percent = p;
      },
    });
    const inputs = claim.inputs.map((f) => inputFile(files, f, f.fromTask));
    const { out, engine, credits } = await execute(claim.operation, claim.params, inputs, ctx, tried);
    profile?.mark("execute");
    const stored = await storeOutputs(files, claim.jobId, claim.taskId, out.files);
    profile?.mark("store");
    await stub.completeTask(claim.taskId, claim.attempt, {
      files: stored,
      extra: out.extra,
      engine: engine.name,
      engineVersion: engine.version,
      credits,
    });
    profile?.mark("complete");
    profile?.log(`task-profile ${claim.operation}`, { job: claim.jobId, at: Date.now() });
  } catch (err) {
    const failure = controller.signal.aborted ? toFailure(controller.signal.reason) : toFailure(err);
    if (failure.code === "INTERNAL_ERROR") console.error(`task ${claim.taskId} (${claim.operation}) failed:`, err);
    await stub.failTask(claim.taskId, claim.attempt, failure, tried.engine);
  } finally {
    clearTimeout(timer);
    clearInterval(heartbeat);
  }
}
