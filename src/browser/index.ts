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
 * ENGINE_UNAVAILABLE; send such jobs to the API instead.
 */
import type { JobJson } from "../model/types";
import type { RunMessage, WorkerMessage } from "./protocol";

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
  { resolve(r: { job: JobJson; outputs: JobOutput[] }): void; reject(e: Error): void; onProgress?(job: JobJson): void }
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

/** Runs a job in this browser. @throws JobError with the API's 422 body when the job is invalid */
export function runJob(
  job: { tasks: Record<string, unknown>; tag?: string },
  o: RunJobOptions = {},
): Promise<{ job: JobJson; outputs: JobOutput[] }> {
  const assets = String(o.assets ?? new URL(".", import.meta.url));
  const w = workerAt(assets.endsWith("/") ? assets : `${assets}/`);
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject, onProgress: o.onProgress });
    o.signal?.addEventListener("abort", () => w.postMessage({ type: "cancel", id }), { once: true });
    const message: RunMessage = {
      type: "run",
      id,
      job,
      files: o.files ?? {},
      assets: assets.endsWith("/") ? assets : `${assets}/`,
    };
    w.postMessage(message);
  });
}
