/**
 * Benchmark of the service's own overhead (issue 2): a job of import/raw → export/url, created with
 * POST /v2/jobs and awaited with the SDK's sync wait, under `wrangler dev`. Prints end-to-end
 * latency p50/p99 and jobs per second at concurrency 1, 8 and 32, and how many jobs did not finish.
 * Run: `npm run bench` (or `node scripts/bench-api.ts`).
 */
import { startDevServer } from "../test/support/server.ts";

const KEY = "bench-key";

async function oneJob(base: string): Promise<{ ms: number; ok: boolean }> {
  const t0 = performance.now();
  const h = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
  const created = await fetch(`${base}/v2/jobs`, {
    method: "POST",
    headers: h,
    body: JSON.stringify({ tasks: { in: { operation: "import/raw", file: "hello bench", filename: "b.txt" }, out: { operation: "export/url", input: "in" } } }),
  });
  if (created.status !== 201) return { ms: performance.now() - t0, ok: false };
  const id = (await created.json()).data.id;
  const done = await (await fetch(`${base}/sync/v2/jobs/${id}`, { headers: h })).json();
  const ok = done.data?.status === "finished" && !!done.data.tasks.find((t: any) => t.name === "out")?.result?.files?.[0]?.url;
  return { ms: performance.now() - t0, ok };
}

const pct = (xs: number[], p: number) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

export async function benchApi(): Promise<void> {
  const server = await startDevServer({ API_KEYS: `${KEY}:bench` });
  try {
    for (let i = 0; i < 30; i++) await oneJob(server.base); // warm-up
    console.log("\nAPI overhead: import/raw → export/url, create + sync wait, wrangler dev");
    console.log("concurrency | jobs | p50 ms | p99 ms | jobs/s | not finished");
    for (const [concurrency, total] of [[1, 200], [8, 400], [32, 800]] as const) {
      const lat: number[] = [];
      let lost = 0;
      let next = 0;
      const t0 = performance.now();
      await Promise.all(Array.from({ length: concurrency }, async () => {
        while (next < total) {
          next++;
          const r = await oneJob(server.base);
          lat.push(r.ms);
          if (!r.ok) lost++;
        }
      }));
      const secs = (performance.now() - t0) / 1000;
      console.log(`${String(concurrency).padStart(11)} | ${String(total).padStart(4)} | ${pct(lat, 50).toFixed(1).padStart(6)} | ${pct(lat, 99).toFixed(1).padStart(6)} | ${(total / secs).toFixed(0).padStart(6)} | ${lost}`);
    }
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchApi();
