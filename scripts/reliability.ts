/**
 * The reliability suite (issue 10): starts the service itself under `wrangler dev` and prints one
 * figure line per part; exits 1 when a part misses its bound.
 *
 *   restart  — N jobs (import/base64 JPEG → convert → export) in flight, SIGKILL of the whole process
 *              group, restart on the same state: every job terminal within 60 s of the restart plus
 *              its run time, no job stuck, the imported file downloaded intact (SHA-256) and each
 *              converted output a JPEG→PNG of the right size.
 *   load     — M small jobs (import/raw → export/url) at concurrency C: all terminal, none lost,
 *              p50/p99 latency, jobs/s.
 *   hostile  — every file of corpus/broken through every operation /v2/operations offers for its
 *              format (--short: one output per operation and engine row; full: every output): no 5xx, no stuck job, every failure a task error with a specific code (an
 *              INTERNAL_ERROR fails the part); peak RSS of the workerd process group, peak WASM memory
 *              reported per engine against its budget (no engine log line found fails the part).
 *   races    — concurrent retries, cancel/retry/delete of one task, concurrent uploads to one
 *              form: tasks left waiting with nothing to wake them (must be 0).
 *
 * Run: `npm run test:reliability` (full) or `npm run test:reliability -- --short` (CI's form:
 * fewer jobs). `--only restart,races` picks parts.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";

import { join } from "node:path";
import { startDevServer, type DevServer } from "../test/support/server.ts";
import { CORPUS } from "../test/support/corpus.ts";

const KEY = "rel-key";
const ENV = { API_KEYS: `${KEY}:rel`, MAX_OPEN_JOBS: "0" };
const H = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
const args = process.argv.slice(2);
const SHORT = args.includes("--short");
const ONLY = (() => {
  const i = args.indexOf("--only");
  return i >= 0 ? args[i + 1].split(",") : ["restart", "load", "hostile", "races"];
})();
const failures: string[] = [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const pct = (xs: number[], p: number) =>
  xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;

/** A task of the API's job JSON, the fields read here (`result`'s differ by operation: one a task lacks is undefined). */
interface TaskJson {
  id: string;
  name: string;
  status: string;
  code: string | null;
  message: string | null;
  engine: string | null;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  result: { files: { filename: string; url: string }[]; form: { url: string; parameters: Record<string, string> } };
}

/** A job of the API's JSON, the fields read here. */
interface JobJson {
  id: string;
  status: string;
  created_at: string;
  ended_at: string | null;
  tasks: TaskJson[];
}

/** Calls the API; answers the status and the JSON body, read as `{ data: D }` (a job unless the caller says otherwise). */
async function call<D = JobJson>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: { data: D } }> {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: H,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  // the shape the caller reads (an error's body has no `data`; a non-JSON body is its text, an empty one null)
  return { status: r.status, json: json as { data: D } };
}

const terminal = (s: string | undefined) => s === "finished" || s === "error";

/** Polls jobs until all are terminal or `untilMs` (epoch ms) passes (moved on by `quietMs` after each job that ends); answers the last state of each. */
async function settle(base: string, ids: string[], untilMs: number, quietMs?: number): Promise<Map<string, JobJson>> {
  const last = new Map<string, JobJson>();
  let open = ids.slice();
  // With `quietMs`, the deadline moves while jobs keep ending: a queue still draining is not stuck,
  // a job is stuck when nothing has ended for `quietMs` (and never later than 3 × untilMs's span).
  const cap = quietMs ? Date.now() + 3 * (untilMs - Date.now()) : untilMs;
  let deadline = untilMs;
  for (let first = true; open.length && (first || Date.now() < deadline); first = false) {
    const states = await Promise.all(
      open.map(async (id) => {
        try {
          return (await call(base, "GET", `/v2/jobs/${id}`)).json?.data;
        } catch {
          return null;
        }
      }),
    );
    states.forEach((s, i) => s && last.set(open[i], s));
    const before = open.length;
    open = open.filter((id) => !terminal(last.get(id)?.status));
    if (quietMs && open.length < before) deadline = Math.min(cap, Math.max(deadline, Date.now() + quietMs));
    if (open.length) await sleep(500);
  }
  return last;
}

/** Peak resident memory (VmHWM, bytes) of each workerd process in `pgid`'s group (the Workers' runtime; wrangler's own Node and esbuild are not counted), summed. */
function groupPeakRss(pgid: number): number {
  let total = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) !== pgid || !comm.startsWith("workerd")) continue;
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (m) total += Number(m[1]) * 1024;
    } catch {
      /* the process ended */
    }
  }
  return total;
}

/** Published memory budgets of the engine Workers (bytes): ImageMagick's estimate bound (engines/imagemagick/budget.ts), ExifTool's and resvg's isolate share (engines/resvg/budget.ts). */
const BUDGETS: Record<string, number> = {
  imagemagick: 120_000_000,
  exiftool: 128_000_000,
  ffmpeg: 128_000_000,
  "7z": 64_000_000,
  resvg: 128_000_000,
};

const mb = (n: number) => `${(n / 1e6).toFixed(0)} MB`;

async function restart(): Promise<void> {
  const n = SHORT ? 12 : 40;
  const jpg = readFileSync(join(CORPUS, "images/exif-orientation-Landscape_1.jpg"));
  const server = await startDevServer(ENV);
  const { persist } = server;
  const port = Number(new URL(server.base).port);
  const ids: string[] = [];
  const inputHash = sha(jpg);
  try {
    const created = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        call(server.base, "POST", "/v2/jobs", {
          tasks: {
            in: { operation: "import/base64", file: jpg.toString("base64"), filename: `in-${i}.jpg` },
            conv: { operation: "convert", input: "in", output_format: "png", width: 600 + i },
            out: { operation: "export/url", input: ["in", "conv"] },
          },
        }),
      ),
    );
    for (const r of created) {
      if (r.status !== 201) throw new Error(`restart: create answered ${r.status} ${JSON.stringify(r.json)}`);
      ids.push(r.json.data.id);
    }
    const killAt = Date.now();
    await server.crash();
    const t0 = Date.now();
    const again = await startDevServer(ENV, 120_000, { persist, port });
    const restartedAt = Date.now();
    try {
      const states = await settle(again.base, ids, restartedAt + 60_000 + 60_000);
      const ends = [...states.values()].map((j) => Date.parse(j.ended_at ?? "") || 0);
      const lastEnd = Math.max(...ends);
      // Jobs that were still running when the process died (they ended after the kill): the ones the restart had to recover.
      const inFlight = ends.filter((e) => e > killAt).length;
      const finished = ids.filter((id) => states.get(id)?.status === "finished");
      const stuck = ids.filter((id) => !terminal(states.get(id)?.status));
      let intact = 0;
      for (const id of finished) {
        const out = states.get(id)!.tasks.find((t) => t.name === "out")!;
        const conv = states.get(id)!.tasks.find((t) => t.name === "conv")!;
        const files = out.result.files;
        const orig = files.find((f) => f.filename.endsWith(".jpg"));
        const png = files.find((f) => f.filename.endsWith(".png"));
        if (!orig || !png || files.length !== 2) continue;
        const a = new Uint8Array(await (await fetch(orig.url)).arrayBuffer());
        const b = new Uint8Array(await (await fetch(png.url)).arrayBuffer());
        const w = new DataView(b.buffer).getUint32(16);
        const wanted = 600 + ids.indexOf(id);
        if (sha(a) === inputHash && b[1] === 0x50 && w === wanted && conv.status === "finished") intact++;
      }
      const within = lastEnd ? ((lastEnd - restartedAt) / 1000).toFixed(1) : "n/a";
      console.log(
        `restart — jobs ${n}, running at the kill (ended after it) ${inFlight}, finished ${finished.length}, stuck ${stuck.length}, files intact ${intact}/${finished.length}, last job ended ${within} s after the restart (restart took ${((restartedAt - t0) / 1000).toFixed(1)} s)`,
      );
      if (stuck.length || finished.length !== n || intact !== n || inFlight === 0) failures.push("restart");
    } finally {
      await again.stop();
    }
  } finally {
    await server.stop().catch(() => {});
    rmSync(persist, { recursive: true, force: true });
  }
}

async function load(): Promise<void> {
  const total = SHORT ? 200 : 1000;
  const conc = SHORT ? 32 : 64;
  const server = await startDevServer(ENV);
  try {
    const lat: number[] = [];
    let lost = 0;
    let next = 0;
    const t0 = performance.now();
    const worker = async () => {
      while (next < total) {
        const i = next++;
        const s = performance.now();
        try {
          const r = await call(server.base, "POST", "/v2/jobs", {
            tasks: {
              in: { operation: "import/raw", file: `load ${i}`, filename: `l${i}.txt` },
              out: { operation: "export/url", input: "in" },
            },
          });
          if (r.status !== 201) {
            lost++;
            continue;
          }
          const done = await call(server.base, "GET", `/sync/v2/jobs/${r.json.data.id}`);
          if (done.json?.data?.status !== "finished") lost++;
          else {
            lat.push(performance.now() - s);
            if (process.env.REL_DEBUG && performance.now() - s > 10_000)
              console.log(
                JSON.stringify(done.json.data.tasks.map((t) => [t.name, t.created_at, t.started_at, t.ended_at])),
                done.json.data.created_at,
                done.json.data.ended_at,
              );
          }
        } catch {
          lost++;
        }
      }
    };
    await Promise.all(Array.from({ length: conc }, worker));
    const secs = (performance.now() - t0) / 1000;
    console.log(
      `load — jobs ${total}, concurrency ${conc}, terminal ${lat.length + lost}, lost ${lost}, p50 ${pct(lat, 50).toFixed(0)} ms, p99 ${pct(lat, 99).toFixed(0)} ms, max ${pct(lat, 100).toFixed(0)} ms, over 10 s ${lat.filter((x) => x > 10_000).length}, ${(total / secs).toFixed(1)} jobs/s`,
    );
    if (lost) failures.push("load");
  } finally {
    await server.stop();
  }
}

async function hostile(): Promise<void> {
  const dir = join(CORPUS, "broken");
  const server = await startDevServer(ENV);
  try {
    const ops = (
      await call<{ operation: string; input_format: string | null; output_format: string | null; engine: string }[]>(
        server.base,
        "GET",
        "/v2/operations",
      )
    ).json.data;
    const runs: { file: string; operation: string; output: string | null; jobId?: string; status?: number }[] = [];
    for (const file of readdirSync(dir).sort()) {
      const ext = file.slice(file.lastIndexOf(".") + 1).toLowerCase();
      const seen = new Set<string>();
      for (const o of ops) {
        if (o.input_format !== ext || o.operation.startsWith("import/") || o.operation.startsWith("export/")) continue;
        // --short (CI): one output per operation and engine row of /v2/operations (the hostile question is whether the
        // readers cope; with issues 32–34's outputs, every output is ~550 jobs, more than the settle bound); full: every output
        // media files keep every output: ffmpeg's WebAssembly budget is judged only for outputs that reach its Worker
        const perOutput = !SHORT || o.engine.startsWith("ffmpeg");
        const k = perOutput ? `${o.operation}|${o.output_format}` : `${o.operation}|${o.engine}`;
        if (seen.has(k)) continue;
        seen.add(k);
        runs.push({ file, operation: o.operation, output: o.output_format });
      }
    }
    let fivexx = 0;
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, groupPeakRss(server.pid));
    }, 500);
    const queue = runs.slice();
    const worker = async () => {
      for (let r = queue.shift(); r; r = queue.shift()) {
        const bytes = readFileSync(join(dir, r.file));
        const task: Record<string, unknown> = {
          operation: r.operation,
          input: "in",
          ...(r.output ? { output_format: r.output } : {}),
        };
        if (r.operation === "watermark") task.text = "x";
        if (r.operation === "pdf/encrypt") task.set_password = "x";
        if (r.operation === "metadata/write") task.metadata = { Title: "x" };
        const c = await call(server.base, "POST", "/v2/jobs", {
          tasks: { in: { operation: "import/base64", file: bytes.toString("base64"), filename: r.file }, op: task },
        });
        r.status = c.status;
        if (c.status >= 500) fivexx++;
        if (c.status === 201) r.jobId = c.json.data.id;
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    const jobIds = runs.flatMap((r) => (r.jobId ? [r.jobId] : []));
    // quiet window: longer than the longest run a native tool is allowed on one file (60 s: poppler, calibre's and
    // Inkscape's PDF input), since a queue batch holding such a run ends only when it does — that is slow, not stuck
    const states = await settle(server.base, jobIds, Date.now() + 180_000, 90_000);
    clearInterval(sampler);
    peak = Math.max(peak, groupPeakRss(server.pid));
    const stuck = jobIds.filter((id) => !terminal(states.get(id)?.status)).length;
    const tasks = jobIds
      .map((id) => states.get(id)?.tasks?.find((t) => t.name === "op"))
      .filter((t): t is TaskJson => Boolean(t));
    const errors = tasks.filter((t) => t.status === "error");
    const withCode = errors.filter((t) => typeof t.code === "string" && t.code !== "INTERNAL_ERROR").length;
    const internal = errors.filter((t) => t.code === "INTERNAL_ERROR");
    const refused = runs.filter((r) => r.status && r.status >= 400 && r.status < 500).length;
    // Engine Workers log `engine <name>.<method> <outcome> ms=<n> wasm_memory_bytes=<n>` per call (wasm/entry.ts).
    const wasm = new Map<string, { peak: number; calls: number }>();
    for (const m of server.log().matchAll(/engine (\w+)\.\w+ \S+ ms=-?\d+ wasm_memory_bytes=(\d+)/g)) {
      const e = wasm.get(m[1]) ?? { peak: 0, calls: 0 };
      wasm.set(m[1], { peak: Math.max(e.peak, Number(m[2])), calls: e.calls + 1 });
    }
    const perEngine =
      [...wasm].map(([e, v]) => `${e} ${mb(v.peak)} of ${mb(BUDGETS[e] ?? NaN)} over ${v.calls} calls`).join(", ") ||
      "none reported";
    for (const [e, v] of wasm)
      if (BUDGETS[e] && v.peak > BUDGETS[e]) failures.push(`hostile: ${e} WASM memory ${mb(v.peak)} over its budget`);
    console.log(
      `hostile — runs ${runs.length} (${jobIds.length} jobs, ${refused} refused 4xx at create), finished ${tasks.length - errors.length}, task errors ${errors.length} (with a specific code ${withCode}, INTERNAL_ERROR ${internal.length}), 5xx ${fivexx}, stuck ${stuck}, peak RSS of workerd (api + engine Workers in one process) ${mb(peak)}, peak WASM memory per engine: ${perEngine}`,
    );
    for (const r of runs) {
      const t = r.jobId ? states.get(r.jobId)?.tasks?.find((x) => x.name === "op") : undefined;
      if (t?.status === "error" && (typeof t.code !== "string" || t.code === "INTERNAL_ERROR"))
        console.log(
          `  ${t.code ?? "no code"}: ${r.file} ${r.operation}${r.output ? ` → ${r.output}` : ""} (${t.engine ?? "no engine"}): ${String(t.message).slice(0, 200)}`,
        );
    }
    for (const r of runs) {
      const st = r.jobId ? states.get(r.jobId) : undefined;
      if (r.jobId && !terminal(st?.status))
        console.log(
          `  stuck: ${r.file} ${r.operation}${r.output ? ` → ${r.output}` : ""} (op task ${st?.tasks?.find((t) => t.name === "op")?.status ?? "unknown"})`,
        );
    }
    // every failure a task error with a specific code: INTERNAL_ERROR (or no code) is a bug the sweep found, not a pass
    const uncoded = errors.length - withCode;
    if (fivexx || stuck || uncoded)
      failures.push(
        `hostile${uncoded ? `: ${internal.length} INTERNAL_ERROR, ${uncoded - internal.length} without a code` : ""}`,
      );
    // the memory check judged nothing unless the engine Workers' log lines were found: none matched, or none of an engine
    // the tasks say ran (its budget then went unchecked), fails it
    const ran = new Set(
      tasks.map((t) => t.engine).filter((e: unknown): e is string => typeof e === "string" && e in BUDGETS),
    );
    if (wasm.size === 0) failures.push("hostile: no engine log line matched: WASM memory unchecked");
    for (const e of ran)
      if (!wasm.has(e)) failures.push(`hostile: ${e} ran but logged no WASM memory: its budget unchecked`);
  } catch (err) {
    // what the server said last (a request cut off mid-answer: did workerd or the native engine die?)
    console.log(`hostile: the server's last log lines:\n${server.log().split("\n").slice(-40).join("\n")}`);
    throw err;
  } finally {
    await server.stop();
  }
}

async function races(): Promise<void> {
  const rounds = SHORT ? 5 : 20;
  const server = await startDevServer(ENV);
  try {
    const jobIds: string[] = [];
    for (let i = 0; i < rounds; i++) {
      // Ten concurrent retries of one finished task.
      const a = await call(server.base, "POST", "/sync/v2/jobs", {
        tasks: {
          in: { operation: "import/raw", file: `r${i}`, filename: "r.txt" },
          out: { operation: "export/url", input: "in" },
        },
      });
      const job = a.json.data;
      jobIds.push(job.id);
      const out = job.tasks.find((t) => t.name === "out")!;
      await Promise.all(Array.from({ length: 10 }, () => call(server.base, "POST", `/v2/tasks/${out.id}/retry`)));
      // Cancel, retry and delete of one task at once.
      const b = await call(server.base, "POST", "/sync/v2/jobs", {
        tasks: {
          in: { operation: "import/raw", file: `s${i}`, filename: "s.txt" },
          out: { operation: "export/url", input: "in" },
        },
      });
      jobIds.push(b.json.data.id);
      const bout = b.json.data.tasks.find((t) => t.name === "out")!;
      await Promise.all([
        call(server.base, "POST", `/v2/tasks/${bout.id}/retry`),
        call(server.base, "POST", `/v2/tasks/${bout.id}/cancel`),
        call(server.base, "DELETE", `/v2/tasks/${bout.id}`),
        call(server.base, "POST", `/v2/tasks/${bout.id}/retry`),
      ]);
      // Five concurrent uploads to one form.
      const c = await call(server.base, "POST", "/v2/jobs", {
        tasks: { up: { operation: "import/upload" }, out: { operation: "export/url", input: "up" } },
      });
      jobIds.push(c.json.data.id);
      const form = c.json.data.tasks.find((t) => t.name === "up")!.result.form;
      const answers = await Promise.all(
        Array.from({ length: 5 }, async (_, k) => {
          const fd = new FormData();
          for (const [key, v] of Object.entries(form.parameters as Record<string, string>)) fd.append(key, v);
          fd.append("file", new Blob([`upload ${k}`]), `u${k}.txt`);
          return (await fetch(form.url, { method: "POST", body: fd })).status;
        }),
      );
      if (answers.filter((s) => s === 201).length !== 1)
        failures.push(`races: ${answers.filter((s) => s === 201).length} uploads accepted of 5`);
    }
    const states = await settle(server.base, jobIds, Date.now() + 60_000);
    let waiting = 0;
    let uploadsIntact = 0;
    for (const id of jobIds) {
      const j = states.get(id);
      waiting += (j?.tasks ?? []).filter((t) => !terminal(t.status)).length;
      const up = j?.tasks?.find((t) => t.name === "up");
      if (up) {
        const out = j!.tasks.filter((t) => t.name === "out").pop();
        const url = out?.result?.files?.[0]?.url;
        const body = url ? await (await fetch(url)).text() : "";
        if (new RegExp(`^upload \\d$`).test(body) && `u${body.slice(-1)}.txt` === up.result?.files?.[0]?.filename)
          uploadsIntact++;
      }
    }
    console.log(
      `races — rounds ${rounds} (10 retries; retry+cancel+delete+retry; 5 uploads to one form), jobs ${jobIds.length}, tasks left waiting ${waiting}, uploads intact ${uploadsIntact}/${rounds}`,
    );
    if (waiting || uploadsIntact !== rounds) failures.push("races");
  } finally {
    await server.stop();
  }
}

const parts: Record<string, () => Promise<void>> = { restart, load, hostile, races };
for (const name of ONLY) {
  try {
    await parts[name]();
  } catch (err) {
    console.log(`${name} — failed: ${(err as Error).stack ?? err}`);
    failures.push(name);
  }
}
if (failures.length) {
  console.log(`reliability: FAILED ${failures.join(", ")}`);
  process.exit(1);
}
