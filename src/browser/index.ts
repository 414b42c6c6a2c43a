/**
 * edge-convert in the browser (issue 19): `runJob` runs a job — the same `{tasks: {...}}` JSON the
 * API takes — on the page's own files, in a Web Worker, with the same operations and engines as
 * the service, and answers the same job object the API returns plus the exported files as Blobs.
 * Nothing is uploaded. This module is the whole entry: the worker (worker.js beside it) and each
 * engine's .wasm are fetched only when a job needs them.
 *
 *   import { runJob } from "/browser/edge-convert.js";
 *   const { job, outputs } = await runJob({ tasks: {
 *     in: { operation: "import/upload" },
 *     small: { operation: "convert", input: "in", output_format: "webp", width: 800 },
 *     out: { operation: "export/url", input: "small" } } }, { files: { in: fileFromAnInput } });
 *
 * A job the browser cannot run entirely (native engine, Browser Rendering) ends with tasks in
 * ENGINE_UNAVAILABLE. `canRunLocally` says beforehand which tasks cannot and why (issue 47), and `runJobHybrid` runs a
 * job here when it can and otherwise sends it to an API deployment, answering the same shape either way.
 */
import type { JobJson } from "../model/types";
import type { JobCapability } from "./capability";
import type { CapabilityMessage, RunMessage, WorkerMessage } from "./protocol";

export type { JobCapability, TaskCapability } from "./capability";

/** Options of one run. */
export interface RunJobOptions {
  /** The file of each import/upload task, by task name. */
  files?: Record<string, Blob>;
  /** Called after every change with the job as the API would show it. */
  onProgress?(job: JobJson): void;
  /** Cancels the job. */
  signal?: AbortSignal;
  /** Where worker.js and the engines' assets are; defaults to this module's folder. */
  assets?: string | URL;
}

/** An exported file. */
export interface JobOutput {
  task: string;
  filename: string;
  blob: Blob;
}

/** A job the API would refuse (422), or a failure of the worker itself: `code`, `errors` as the API's body. */
export class JobError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status?: number,
    readonly errors?: Record<string, string[]>,
  ) {
    super(message);
  }
}

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<
  number,
  {
    resolve(r: { job: JobJson; outputs: JobOutput[] } | JobCapability): void;
    reject(e: Error): void;
    onProgress?(job: JobJson): void;
  }
>();

function workerAt(assets: string): Worker {
  if (worker) return worker;
  worker = new Worker(new URL("worker.js", assets), { type: "module", name: "edge-convert" });
  worker.onmessage = (e: MessageEvent<WorkerMessage>) => {
    const m = e.data;
    const p = pending.get(m.id);
    if (!p) return;
    if (m.type === "progress") return p.onProgress?.(m.job);
    pending.delete(m.id);
    if (m.type === "done") p.resolve({ job: m.job, outputs: m.outputs });
    else if (m.type === "capability") p.resolve(m.capability);
    else p.reject(new JobError(m.error.message, m.error.code, m.error.status, m.error.errors));
  };
  worker.onerror = (e) => {
    for (const p of pending.values())
      p.reject(new JobError(`The engine worker failed: ${e.message}`, "INTERNAL_ERROR"));
    pending.clear();
    worker = undefined;
  };
  return worker;
}

/** The assets folder of `o`, ending in `/` (default: this module's folder). */
function assetsOf(o: { assets?: string | URL }): string {
  const assets = String(o.assets ?? new URL(".", import.meta.url));
  return assets.endsWith("/") ? assets : `${assets}/`;
}

/** Runs a job in this browser. @throws JobError with the API's 422 body when the job is invalid */
export function runJob(
  job: { tasks: Record<string, unknown>; tag?: string },
  o: RunJobOptions = {},
): Promise<{ job: JobJson; outputs: JobOutput[] }> {
  const assets = assetsOf(o);
  const w = workerAt(assets);
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve: resolve as (r: unknown) => void, reject, onProgress: o.onProgress });
    o.signal?.addEventListener("abort", () => w.postMessage({ type: "cancel", id }), { once: true });
    const message: RunMessage = {
      type: "run",
      id,
      job,
      files: o.files ?? {},
      assets,
    };
    w.postMessage(message);
  });
}

/**
 * Whether `job` can run entirely in this browser, task by task, with why not (the engines that would run a task and
 * where: "libreoffice (native)"). Routing is the service's own, with the formats of `files` (names are enough).
 * @throws JobError with the API's 422 body when the job is invalid
 */
export function canRunLocally(
  job: { tasks: Record<string, unknown> },
  o: { files?: Record<string, Blob | string>; assets?: string | URL } = {},
): Promise<JobCapability> {
  const assets = assetsOf(o);
  const w = workerAt(assets);
  const id = nextId++;
  const files = Object.fromEntries(
    Object.entries(o.files ?? {}).map(([task, f]) => [task, typeof f === "string" ? f : (f as File).name || task]),
  );
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve: resolve as (r: unknown) => void, reject });
    const message: CapabilityMessage = { type: "capability", id, job, files, assets };
    w.postMessage(message);
  });
}

/** An API deployment to send jobs to: its base URL and an API key. */
export interface ApiTarget {
  url: string;
  key: string;
}

/** A failed API answer as a JobError: CloudConvert's error body (`message`, `code`, `errors`). */
async function apiError(r: Response, what: string): Promise<JobError> {
  const body = (await r.json().catch(() => ({}))) as {
    message?: string;
    code?: string;
    errors?: Record<string, string[]>;
  };
  return new JobError(body.message ?? `${what}: HTTP ${r.status}`, body.code ?? "API_ERROR", r.status, body.errors);
}

/** The fields of the API's job object the hybrid run reads. */
interface ApiJob {
  id: string;
  status: string;
  tasks: ApiTask[];
}

/** The fields of the API's task object the hybrid run reads. */
interface ApiTask {
  name: string;
  operation: string;
  status: string;
  result?: { form?: { url: string; parameters: Record<string, string> }; files?: { filename: string; url: string }[] };
}

/**
 * Runs `job` through the API at `api` as the official SDKs do: creates it, uploads each import/upload task's file to
 * its form, waits for it (GET /v2/jobs/{id}/wait) and downloads the export/url files.
 * @throws JobError with the API's error body when a request is refused
 */
async function runOnApi(
  job: { tasks: Record<string, unknown>; tag?: string },
  o: RunJobOptions & { api: ApiTarget },
): Promise<{ job: JobJson; outputs: JobOutput[] }> {
  const base = o.api.url.replace(/\/+$/, "");
  const headers = { authorization: `Bearer ${o.api.key}`, "content-type": "application/json" };
  const created = await fetch(`${base}/v2/jobs`, {
    method: "POST",
    headers,
    body: JSON.stringify(job),
    signal: o.signal,
  });
  if (!created.ok) throw await apiError(created, "creating the job");
  let data = (await created.json()).data as ApiJob;
  for (const t of data.tasks.filter((t) => t.operation === "import/upload")) {
    const file = o.files?.[t.name];
    const form = t.result?.form;
    if (!file || !form) throw new JobError(`No file or upload form for task ${t.name}.`, "INVALID_DATA");
    const body = new FormData();
    for (const [k, v] of Object.entries(form.parameters ?? {})) body.append(k, String(v));
    body.append("file", file, (file as File).name || t.name);
    const up = await fetch(form.url, { method: "POST", body, signal: o.signal });
    if (!up.ok) throw await apiError(up, `uploading ${t.name}`);
  }
  do {
    const waited = await fetch(`${base}/v2/jobs/${data.id}/wait`, { headers, signal: o.signal });
    if (!waited.ok) throw await apiError(waited, "waiting for the job");
    data = (await waited.json()).data as ApiJob;
    o.onProgress?.(data as unknown as JobJson);
  } while (data.status !== "finished" && data.status !== "error");
  const outputs: JobOutput[] = [];
  for (const t of data.tasks.filter((t) => t.operation === "export/url" && t.status === "finished"))
    for (const f of t.result?.files ?? []) {
      const r = await fetch(f.url, { signal: o.signal });
      if (!r.ok) throw await apiError(r, `downloading ${f.filename}`);
      outputs.push({ task: t.name, filename: f.filename, blob: await r.blob() });
    }
  return { job: data as unknown as JobJson, outputs };
}

/**
 * The hybrid run (issue 47): `job` runs in this browser when every task can (canRunLocally), and otherwise is sent to
 * the API at `o.api`. Either way the answer has the same shape — the job as the API shows it and the exported files as
 * Blobs — and `where` says which ran it; `capability` is the local answer that decided.
 * @throws JobError with the API's 422 body when the job is invalid, or the API's error body when it refuses a request
 */
export async function runJobHybrid(
  job: { tasks: Record<string, unknown>; tag?: string },
  o: RunJobOptions & { api: ApiTarget },
): Promise<{ job: JobJson; outputs: JobOutput[]; where: "browser" | "api"; capability: JobCapability }> {
  const capability = await canRunLocally(job, o);
  if (capability.local) return { ...(await runJob(job, o)), where: "browser", capability };
  return { ...(await runOnApi(job, o)), where: "api", capability };
}
