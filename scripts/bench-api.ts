/**
 * Benchmark of the service's own overhead (issues 2 and 20): a job of import/raw → export/url,
 * created with POST /v2/jobs and awaited with the sync wait, under `wrangler dev` — beside the
 * platform's floor (bench/floor: a bare Worker doing only the platform steps of the same job: R2 put,
 * a new SQLite Durable Object with one row, a Queue send, the consumer's claim by RPC, R2 get + put,
 * the object marking it done and waking the waiter), in the same run, alternating, so every change
 * is judged against the platform and not against a number from another day. Prints p50/p99 latency
 * and jobs per second of both at concurrency 1, 8 and 32 (medians over alternating rounds, LEVELS),
 * their ratios with the range of the rounds' throughput ratios, and jobs that did not finish.
 * Then the cost of one job, counted: a second server with the cost meter on (METER=on,
 * src/meter/meter.ts) runs jobs of the same shape one at a time and prints the billed
 * platform operations per job beside the floor's, which are counted by construction (bench/floor).
 * Run: `npm run bench -- api` (or `node scripts/bench-api.ts`).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, startDevServer } from "../test/support/server.ts";

const KEY = "bench-key";
const ROOT = fileURLToPath(new URL("..", import.meta.url));

type OneJob = () => Promise<{ ms: number; ok: boolean }>;

function ours(base: string): OneJob {
  const h = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
  return async () => {
    const t0 = performance.now();
    const created = await fetch(`${base}/v2/jobs`, {
      method: "POST",
      headers: h,
      body: JSON.stringify({
        tasks: {
          in: { operation: "import/raw", file: "hello bench", filename: "b.txt" },
          out: { operation: "export/url", input: "in" },
        },
      }),
    });
    if (created.status !== 201) return { ms: performance.now() - t0, ok: false };
    const id = (await created.json()).data.id;
    const done = (await (await fetch(`${base}/sync/v2/jobs/${id}`, { headers: h })).json()) as {
      data?: { status: string; tasks: { name: string; result?: { files?: { url?: string }[] } }[] };
    };
    const ok =
      done.data?.status === "finished" && !!done.data.tasks.find((t) => t.name === "out")?.result?.files?.[0]?.url;
    return { ms: performance.now() - t0, ok };
  };
}

function floor(base: string): OneJob {
  return async () => {
    const t0 = performance.now();
    const created = await fetch(`${base}/jobs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ file: "hello bench", filename: "b.txt" }),
    });
    if (created.status !== 201) return { ms: performance.now() - t0, ok: false };
    const { id } = (await created.json()) as { id: string };
    const done = (await (await fetch(`${base}/jobs/${id}/wait`)).json()) as { status: string };
    return { ms: performance.now() - t0, ok: done.status === "finished" };
  };
}

/** The floor Worker under wrangler dev with its own persistence folder. */
async function startFloor(): Promise<{ base: string; pid: number; stop(): void }> {
  const port = await freePort();
  const persist = mkdtempSync(join(tmpdir(), "edge-convert-floor-"));
  const child = spawn(
    process.execPath,
    [
      join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
      "dev",
      "-c",
      "bench/floor/wrangler.toml",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      persist,
      "--show-interactive-dev-session=false",
    ],
    {
      cwd: ROOT,
      stdio: "ignore",
      detached: true,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", XDG_CONFIG_HOME: join(ROOT, ".cache", "config") },
    },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(base)).ok) break;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    base,
    pid: child.pid!,
    stop: () => {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        /* gone */
      }
      rmSync(persist, { recursive: true, force: true });
    },
  };
}

const pct = (xs: number[], p: number) =>
  xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function load(job: OneJob, concurrency: number, total: number) {
  const lat: number[] = [];
  let lost = 0;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const r = await job();
        lat.push(r.ms);
        if (!r.ok) lost++;
      }
    }),
  );
  return { p50: pct(lat, 50), p99: pct(lat, 99), rate: total / ((performance.now() - t0) / 1000), lost };
}

/** The floor's billed operations per job, by construction (bench/floor/worker.ts). */
const FLOOR_COSTS = {
  workerRequests: 3,
  doRequests: 4,
  sqlRowsWritten: 3,
  alarmWrites: 0,
  queueMessages: 1,
  r2ClassA: 2,
  r2ClassB: 1,
};

/** Counts ours per job with the meter on: `jobs` jobs at concurrency 1 after a warm-up. */
async function countCosts(jobs: number): Promise<Record<string, number>> {
  const server = await startDevServer({ API_KEYS: `${KEY}:meter`, METER: "on" });
  try {
    const o = ours(server.base);
    for (let i = 0; i < 5; i++) await o(); // the account object's first creation is not a per-job cost
    await fetch(`${server.base}/__meter?reset=1`);
    let lost = 0;
    for (let i = 0; i < jobs; i++) if (!(await o()).ok) lost++;
    if (lost) throw new Error(`${lost} metered jobs did not finish`);
    const counts = (await (await fetch(`${server.base}/__meter`)).json()) as Record<string, number>;
    return Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v / jobs]));
  } finally {
    await server.stop();
  }
}

/** Median of `xs` (the lower middle for an even count). */
const median = (xs: number[]) => pct(xs, 50);

/**
 * Rounds per concurrency (jobs per side per round): each round runs the floor and ours back to back,
 * the first of the pair alternating, and the figures printed are medians over rounds. One 800-job run
 * per side was not enough on this 2-core machine: identical code measured 0.74–1.11× of the floor
 * in consecutive rounds, and whoever ran second lost (issue 20). While one side runs, the other
 * server's process group is stopped (SIGSTOP), so its leftover work (evicting the last run's
 * objects, alarms) does not slow the side being measured.
 */
const LEVELS = [
  { concurrency: 1, jobs: 100, rounds: 3 },
  { concurrency: 8, jobs: 200, rounds: 3 },
  { concurrency: 32, jobs: 400, rounds: 5 },
] as const;

export async function benchApi(): Promise<void> {
  const [server, bare] = await Promise.all([startDevServer({ API_KEYS: `${KEY}:bench` }), startFloor()]);
  try {
    const [o0, f0] = [ours(server.base), floor(bare.base)];
    for (let i = 0; i < 30; i++) (await o0(), await f0()); // warm-up
    /** Runs `job` with the other server stopped. */
    const alone = (job: OneJob, other: number) => async (concurrency: number, jobs: number) => {
      process.kill(-other, "SIGSTOP");
      try {
        return await load(job, concurrency, jobs);
      } finally {
        process.kill(-other, "SIGCONT");
      }
    };
    const [o, f] = [alone(o0, bare.pid), alone(f0, server.pid)];
    console.log(
      "\nAPI overhead: import/raw → export/url, create + sync wait, wrangler dev — ours beside the platform's floor (bench/floor), same run",
    );
    console.log(
      "medians over rounds; each round runs both, alternating which goes first, the other server stopped; (×) is the median of the rounds' ratios",
    );
    console.log(
      "concurrency | rounds × jobs | p50 ms ours / floor (×) | p99 ms ours / floor | jobs/s ours / floor (×) | jobs/s ratio range | not finished ours / floor",
    );
    for (const { concurrency, jobs, rounds } of LEVELS) {
      const us: Awaited<ReturnType<typeof load>>[] = [];
      const fl: Awaited<ReturnType<typeof load>>[] = [];
      for (let r = 0; r < rounds; r++) {
        if (r % 2 === 0) (fl.push(await f(concurrency, jobs)), us.push(await o(concurrency, jobs)));
        else (us.push(await o(concurrency, jobs)), fl.push(await f(concurrency, jobs)));
      }
      const m = (xs: typeof us, k: "p50" | "p99" | "rate") => median(xs.map((x) => x[k]));
      const p50Ratio = median(us.map((u, i) => u.p50 / fl[i].p50));
      const rateRatios = us.map((u, i) => u.rate / fl[i].rate);
      const lost = (xs: typeof us) => xs.reduce((n, x) => n + x.lost, 0);
      console.log(
        `${String(concurrency).padStart(11)} | ${`${rounds} × ${jobs}`.padStart(13)} | ${m(us, "p50").toFixed(1)} / ${m(fl, "p50").toFixed(1)} (${p50Ratio.toFixed(2)}) | ${m(us, "p99").toFixed(1)} / ${m(fl, "p99").toFixed(1)} | ${m(us, "rate").toFixed(0)} / ${m(fl, "rate").toFixed(0)} (${median(rateRatios).toFixed(2)}) | ${Math.min(...rateRatios).toFixed(2)}–${Math.max(...rateRatios).toFixed(2)} | ${lost(us)} / ${lost(fl)}`,
      );
    }
  } finally {
    bare.stop();
    await server.stop();
  }
  const per = await countCosts(100);
  console.log(
    "\nCost of one job (import/raw → export/url + sync wait), counted by the meter over 100 jobs; the floor's by construction",
  );
  console.log("operation | ours | floor");
  for (const k of Object.keys(FLOOR_COSTS) as (keyof typeof FLOOR_COSTS)[])
    console.log(`${k} | ${(per[k] ?? 0).toFixed(2)} | ${FLOOR_COSTS[k]}`);
  console.log(
    "(workerRequests: API and queue invocations; doRequests: RPC calls and alarm runs; sqlRowsWritten includes DDL; queue messages bill 3 operations each)",
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchApi();
