/**
 * Issue 18, "Done when": 1,000 idle socket.io subscribers held open against one `wrangler dev`,
 * and events still arrive promptly. The idle ones listen on a job that waits for an upload; a
 * measuring client subscribes to an upload task of another job, uploads its file and times the
 * task's `finished` event from the moment the upload request is sent (an upper bound of the time
 * since the change: the request's own parsing and R2 write come first), over 10 uploads; it also
 * prints when the event came relative to the upload's answer. Then the idle job's own file is
 * uploaded and every idle subscriber must get its `job.finished`: the hub sends no acknowledgement of
 * a subscribe, so a subscription is known accepted by the events it delivers (a refused one gets
 * `subscription_error`; one accepted after the job ended gets the end at once). Prints the figures.
 */
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sdk } from "../support/sdk";
import { sharedServer, type SharedServer } from "../support/servers";

const IDLE = 1_000;
let server: SharedServer;
const sockets: Socket[] = [];
/** Sockets that got the idle job's `job.finished` on its channel (accepted subscriptions), and `subscription_error`s. */
const finishedOn = new Set<Socket>();
const refusals: string[] = [];

beforeAll(async () => {
  server = sharedServer("guarded");
});
afterAll(async () => {
  for (const s of sockets) s.close();
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

describe("live events at scale", () => {
  it(`${IDLE} idle subscribers stay connected and events still arrive within 100 ms (median of 10)`, async () => {
    const cc = sdk("key-a", server.base);
    const idleJob = await cc.jobs.create({ tasks: { up: { operation: "import/upload" } } });
    const auth = { headers: { Authorization: "Bearer key-a" } };
    const connectStart = Date.now();
    for (let i = 0; i < IDLE; i += 50) {
      await Promise.all(
        Array.from(
          { length: Math.min(50, IDLE - i) },
          () =>
            new Promise<void>((resolve, reject) => {
              const s = io(server.base, { transports: ["websocket"], reconnection: false, forceNew: true });
              sockets.push(s);
              s.on("job.finished", (channel: string, data: { job?: { id?: string } }) => {
                if (channel === `private-job.${idleJob.id}` && data?.job?.id === idleJob.id) finishedOn.add(s);
              });
              s.on("subscription_error", (channel: string, e: { message?: string }) =>
                refusals.push(`${channel}: ${e?.message}`),
              );
              s.once("connect", () => (s.emit("subscribe", { channel: `private-job.${idleJob.id}`, auth }), resolve()));
              s.once("connect_error", reject);
            }),
        ),
      );
    }
    const connectMs = Date.now() - connectStart;

    const probe = sdk("key-a", server.base);
    const latencies: number[] = [];
    const afterAnswer: number[] = [];
    try {
      for (let i = 0; i < 10; i++) {
        const task = await probe.tasks.create("import/upload");
        const arrived = new Promise<number>((resolve) =>
          probe.tasks.subscribeEvent(task.id, "finished", (() => resolve(performance.now())) as never),
        );
        await new Promise((r) => setTimeout(r, 150)); // the subscription is registered before the change
        const form = task.result!.form as { url: string; parameters: Record<string, string> };
        const body = new FormData();
        for (const [k, v] of Object.entries(form.parameters)) body.append(k, v);
        body.append("file", new Blob([`file ${i}`]), `f${i}.txt`);
        const sent = performance.now();
        const res = await fetch(form.url, { method: "POST", body });
        const answered = performance.now();
        expect(res.status).toBe(201);
        const at = await arrived;
        latencies.push(at - sent);
        afterAnswer.push(at - answered);
      }
    } finally {
      probe.closeSocket();
    }
    const connected = sockets.filter((s) => s.connected).length;
    // the idle job ends: every accepted subscription delivers its job.finished (waited for, up to 60 s)
    const up = idleJob.tasks.find((t) => t.name === "up")!.result!.form as {
      url: string;
      parameters: Record<string, string>;
    };
    const body = new FormData();
    for (const [k, v] of Object.entries(up.parameters)) body.append(k, v);
    body.append("file", new Blob(["idle"]), "idle.txt");
    expect((await fetch(up.url, { method: "POST", body })).status).toBe(201);
    const deadline = Date.now() + 60_000;
    while (finishedOn.size < IDLE && refusals.length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(refusals).toEqual([]);
    console.log(
      `live events: ${finishedOn.size}/${IDLE} idle subscriptions accepted (each delivered the idle job's job.finished)`,
    );
    expect(finishedOn.size).toBe(IDLE);
    console.log(
      `live events: ${connected}/${IDLE} idle subscribers connected in ${connectMs} ms; task.finished after the upload was sent: median ${median(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms (${latencies.map((l) => l.toFixed(0)).join(", ")}); relative to the upload's answer: median ${median(afterAnswer).toFixed(1)} ms`,
    );
    expect(connected).toBe(IDLE);
    expect(median(latencies)).toBeLessThan(100);
  });
});
