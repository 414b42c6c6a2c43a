/**
 * Issue 31, "Live events: user channels see jobs already running": through the official SDK, a job
 * (and a standalone task) that waits for its upload is created first, then the user channels are
 * subscribed (`users.subscribeJobEvent`, `users.subscribeTaskEvent`), then the file is uploaded:
 * the job's `job.finished` and its tasks' `task.finished` arrive, each exactly once. On CloudConvert
 * a user channel hears the user's jobs from the moment of subscribing; before issue 31 only jobs
 * created after the subscription were heard here.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type CloudConvert from "cloudconvert";
import { type JobBody, sdk } from "../support/sdk";
import { sharedServer, type SharedServer } from "../support/servers";
import { sleep, until } from "../support/wait";

let server: SharedServer;
beforeAll(async () => {
  server = sharedServer("guarded");
});

const rawJob: JobBody = {
  tasks: {
    in: { operation: "import/raw", file: "probe", filename: "p.txt" },
    out: { operation: "export/url", input: "in" },
  },
};
const count = (xs: string[], x: string) => xs.filter((y) => y === x).length;

/**
 * The user's `job.finished` and `task.finished` events, subscribed now. The hub sends no
 * acknowledgement of a subscribe: probe jobs (which end inside their create) are made until one's
 * events arrive on both channels, which shows the subscriptions are in place (the time of
 * subscribing has passed) before the caller goes on.
 */
async function subscribeUser(cc: CloudConvert): Promise<{ jobs: string[]; tasks: string[] }> {
  const me = await cc.users.me();
  const heard = { jobs: [] as string[], tasks: [] as string[] };
  cc.users.subscribeJobEvent(me.id, "finished", ((e: { job: { id: string } }) => heard.jobs.push(e.job.id)) as never);
  cc.users.subscribeTaskEvent(me.id, "finished", ((e: { task: { id: string; job_id: string | null; name: string } }) =>
    heard.tasks.push(e.task.job_id ? `${e.task.job_id}/${e.task.name}` : e.task.id)) as never);
  const probes: string[] = [];
  const probed = () => probes.some((id) => heard.jobs.includes(id) && heard.tasks.includes(`${id}/out`));
  await until(async () => {
    probes.push((await cc.jobs.create(rawJob)).id);
    const tick = Date.now() + 1_000;
    await until(() => probed() || Date.now() > tick);
    return probed();
  }, "the user's channels never delivered a probe job's events");
  return heard;
}

describe("user channels subscribed while jobs run (issue 31)", () => {
  it("a job created before the subscription: its job.finished and task.finished arrive after the upload, once each", async () => {
    const cc = sdk("key-b", server.base);
    try {
      const job = await cc.jobs.create({
        tasks: { up: { operation: "import/upload" }, out: { operation: "export/url", input: "up" } },
      });
      expect(job.status).toBe("waiting");
      const heard = await subscribeUser(cc);
      expect(heard.jobs).not.toContain(job.id);
      await cc.tasks.upload(
        job.tasks.find((t) => t.name === "up")!,
        new TextEncoder().encode("late"),
        "late.txt",
      );
      await until(() => heard.jobs.includes(job.id), `no job.finished of the running job; heard ${heard.jobs}`);
      await until(
        () => [`${job.id}/up`, `${job.id}/out`].every((k) => heard.tasks.includes(k)),
        `tasks finished: ${heard.tasks}`,
      );
      await sleep(1_500); // a second delivery would come by now
      expect(count(heard.jobs, job.id)).toBe(1);
      expect(count(heard.tasks, `${job.id}/up`)).toBe(1);
      expect(count(heard.tasks, `${job.id}/out`)).toBe(1);
      expect((await cc.jobs.get(job.id)).status).toBe("finished");
    } finally {
      cc.closeSocket();
    }
  });

  it("a standalone upload task created before the subscription: its task.finished arrives once", async () => {
    const cc = sdk("key-b", server.base);
    try {
      const task = await cc.tasks.create("import/upload");
      const heard = await subscribeUser(cc);
      await cc.tasks.upload(task, new TextEncoder().encode("alone"), "alone.txt");
      await until(() => heard.tasks.includes(task.id), `no task.finished of the standalone task; heard ${heard.tasks}`);
      await sleep(1_500);
      expect(count(heard.tasks, task.id)).toBe(1);
    } finally {
      cc.closeSocket();
    }
  });
});
