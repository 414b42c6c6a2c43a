/**
 * Issue 20, "Done when": 1,000 concurrent jobs of one user complete without their account
 * bookkeeping being serialized through one object. The jobs wait for an upload, so all 1,000 are
 * open at once; then every file is uploaded and every job awaited. The cost meter (METER=on,
 * src/meter/meter.ts) counts the RPC calls each AccountDO received: the user's 16 index
 * shards share them, and the home object sees almost none. Checked from outside as well: the jobs
 * are listed, finished, across the shards.
 */
import type { Job } from "cloudconvert/built/lib/JobsResource";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedServer, type SharedServer } from "../support/servers";
import { scaled } from "../support/time-scale";

const JOBS = 1_000;
const USER = "heavy";
let server: SharedServer;
const h = { authorization: "Bearer key-h" };

beforeAll(async () => {
  // The bound far above 1,000, so admission reads the count once a second; near the bound it reads all 17 objects per create.
  server = sharedServer("metered");
}, scaled(180_000));

/** Runs `fn` over `items` with at most `width` in flight. */
async function pool<T, R>(items: T[], width: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

describe("one user's bookkeeping is sharded", () => {
  it(
    `${JOBS} concurrent jobs of one user finish, and no AccountDO sees more than a tenth of their bookkeeping`,
    async () => {
      await fetch(`${server.base}/__meter?reset=1`);
      const jobs = await pool(
        Array.from({ length: JOBS }, (_, i) => i),
        50,
        async (i) => {
          const r = await fetch(`${server.base}/v2/jobs`, {
            method: "POST",
            headers: { ...h, "content-type": "application/json" },
            body: JSON.stringify({
              tag: "shards",
              tasks: { up: { operation: "import/upload" }, out: { operation: "export/url", input: "up" } },
            }),
          });
          expect(r.status).toBe(201);
          const job = ((await r.json()) as { data: Job }).data;
          return { id: job.id, form: job.tasks.find((t) => t.name === "up")!.result!.form, i };
        },
      );
      // All 1,000 are open now: none can finish before its upload.
      const open = await (
        await fetch(`${server.base}/v2/jobs?filter[status]=waiting&per_page=100`, { headers: h })
      ).json();
      expect(open.data.length).toBe(100);
      await pool(jobs, 50, async (j) => {
        const fd = new FormData();
        for (const [k, v] of Object.entries(j.form.parameters as Record<string, string>)) fd.set(k, v);
        fd.set("file", new File([`file ${j.i}`], `f${j.i}.txt`));
        expect((await fetch(j.form.url, { method: "POST", body: fd })).status).toBe(201);
      });
      const done = await pool(
        jobs,
        50,
        async (j) => (await (await fetch(`${server.base}/sync/v2/jobs/${j.id}`, { headers: h })).json()).data.status,
      );
      expect(done.filter((s) => s !== "finished")).toEqual([]);

      const meter = await (await fetch(`${server.base}/__meter`)).json();
      const calls = meter.accountRequests as Record<string, number>;
      const shards = Object.entries(calls).filter(([name]) => name.startsWith(`${USER}#`));
      const total = Object.values(calls).reduce((a, b) => a + b, 0);
      const busiest = Math.max(...Object.values(calls));
      console.log(
        `account RPC calls for ${JOBS} jobs: ${total} over ${Object.keys(calls).length} objects; busiest ${busiest} (${((busiest / total) * 100).toFixed(1)}%); home ${calls[USER] ?? 0}`,
      );
      expect(shards.length).toBe(16);
      expect(total).toBeGreaterThanOrEqual(2 * JOBS); // registerJob and jobEnded of every job, at least
      expect(busiest / total).toBeLessThan(0.1); // an even spread is 1/16 = 6.25 %
      expect(calls[USER] ?? 0).toBeLessThan(JOBS / 10); // home: admission counts at most once a second, not per job

      // From outside: the finished jobs are listed, merged across the shards, newest first.
      const listed = (await (
        await fetch(`${server.base}/v2/jobs?filter[tag]=shards&filter[status]=finished&per_page=100`, { headers: h })
      ).json()) as { data: Job[] };
      expect(listed.data.length).toBe(100);
      const ids = new Set(jobs.map((j) => j.id));
      expect(listed.data.every((j) => ids.has(j.id))).toBe(true);
      const created = listed.data.map((j) => Date.parse(j.created_at));
      expect(created).toEqual([...created].sort((a, b) => b - a));
    },
    scaled(600_000),
  );
});
