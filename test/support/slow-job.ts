/**
 * What the slow project's large-file tests (test/slow, issues 35 and 49) share: a loopback server for the files a test
 * generates (`serveFiles`), this service started for import/url from loopback with the native tools' memory limit
 * (`startSlowServer`), both set up and torn down around a test file with its temporary folder (`slowRig`), an SDK job
 * run to its end (`runJob`), its export/url files downloaded (`downloadExports`), and the two together while the
 * resident memory of workerd and of the native engine's server is watched (`runSlowJob`, proc-memory.ts), reported by
 * `growthLine`. Each test keeps its own file, oracles and memory bounds.
 */
import type CloudConvert from "cloudconvert";
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { afterAll, beforeAll, expect } from "vitest";
import { peakBetween, watchServerMemory, type Growth } from "./proc-memory";
import { sdk, pollJob, type JobBody } from "./sdk";
import { startDevServer, type DevServer } from "./server";
import { scaled } from "./time-scale";

/** 10^6 bytes: the unit the slow tests report in. */
export const MB = 1e6;

/** `bytes` in MB (10^6), no decimals, as the slow tests' log lines print them. */
export const mb = (bytes: number): string => (bytes / MB).toFixed(0);

/** Milliseconds as seconds with one decimal, as the slow tests' log lines print them. */
export const secs = (ms: number): string => (ms / 1000).toFixed(1);

/** A job as the SDK answers it (`jobs.get`), and one of its tasks. */
export type Job = Awaited<ReturnType<CloudConvert["jobs"]["get"]>>;
export type Task = Job["tasks"][number];

/** What the loopback file server serves: URL path (e.g. "/scan.pdf") → the file on disk and its Content-Type. */
export type Served = Record<string, { path: string; type: string }>;

/** A running loopback file server. */
export interface FileServer {
  /** `http://127.0.0.1:<port>`, the prefix of the served paths. */
  base: string;
  /** Closes the server and every open connection. */
  stop(): Promise<void>;
}

/**
 * Serves `routes` on a free loopback port: GET of a listed path answers 200 with the file's Content-Length (read when
 * asked, so a file may be written after the server starts) and its bytes streamed from disk; any other path 404.
 */
export async function serveFiles(routes: Served): Promise<FileServer> {
  const server = createServer((req, res) => {
    const route = routes[req.url ?? ""];
    if (!route) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": route.type, "content-length": String(statSync(route.path).size) });
    createReadStream(route.path).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((r) => (server.close(() => r()), server.closeAllConnections())),
  };
}

/** How a slow test's server is started. */
export interface SlowServerOptions {
  /** The API key (`API_KEYS` is `key:user`). */
  key: string;
  user: string;
  /**
   * NATIVE_MEMORY_MB: the address-space limit (RLIMIT_AS) of every native tool run, MB; set below the file's size, the
   * job finishing shows no tool held the file whole (issue 49). Unset: the server's default (2048).
   */
  nativeMemoryMb?: number;
  /** Further variables (NATIVE_STREAM_BYTES, NATIVE_OFFICE_MEMORY_MB, NATIVE: "off" …). */
  env?: Record<string, string>;
}

/**
 * Starts this service (`npm start`: wrangler dev and the native engine) with the key, ALLOW_PRIVATE_IMPORTS=true (so
 * import/url may fetch from loopback) and the given limits, waiting for it up to 300 s (scaled to the machine's load).
 * @throws Error when it does not answer in time (startDevServer)
 */
export function startSlowServer(o: SlowServerOptions): Promise<DevServer> {
  return startDevServer(
    {
      API_KEYS: `${o.key}:${o.user}`,
      ALLOW_PRIVATE_IMPORTS: "true",
      ...(o.nativeMemoryMb ? { NATIVE_MEMORY_MB: String(o.nativeMemoryMb) } : {}),
      ...o.env,
    },
    scaled(300_000),
  );
}

/** A slow test file's fixtures, filled in by its beforeAll. */
export interface SlowRig {
  /** The service. */
  server: DevServer;
  /** The API key the server accepts. */
  key: string;
  /** The loopback file server's base URL (import/url's `url` is `${base}${path}`). */
  base: string;
  /** The temporary folder the files are generated in (and downloads written to); deleted after the file. */
  dir: string;
  /** How long `generate` took, ms. */
  generateMs: number;
}

/**
 * Registers the test file's beforeAll and afterAll: a temporary folder `<tmp>/large-<name>-…`, `generate(dir)` (timed;
 * it writes the test's files and answers what to serve), the loopback file server for them and the service
 * (startSlowServer); afterAll stops both and deletes the folder, generated files and downloads with it. The rig's
 * fields are set once beforeAll has run. `setupMs` bounds beforeAll (default 600 s, scaled).
 */
export function slowRig(
  o: SlowServerOptions & { name: string; generate(dir: string): Served | Promise<Served>; setupMs?: number },
): SlowRig {
  const rig = { key: o.key, generateMs: 0 } as SlowRig;
  let files: FileServer | undefined;
  beforeAll(
    async () => {
      rig.dir = mkdtempSync(join(tmpdir(), `large-${o.name}-`));
      const t0 = Date.now();
      const routes = await o.generate(rig.dir);
      rig.generateMs = Date.now() - t0;
      files = await serveFiles(routes);
      rig.base = files.base;
      rig.server = await startSlowServer(o);
    },
    scaled(o.setupMs ?? 600_000),
  );
  afterAll(async () => {
    await rig.server?.stop();
    await files?.stop();
    if (rig.dir) rmSync(rig.dir, { recursive: true, force: true });
  });
  return rig;
}

/** A job run to its end: the job, how long from create to its end (ms), a task by name. */
export interface JobRun {
  job: Job;
  jobMs: number;
  /** The job's task named `name`. @throws Error when there is none */
  task(name: string): Task;
}

/**
 * Creates a job of `tasks` with the SDK (`cc.jobs.create`; an operation beyond the SDK's union is sent as given) and
 * polls it to its end (pollJob), asserting (expect) that it finished — the failure names each task's code and message.
 */
export async function runJob(cc: CloudConvert, tasks: Record<string, Record<string, unknown>>): Promise<JobRun> {
  const t0 = Date.now();
  const created = await cc.jobs.create({ tasks } as unknown as JobBody);
  const job = await pollJob(cc, created.id);
  const jobMs = Date.now() - t0;
  expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.code, t.message]))).toBe("finished");
  const task = (name: string) => {
    const t = job.tasks.find((x) => x.name === name);
    if (!t) throw new Error(`the job has no task ${name}`);
    return t;
  };
  return { job, jobMs, task };
}

/** A file downloaded from an export/url task: its export filename and where it was written. */
export interface Downloaded {
  filename: string;
  path: string;
}

/**
 * Downloads every export/url file of `job` (cc.jobs.getExportUrls, in its order), streamed to disk, each at
 * `pathOf(filename)` (default `dir/filename`); asserts each answers 200. Answers the files and the time taken (ms).
 */
export async function downloadExports(
  cc: CloudConvert,
  job: Job,
  dir: string,
  pathOf: (filename: string) => string = (f) => join(dir, f),
): Promise<{ files: Downloaded[]; downloadMs: number }> {
  const t0 = Date.now();
  const files: Downloaded[] = [];
  for (const f of cc.jobs.getExportUrls(job)) {
    const res = await fetch(f.url!);
    expect(res.status).toBe(200);
    const path = pathOf(f.filename!);
    await pipeline(Readable.fromWeb(res.body as never), createWriteStream(path));
    files.push({ filename: f.filename!, path });
  }
  return { files, downloadMs: Date.now() - t0 };
}

/** A slow job's run: the job, its downloads, and the memory of workerd and the native server over both. */
export interface SlowRun extends JobRun {
  cc: CloudConvert;
  files: Downloaded[];
  downloadMs: number;
  /** Each group's idle size (measured for 2 s before the job) and its peak from the job's creation to the last download's end. */
  memory: { workerd: Growth; native: Growth };
}

/**
 * Runs `tasks` through the SDK on the rig's server (runJob), downloads its export/url files (downloadExports; none when
 * `download` is false) and watches the resident memory of workerd and the native engine's server (watchServerMemory)
 * from before the job until the last download has ended.
 * @throws Error when the server's workerd or native server is not found (watchServerMemory); an expect when the job
 *   does not finish or a download is not a 200
 */
export async function runSlowJob(
  rig: SlowRig,
  tasks: Record<string, Record<string, unknown>>,
  o: { download?: boolean; pathOf?: (filename: string) => string } = {},
): Promise<SlowRun> {
  const watch = await watchServerMemory(rig.server.pid);
  const cc = sdk(rig.key, rig.server.base);
  const run = await runJob(cc, tasks);
  const got =
    o.download === false ? { files: [], downloadMs: 0 } : await downloadExports(cc, run.job, rig.dir, o.pathOf);
  return { ...run, cc, ...got, memory: watch.stop() };
}

/**
 * The memory of a run as the slow tests' log lines print it: "workerd RSS idle I MB, peak P MB (+G MB); native server
 * RSS idle …" (MB = 10^6 bytes).
 */
export function growthLine(m: { workerd: Growth; native: Growth }): string {
  const one = (g: Growth) => `idle ${mb(g.idle)} MB, peak ${mb(g.peak)} MB (+${mb(g.peak - g.idle)} MB)`;
  return `workerd RSS ${one(m.workerd)}; native server RSS ${one(m.native)}`;
}

/** A process group's growth during one task: its size as the task started, its peak during it, bytes. */
export interface TaskGrowth {
  /** The last sample taken before the task's `started_at` (its idle size when there is none). */
  before: number;
  /** The largest sample from `started_at` to a second after `ended_at` (the API's times are whole seconds). */
  peak: number;
}

/**
 * `g`'s growth during `task` over its size as the task started (after what came before it in the job, e.g. an
 * import's put through the R2 simulator, whose pages stay resident): what the task itself added.
 */
export function growthDuring(g: Growth, task: Task): TaskGrowth {
  const from = Date.parse(task.started_at ?? task.created_at);
  const to = Date.parse(task.ended_at!) + 1000;
  const before = g.samples.filter((s) => s.at < from).at(-1)?.rss ?? g.idle;
  return { before, peak: Math.max(before, peakBetween(g.samples, from, to)) };
}
