/**
 * The capacity model's measured inputs (issue 48, docs/capacity.md): a typical job of each family, run one at a time
 * through `npm start` (wrangler dev, every engine Worker, the native engine, the local Browser Rendering binding on
 * Debian's Chromium), `jobs` times after one warm-up. For each family it prints the job's median wall time and the CPU
 * time each part of the deployment spent per job, read from /proc before and after the family's jobs:
 *   workers  workerd (the api Worker, its Durable Objects and the engine Workers share one process here)
 *   native   the native engine's server and every tool under it (soffice, ffmpeg, calibre…)
 *   browser  Chromium (what Browser Rendering runs)
 * the native engine's peak resident memory while the family ran, and the jobs per second this machine (2 cores: every
 * part shares them) finishes with 8 jobs at once (BURST jobs; families over 5 s a job are not run so). CPU is utime + stime + cutime + cstime of every
 * live process of the server's tree (a tool that ended is counted in its parent's cutime once reaped; LibreOffice's
 * processes, reparented to init by their launcher, are found by their UserInstallation under the native engine's
 * folder). Not a test: figures only. Run: `npm run bench -- capacity` (or `node scripts/bench-capacity.ts`).
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { startDevServer } from "../test/support/server.ts";
import { rss } from "../test/support/proc-memory.ts";
import { ROOT, median } from "./bench-kit.ts";

const KEY = "bench-key";
const CORPUS = process.env.CORPUS_DIR ?? join(ROOT, "..", "shared", "corpus");
/** The saturation run: this many jobs, CONCURRENCY at a time. */
const BURST = 32;
const CONCURRENCY = 8;
/** Clock ticks per second of /proc's CPU fields (Linux's USER_HZ). */
const HZ = 100;

interface Family {
  name: string;
  /** The job's tasks besides its export/url (`in` … `work`); `work` is exported. */
  tasks: () => Record<string, Record<string, unknown>>;
}

const b64 = (rel: string) => readFileSync(join(CORPUS, rel)).toString("base64");
const file = (rel: string) => ({
  operation: "import/base64",
  file: b64(rel),
  filename: rel.split("/").pop(),
});
const convert =
  (rel: string, output_format: string): Family["tasks"] =>
  () => ({
    in: file(rel),
    work: { operation: "convert", input: "in", output_format },
  });

const FAMILIES: Family[] = [
  { name: "image png → webp", tasks: convert("images/cloudconvert-input.png", "webp") },
  {
    name: "pdf merge (2 files, 13 pages)",
    tasks: () => ({
      a: file("pdf/cloudconvert-input.pdf"),
      b: file("pdf/gotenberg-pages_12.pdf"),
      work: { operation: "merge", input: ["a", "b"], output_format: "pdf" },
    }),
  },
  { name: "pdf → png (page 1)", tasks: convert("pdf/cloudconvert-input.pdf", "png") },
  { name: "office docx → pdf", tasks: convert("office/gotenberg-pages_3.docx", "pdf") },
  {
    name: "web html → pdf",
    tasks: () => ({
      in: { operation: "import/raw", file: "<h1>Invoice 42</h1><p>One line of text.</p>", filename: "i.html" },
      work: { operation: "convert", input: "in", output_format: "pdf" },
    }),
  },
  { name: "audio mp3 → m4a", tasks: convert("audio/tika-en-US_A_Little_Bottle_Of_Water.mp3", "m4a") },
  { name: "video mp4 → webm", tasks: convert("video/tika-en-US_Hi.mp4", "webm") },
  { name: "archive zip → tar.gz", tasks: convert("archives/yauzl-linux-info-zip.zip", "tar.gz") },
  {
    name: "ocr (scanned pdf page)",
    tasks: () => ({ in: file("scans/ocrmypdf-c02-22.pdf"), work: { operation: "pdf/ocr", input: "in" } }),
  },
  { name: "ebook epub → pdf", tasks: convert("ebooks/filetype-fixture.epub", "pdf") },
];

/** Every process as pid → its parent, name, command line and CPU ticks (own and reaped children's). */
function processes(): Map<number, { ppid: number; comm: string; cmd: string; ticks: number }> {
  const out = new Map<number, { ppid: number; comm: string; cmd: string; ticks: number }>();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const f = stat.slice(close + 2).split(" ");
      const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
      const cmd = readFileSync(`/proc/${d}/cmdline`, "utf8").replace(/\0/g, " ");
      out.set(Number(d), { ppid: Number(f[1]), comm: stat.slice(stat.indexOf("(") + 1, close), cmd, ticks });
    } catch {
      /* ended meanwhile */
    }
  }
  return out;
}

type Part = "workers" | "native" | "browser";

/** The CPU ticks of each part of the server whose process group leader is `root`, and the native engine's pids. */
function partTicks(root: number): { ticks: Record<Part, number>; native: number[] } {
  const all = processes();
  const under = (pid: number, top: number) => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; hops++) {
      if (p === top) return true;
      p = all.get(p)?.ppid ?? 0;
    }
    return false;
  };
  const server = [...all].find(([pid, p]) => under(pid, root) && p.cmd.includes("container/server.ts"))?.[0];
  const ticks: Record<Part, number> = { workers: 0, native: 0, browser: 0 };
  const native: number[] = [];
  for (const [pid, p] of all) {
    // soffice's launcher is reparented to init: its processes are known by the native engine's profile folder
    const office = p.comm.startsWith("soffice") || p.comm === "oosplash";
    if (server && (under(pid, server) || (office && p.cmd.includes("native-engine-")))) {
      ticks.native += p.ticks;
      native.push(pid);
    } else if (!under(pid, root)) continue;
    else if (p.comm === "workerd") ticks.workers += p.ticks;
    else if (/chrom/i.test(p.comm)) ticks.browser += p.ticks;
  }
  return { ticks, native };
}

/** Runs one job of `family` and waits for it; returns its wall time and the engine of its `work` task. */
async function oneJob(base: string, family: Family): Promise<{ ms: number; engine: string }> {
  const h = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
  const t0 = performance.now();
  const created = await fetch(`${base}/v2/jobs`, {
    method: "POST",
    headers: h,
    body: JSON.stringify({ tasks: { ...family.tasks(), out: { operation: "export/url", input: "work" } } }),
  });
  if (created.status !== 201) throw new Error(`${family.name}: HTTP ${created.status} ${await created.text()}`);
  const id = ((await created.json()) as { data: { id: string } }).data.id;
  const done = (await (await fetch(`${base}/sync/v2/jobs/${id}`, { headers: h })).json()) as {
    data: { status: string; tasks: { name: string; engine?: string; message?: string; code?: string }[] };
  };
  const ms = performance.now() - t0;
  const work = done.data.tasks.find((t) => t.name === "work");
  if (done.data.status !== "finished") throw new Error(`${family.name}: ${work?.code} ${work?.message}`);
  return { ms, engine: work?.engine ?? "?" };
}

/** Runs the families `jobs` times each and prints (and answers) one row per family. */
export async function benchCapacity(jobs = 5): Promise<string[]> {
  const server = await startDevServer({ API_KEYS: `${KEY}:bench` }, 180_000);
  const rows: string[] = [];
  try {
    console.log(`capacity: ${jobs} jobs a family, one at a time, after one warm-up (CPU per job, ms)`);
    console.log(
      `family | engine | wall p50 ms | workers CPU ms | native CPU ms | browser CPU ms | native peak RSS MiB | jobs/s at ${CONCURRENCY} at once`,
    );
    for (const family of FAMILIES) {
      await oneJob(server.base, family); // warm-up: the engine's module compiled, LibreOffice's pool, Chromium
      const before = partTicks(server.pid);
      const nativeRss = () => partTicks(server.pid).native.reduce((sum, pid) => sum + rss(pid), 0);
      let peak = nativeRss();
      const sampler = setInterval(() => (peak = Math.max(peak, nativeRss())), 200);
      const walls: number[] = [];
      let engine = "";
      for (let i = 0; i < jobs; i++) {
        const r = await oneJob(server.base, family);
        walls.push(r.ms);
        engine = r.engine;
      }
      clearInterval(sampler);
      const after = partTicks(server.pid);
      const per = (p: Part) => Math.round((((after.ticks[p] - before.ticks[p]) / HZ) * 1000) / jobs);
      peak = Math.max(peak, nativeRss());
      // saturation on this machine: BURST jobs, CONCURRENCY at a time (families under 5 s a job)
      let rate = "";
      if (median(walls) < 5000) {
        const t0 = performance.now();
        let next = 0;
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            while (next++ < BURST) await oneJob(server.base, family);
          }),
        );
        rate = (BURST / ((performance.now() - t0) / 1000)).toFixed(1);
      }
      const row = `${family.name} | ${engine} | ${Math.round(median(walls))} | ${per("workers")} | ${per("native")} | ${per("browser")} | ${Math.round(peak / 2 ** 20)} | ${rate || "–"}`;
      rows.push(row);
      console.log(row);
    }
  } finally {
    await server.stop();
  }
  return rows;
}
