/**
 * Benchmark of the Chrome engine (issues 14 and 37): HTML → PDF through the whole service (import/raw of a
 * one-page invoice → convert to pdf, created with POST /v2/jobs and awaited with the sync wait) under
 * `npm start` (wrangler dev; the local Browser Rendering binding drives Debian's Chromium offline),
 * beside the bare-Chromium floor (issue 37): the same HTML in the same Chromium driven directly by
 * puppeteer-core — a warm browser, a new page per document, `setContent`, `page.pdf` with the engine's
 * default page options, the page closed. Both run in the same run, in alternating rounds (the first of
 * each pair alternating), at concurrency 1 and 4; the figures are medians over rounds and (×) the median
 * of the rounds' ratios ours / floor. A job (or floor document) counts as failed unless its PDF has 1 page.
 * The warm server runs with WEB_PROFILE=1, so the Chrome engine logs each rendering's phases; the bench
 * prints their medians at concurrency 1, and the job path around the engine (p50 job − p50 engine).
 * A third side, in the same rounds: the engine alone (bench-web-direct.ts: the service's browser pool driven from Node
 * against a Chromium of its own), which separates the engine's page work from what the local Browser Rendering
 * binding's relay and the job path add (issue 37: "measure those separately").
 * Last, one cold row pair on a server with BROWSER_REUSE=false (a browser launched and closed per task).
 * Run: `npm run bench -- web` (or `node scripts/bench-web.ts`).
 */
import { execFileSync } from "node:child_process";
import { availableParallelism } from "node:os";
import puppeteer, { type Browser } from "puppeteer-core";
import { PDFDocument } from "@cantoo/pdf-lib";
import { startDevServer } from "../test/support/server.ts";
import { directEngine } from "./bench-web-direct.ts";

const KEY = "bench-key";

/** A realistic one-page document: an invoice with a header, addresses, a line-item table and totals. */
const ITEMS: [string, number, number][] = [
  ["Consulting, architecture review (hours)", 12, 145],
  ["Implementation, document conversion pipeline (hours)", 36, 120],
  ["Load testing and tuning (hours)", 8, 120],
  ["Browser Rendering usage, March", 1, 42.5],
  ["Object storage, 120 GB-month", 120, 0.015],
  ["Support plan, business tier", 1, 249],
];
const money = (n: number) => n.toLocaleString("en-US", { style: "currency", currency: "EUR" });
const subtotal = ITEMS.reduce((s, [, q, p]) => s + q * p, 0);
export const INVOICE_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Invoice INV-2024-0042</title>
<style>
  body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 11pt; color: #222; margin: 0; }
  header { display: flex; justify-content: space-between; border-bottom: 2px solid #1f4e79; padding-bottom: 8px; }
  h1 { color: #1f4e79; margin: 0; font-size: 22pt; }
  .addr { display: flex; justify-content: space-between; margin: 18px 0; }
  table { width: 100%; border-collapse: collapse; margin-top: 12px; }
  th { background: #1f4e79; color: #fff; text-align: left; padding: 6px; }
  td { border-bottom: 1px solid #ccc; padding: 6px; }
  td.n, th.n { text-align: right; }
  tr:nth-child(even) td { background: #f3f6fa; }
  .totals { margin-left: auto; width: 40%; margin-top: 12px; }
  .totals td { border: none; }
  .grand td { font-weight: bold; border-top: 2px solid #1f4e79; }
  footer { margin-top: 30px; font-size: 9pt; color: #666; }
</style></head>
<body>
<header><div><h1>INVOICE</h1><div>No. INV-2024-0042</div></div>
<div style="text-align:right">Example Conversions GmbH<br>Hauptstraße 12<br>10115 Berlin, Germany<br>VAT ID DE123456789</div></header>
<div class="addr">
  <div><strong>Bill to</strong><br>Acme Documents Ltd.<br>221B Baker Street<br>London NW1 6XE<br>United Kingdom</div>
  <div style="text-align:right"><strong>Date</strong> 2024-03-31<br><strong>Due</strong> 2024-04-30<br><strong>Customer</strong> C-1007<br><strong>PO</strong> 88-1431</div>
</div>
<table>
  <thead><tr><th>#</th><th>Description</th><th class="n">Qty</th><th class="n">Unit price</th><th class="n">Amount</th></tr></thead>
  <tbody>
${ITEMS.map(([d, q, p], i) => `    <tr><td>${i + 1}</td><td>${d}</td><td class="n">${q}</td><td class="n">${money(p)}</td><td class="n">${money(q * p)}</td></tr>`).join("\n")}
  </tbody>
</table>
<table class="totals">
  <tr><td>Subtotal</td><td class="n">${money(subtotal)}</td></tr>
  <tr><td>VAT 19 %</td><td class="n">${money(subtotal * 0.19)}</td></tr>
  <tr class="grand"><td>Total due</td><td class="n">${money(subtotal * 1.19)}</td></tr>
</table>
<footer>Payment by bank transfer to IBAN DE89 3704 0044 0532 0130 00 (BIC COBADEFFXXX) within 30 days, quoting the invoice number.
Thank you for your business.</footer>
</body></html>`;

/**
 * The invoice with one inline script (WEB_BENCH_SCRIPT=1): a document that may run a script, so the pool resets its
 * page between documents (a navigation to a fresh origin) where the static invoice is written over the last one
 * (engines/chrome/pool.ts). The script changes nothing on the page.
 */
export const SCRIPTED_INVOICE_HTML = INVOICE_HTML.replace("</body>", '<script>document.title += "";</script></body>');

const jobOf = (html: string) =>
  JSON.stringify({
    tasks: {
      in: { operation: "import/raw", file: html, filename: "page.html" },
      pdf: { operation: "convert", input: "in", output_format: "pdf" },
    },
  });

interface JobResult {
  ms: number;
  ok: boolean;
  why?: string;
}

async function oneJob(base: string, job: string): Promise<JobResult> {
  const t0 = performance.now();
  const h = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
  try {
    const created = await fetch(`${base}/v2/jobs`, { method: "POST", headers: h, body: job });
    if (created.status !== 201)
      return {
        ms: performance.now() - t0,
        ok: false,
        why: `POST /v2/jobs ${created.status}: ${(await created.text()).slice(0, 200)}`,
      };
    const id = (await created.json()).data.id;
    const done = (await (await fetch(`${base}/sync/v2/jobs/${id}`, { headers: h })).json()) as {
      data?: {
        status: string;
        tasks?: {
          name: string;
          status: string;
          code: string | null;
          message: string | null;
          result?: { pages?: number };
        }[];
      };
    };
    const ms = performance.now() - t0;
    const pdf = done.data?.tasks?.find((t) => t.name === "pdf");
    if (done.data?.status !== "finished")
      return {
        ms,
        ok: false,
        why: `job ${done.data?.status}: pdf task ${pdf?.status} ${pdf?.code ?? ""} ${pdf?.message ?? ""}`.slice(0, 300),
      };
    if (pdf?.result?.pages !== 1) return { ms, ok: false, why: `pdf task result.pages = ${pdf?.result?.pages}` };
    return { ms, ok: true };
  } catch (err) {
    return { ms: performance.now() - t0, ok: false, why: String(err) };
  }
}

const pct = (xs: number[], p: number) =>
  xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;

interface Row {
  mode: string;
  concurrency: number;
  jobs: number;
  p50: number;
  rate: number;
  failed: number;
  why?: string;
}

/** `total` runs of `one` with `concurrency` in flight; p50 latency and jobs (= pages) per second. */
async function measure(one: () => Promise<JobResult>, mode: string, concurrency: number, total: number): Promise<Row> {
  const lat: number[] = [];
  let failed = 0;
  let why: string | undefined;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const r = await one();
        lat.push(r.ms);
        if (!r.ok) {
          failed++;
          why ??= r.why;
        }
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  return { mode, concurrency, jobs: total, p50: pct(lat, 50), rate: total / secs, failed, why };
}

/** The page options the Chrome engine prints with by default (engines/chrome/engine.ts pdfOptions: A4, 10 mm margins, backgrounds). */
const FLOOR_PDF = {
  format: "a4",
  margin: { top: "10mm", bottom: "10mm", left: "10mm", right: "10mm" },
  printBackground: true,
  scale: 1,
} as const;

/**
 * The floor (issue 37): Debian's Chromium driven directly by puppeteer-core, warm, one new page per document
 * (`setContent` with the invoice, `page.pdf`, page closed). A document fails unless its PDF has 1 page.
 */
export async function bareChromium(
  html = INVOICE_HTML,
): Promise<{ one: () => Promise<JobResult>; close(): Promise<void> }> {
  const browser: Browser = await puppeteer.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
  return {
    async one() {
      const t0 = performance.now();
      const page = await browser.newPage();
      try {
        await page.setContent(html, { waitUntil: "load" });
        const pdf = await page.pdf(FLOOR_PDF);
        const ms = performance.now() - t0;
        const pages = (await PDFDocument.load(pdf, { updateMetadata: false })).getPageCount();
        return pages === 1 ? { ms, ok: true } : { ms, ok: false, why: `floor PDF has ${pages} pages` };
      } catch (err) {
        return { ms: performance.now() - t0, ok: false, why: `floor: ${String(err).slice(0, 200)}` };
      } finally {
        await page.close().catch(() => {});
      }
    },
    close: () => browser.close(),
  };
}

/** The Chrome engine's phases (WEB_PROFILE=1 `web-profile {…}` lines in the server log), ms per rendering. */
function profileOf(log: string, label = "web-profile"): Record<string, number>[] {
  return log
    .split("\n")
    .filter((l) => l.includes(`${label} {`))
    .map((l) => {
      try {
        return JSON.parse(l.slice(l.indexOf("{"))) as Record<string, number>;
      } catch {
        return {};
      }
    });
}

/** Warm-up: `n` jobs, `concurrency` at a time (with reuse, this also starts that many warm sessions). */
async function warmUp(one: () => Promise<JobResult>, n: number, concurrency: number): Promise<number> {
  let failed = 0;
  for (let i = 0; i < n; i += concurrency) {
    const rs = await Promise.all(Array.from({ length: Math.min(concurrency, n - i) }, () => one()));
    failed += rs.filter((r) => !r.ok).length;
  }
  return failed;
}

/**
 * The Chromium browsers (main processes) that the server with process group `pgid` launched and that are still running:
 * Browser Rendering's local binding spawns them detached (their own process group), so they are found by parent.
 */
function browsersOf(pgid: number): number[] {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,pgid=,args="])
    .toString()
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/));
  const group = new Map(rows.map((r) => [Number(r[0]), Number(r[2])]));
  return rows
    .filter(
      (r) => /chrom/.test(r[3] ?? "") && !r.some((a) => a.startsWith("--type=")) && group.get(Number(r[1])) === pgid,
    )
    .map((r) => Number(r[0]));
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Stops the server, then any browser of `browsers` that outlived it: wrangler dev exits on SIGTERM before miniflare
 * has closed its browsers, which leaves them running with no owner. A browser still closing (the cold path's last
 * one) gets 6 s to exit by itself. Returns how many had to be stopped here.
 */
async function stopServer(server: { pid: number; stop(): Promise<void> }, browsers: number[]): Promise<number> {
  await server.stop();
  for (let i = 0; i < 24 && browsers.some(alive); i++) await new Promise((r) => setTimeout(r, 250));
  const left = browsers.filter(alive);
  for (const pid of left) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      /* gone */
    }
  }
  for (let i = 0; i < 20 && left.some(alive); i++) await new Promise((r) => setTimeout(r, 250));
  for (const pid of left.filter(alive)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      /* gone */
    }
  }
  return left.length;
}

export interface WebBenchOptions {
  /** Alternating rounds per concurrency, ours and the floor (default 3). */
  rounds?: number;
  /** Jobs per side per round at concurrency 1 (default 15). */
  c1Jobs?: number;
  /** Jobs per side per round at concurrency 4 (default 30). */
  c4Jobs?: number;
  /** Jobs in the cold (BROWSER_REUSE=false) row at concurrency 1 (default 10: ~2.5 s a page on 2 cores). */
  coldC1Jobs?: number;
  /** Jobs in the cold row at concurrency 4 (default 20). */
  coldC4Jobs?: number;
  /** Warm-up jobs before each side's rows (default 4, run 4 at a time, then 2 one by one). */
  warmup?: number;
  /** BROWSER_REUSE of the warm server: "session" measures the engine before issue 37 (a session per task); default the browser object. */
  reuse?: string;
  /** BROWSER_BESIDE of the warm server: "false" sends html → pdf tasks through the queue (before issue 37's direct run). */
  beside?: string;
  /** The invoice with an inline script (SCRIPTED_INVOICE_HTML) on every side: the pool's path for documents that may run scripts. */
  script?: boolean;
}

const median = (xs: number[]) => pct(xs, 50);

export async function benchWeb(opts: WebBenchOptions = {}): Promise<void> {
  const html = opts.script ? SCRIPTED_INVOICE_HTML : INVOICE_HTML;
  const job = jobOf(html);
  const rounds = opts.rounds ?? 3;
  const perRound: Record<number, number> = { 1: opts.c1Jobs ?? 15, 4: opts.c4Jobs ?? 30 };
  const coldC1 = opts.coldC1Jobs ?? 10;
  const coldC4 = opts.coldC4Jobs ?? 20;
  const warm = opts.warmup ?? 4;
  const cores = availableParallelism();
  const started = performance.now();
  const notes: string[] = [];
  const pairs: { concurrency: number; ours: Row[]; floor: Row[]; engine: Row[] }[] = [];
  let phases: Record<string, number>[] = [];
  /** The job path's own phases at concurrency 1 (WEB_PROFILE=1): POST /v2/jobs, the runner, the browser object call. */
  const around: Record<string, Record<string, number>[]> = {
    "create-profile": [],
    "task-profile convert": [],
    "web-rpc": [],
    "web-do": [],
  };
  let oursC1P50 = NaN;

  // warm: ours beside the floor, alternating
  {
    const server = await startDevServer({
      API_KEYS: `${KEY}:bench`,
      WEB_PROFILE: "1",
      ...(opts.reuse ? { BROWSER_REUSE: opts.reuse } : {}),
      ...(opts.beside ? { BROWSER_BESIDE: opts.beside } : {}),
    });
    const bare = await bareChromium(html);
    const alone = await directEngine(html);
    let browsers: number[] = [];
    try {
      const ours = () => oneJob(server.base, job);
      const wf = (await warmUp(ours, warm, 4)) + (await warmUp(ours, 2, 1));
      if (wf) notes.push(`Warm-up, ours: ${wf} of ${warm + 2} jobs failed`);
      const ff = (await warmUp(bare.one, warm, 4)) + (await warmUp(bare.one, 2, 1));
      if (ff) notes.push(`Warm-up, floor: ${ff} of ${warm + 2} documents failed`);
      const ef = (await warmUp(alone.one, warm, 4)) + (await warmUp(alone.one, 2, 1));
      if (ef) notes.push(`Warm-up, engine alone: ${ef} of ${warm + 2} documents failed`);
      for (const concurrency of [1, 4]) {
        const pair = { concurrency, ours: [] as Row[], floor: [] as Row[], engine: [] as Row[] };
        for (let r = 0; r < rounds; r++) {
          const before = server.log().length;
          const runOurs = async () => {
            pair.ours.push(await measure(ours, "ours", concurrency, perRound[concurrency]));
            if (concurrency === 1) {
              const log = server.log().slice(before);
              phases = phases.concat(profileOf(log));
              for (const label of Object.keys(around)) around[label] = around[label].concat(profileOf(log, label));
            }
          };
          const runFloor = async () =>
            void pair.floor.push(await measure(bare.one, "floor", concurrency, perRound[concurrency]));
          const runEngine = async () =>
            void pair.engine.push(await measure(alone.one, "engine alone", concurrency, perRound[concurrency]));
          // each round runs the three in a rotated order
          const order = [runOurs, runFloor, runEngine];
          for (let k = 0; k < 3; k++) await order[(r + k) % 3]!();
        }
        pairs.push(pair);
        if (concurrency === 1) oursC1P50 = median(pair.ours.map((x) => x.p50));
      }
    } finally {
      await bare.close().catch(() => {});
      await alone.close().catch(() => {});
      try {
        browsers = browsersOf(server.pid);
      } catch {
        /* no ps */
      }
      const orphans = await stopServer(server, browsers);
      if (orphans)
        notes.push(
          `warm: ${orphans} of ${browsers.length} Chromium browsers outlived server.stop(); stopped by the bench`,
        );
    }
  }

  // cold: a browser launched and closed per task
  const cold: Row[] = [];
  if (coldC1 > 0) {
    const server = await startDevServer({ API_KEYS: `${KEY}:bench`, BROWSER_REUSE: "false" });
    let browsers: number[] = [];
    try {
      const ours = () => oneJob(server.base, job);
      const wf = await warmUp(ours, 2, 1);
      if (wf) notes.push(`Warm-up, cold: ${wf} of 2 jobs failed`);
      cold.push(await measure(ours, "cold (BROWSER_REUSE=false)", 1, coldC1));
      cold.push(await measure(ours, "cold (BROWSER_REUSE=false)", 4, coldC4));
    } finally {
      try {
        browsers = browsersOf(server.pid);
      } catch {
        /* no ps */
      }
      const orphans = await stopServer(server, browsers);
      if (orphans)
        notes.push(
          `cold: ${orphans} of ${browsers.length} Chromium browsers outlived server.stop(); stopped by the bench`,
        );
    }
  }

  let chromium = "unknown";
  try {
    // stdout only: Debian's /usr/bin/chromium wrapper may print shell noise on stderr
    chromium = execFileSync("/usr/bin/chromium", ["--version"], { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    /* not installed */
  }
  console.log(
    `\nChrome engine${opts.reuse ? ` (BROWSER_REUSE=${opts.reuse})` : ""}${opts.beside ? ` (BROWSER_BESIDE=${opts.beside})` : ""}: HTML → PDF (one-page invoice${opts.script ? " with an inline script" : ""}, import/raw → convert), create + sync wait, npm start (wrangler dev, Browser Rendering local binding), beside the bare-Chromium floor (puppeteer-core, warm browser, new page, setContent, page.pdf); ${cores} cores`,
  );
  console.log(
    "medians over rounds; each round runs ours, the floor and the engine alone in a rotated order; (×) is the median of the rounds' ratios to the floor",
  );
  console.log(
    "| concurrency | rounds × docs | p50 ms ours / floor | pages/s ours / floor (×) | ratio range | failed ours / floor |\n|---|---|---|---|---|---|",
  );
  for (const { concurrency, ours, floor } of pairs) {
    const ratios = ours.map((o, i) => o.rate / floor[i].rate);
    const m = (rs: Row[], k: "p50" | "rate") => median(rs.map((x) => x[k]));
    const sum = (rs: Row[]) => rs.reduce((a, x) => a + x.failed, 0);
    console.log(
      `| ${concurrency} | ${rounds} × ${perRound[concurrency]} | ${m(ours, "p50").toFixed(0)} / ${m(floor, "p50").toFixed(0)} | ${m(ours, "rate").toFixed(2)} / ${m(floor, "rate").toFixed(2)} (${median(ratios).toFixed(2)}) | ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)} | ${sum(ours)} / ${sum(floor)} |`,
    );
  }
  console.log(
    "\nThe engine alone (the service's browser pool, src/engines/chrome/pool.ts, driven from Node against a Chromium of its own: no workerd, no local Browser Rendering relay, no job path):\n| concurrency | p50 ms engine alone / floor | pages/s engine alone / floor (×) | failed |\n|---|---|---|---|",
  );
  for (const { concurrency, floor, engine } of pairs) {
    const ratios = engine.map((o, i) => o.rate / floor[i].rate);
    const m = (rs: Row[], k: "p50" | "rate") => median(rs.map((x) => x[k]));
    console.log(
      `| ${concurrency} | ${m(engine, "p50").toFixed(0)} / ${m(floor, "p50").toFixed(0)} | ${m(engine, "rate").toFixed(2)} / ${m(floor, "rate").toFixed(2)} (${median(ratios).toFixed(2)}) | ${engine.reduce((a, x) => a + x.failed, 0)} |`,
    );
  }
  if (phases.length) {
    const keys = [...new Set(phases.flatMap((p) => Object.keys(p)))];
    const engine = median(phases.map((p) => Object.values(p).reduce((a, b) => a + b, 0)));
    console.log(
      `\nProfile at concurrency 1 (${phases.length} renderings, WEB_PROFILE=1; medians, ms): ${keys.map((k) => `${k} ${median(phases.map((p) => p[k] ?? 0)).toFixed(0)}`).join(", ")}; engine total ${engine.toFixed(0)}; job path around it (p50 job − engine) ${(oursC1P50 - engine).toFixed(0)}`,
    );
  }
  for (const [label, rows] of Object.entries(around)) {
    if (!rows.length) continue;
    const keys = [...new Set(rows.flatMap((p) => Object.keys(p)))].filter((k) => k !== "job" && k !== "at");
    console.log(
      `${label} (${rows.length}; medians, ms): ${keys.map((k) => `${k} ${median(rows.map((p) => p[k] ?? 0)).toFixed(1)}`).join(", ")}`,
    );
  }
  console.log("\n| cold mode | concurrency | jobs | p50 ms | pages/s | failed |\n|---|---|---|---|---|---|");
  for (const r of cold)
    console.log(
      `| ${r.mode} | ${r.concurrency} | ${r.jobs} | ${r.p50.toFixed(0)} | ${r.rate.toFixed(2)} | ${r.failed} |`,
    );
  console.log(`Chromium: ${chromium}`);
  console.log("Reference: Gotenberg's own load tests: ~2.6 HTML→PDF per second on one vCPU");
  for (const n of notes) console.log(n);
  for (const p of pairs)
    for (const r of [...p.ours, ...p.floor, ...p.engine])
      if (r.why) {
        console.log(`First failure (${r.mode}, c=${r.concurrency}): ${r.why}`);
        break;
      }
  for (const r of cold) if (r.why) console.log(`First failure (${r.mode}, c=${r.concurrency}): ${r.why}`);
  console.log(`(web section: ${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

/**
 * Reduced sizes from the environment for a quick run on a loaded machine, e.g.
 * `WEB_BENCH=rounds=2,c1=10,c4=16,cold=0 npm run bench -- web` (cold=0 skips the cold rows); WEB_BENCH_REUSE=session runs
 * the warm rows on a session per task (the engine before issue 37) for a before/after in the same conditions, and
 * WEB_BENCH_BESIDE=false sends the tasks through the queue instead of running them beside their jobs, and
 * WEB_BENCH_SCRIPT=1 renders the invoice with an inline script on every side (the pool resets its page between such
 * documents; the static invoice is written over the last one).
 */
export function webBenchOptionsFromEnv(spec = process.env.WEB_BENCH ?? ""): WebBenchOptions {
  const kv = Object.fromEntries(
    spec
      .split(",")
      .map((p) => p.split("="))
      .filter(([k, v]) => k && v !== undefined && Number.isFinite(Number(v)))
      .map(([k, v]) => [k.trim(), Number(v)]),
  );
  return {
    ...(kv.rounds !== undefined ? { rounds: kv.rounds } : {}),
    ...(kv.c1 !== undefined ? { c1Jobs: kv.c1 } : {}),
    ...(kv.c4 !== undefined ? { c4Jobs: kv.c4 } : {}),
    ...(kv.cold !== undefined ? { coldC1Jobs: kv.cold, coldC4Jobs: kv.cold * 2 } : {}),
    ...(kv.warmup !== undefined ? { warmup: kv.warmup } : {}),
    ...(process.env.WEB_BENCH_REUSE ? { reuse: process.env.WEB_BENCH_REUSE } : {}),
    ...(process.env.WEB_BENCH_BESIDE ? { beside: process.env.WEB_BENCH_BESIDE } : {}),
    ...(process.env.WEB_BENCH_SCRIPT === "1" ? { script: true } : {}),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) await benchWeb(webBenchOptionsFromEnv());
