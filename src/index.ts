/**
 * Worker entry (DESIGN.md layout): the Hono API, the Durable Object classes, and the queue
 * consumer that runs tasks (TASKS) and gives up on dead-lettered ones (TASKS_DLQ).
 */
import { jobStub } from "./env";
// The Durable Object classes, exported for wrangler.toml's bindings: the one place src/ reaches into the objects' folder.
export { AccountDO } from "../durable-objects/account";
export { JobDO } from "../durable-objects/job";
export { EventsDO } from "../durable-objects/events";
export { BrowserDO } from "../durable-objects/browser";
export { NativeContainer } from "./engines/native/container";
import { app } from "./api/app";
import type { Env, TaskMessage } from "./env";
import { runTask } from "./runner/run-task";
import { meterRequest } from "./meter/meter";

export default {
  fetch(req: Request, env: Env, ctx: ExecutionContext) {
    return app.fetch(req, meterRequest(env), ctx);
  },
  /** Runs every message of a batch concurrently; a message whose JobDO could not be reached is retried by the queue. */
  async queue(batch: MessageBatch<TaskMessage>, rawEnv: Env): Promise<void> {
    const env = meterRequest(rawEnv);
    if (batch.queue.endsWith("-dlq")) {
      await Promise.all(
        batch.messages.map(async (m) => {
          try {
            await jobStub(env, m.body.jobId).failTask(m.body.taskId, -1, {
              code: "RUNNER_LOST",
              message: "The task could not be run after repeated attempts.",
              retryable: false,
            });
            m.ack();
          } catch (err) {
            // The JobDO's lease alarm ends the task anyway; retrying here just reports it sooner.
            console.error("dead-lettered task could not be reported:", err);
            m.retry({ delaySeconds: 5 });
          }
        }),
      );
      return;
    }
    await Promise.all(
      batch.messages.map(async (m) => {
        try {
          await runTask(env, m.body, m.id);
          m.ack();
        } catch (err) {
          console.error("task runner could not report:", err);
          m.retry({ delaySeconds: 1 });
        }
      }),
    );
  },
} satisfies ExportedHandler<Env, TaskMessage>;
