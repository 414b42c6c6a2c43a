/** Helpers for tests inside workerd: call the Worker's own fetch with a key, create jobs, wait. */
import { exports } from "cloudflare:workers";
import type { OptionJson } from "../../src/api/options";
import type { JobJson, ResultFile, TaskJson } from "../../src/model/types";

/**
 * A task of the API's JSON as these tests read it: the wire TaskJson with the `result` fields the tests read typed. They
 * differ by operation and are typed as present: where a task lacks one it is undefined at runtime, and the test fails.
 */
export interface ApiTask extends Omit<TaskJson, "result" | "depends_on_tasks"> {
  name: string;
  /** with ?include=depends_on_tasks */
  depends_on_tasks: ApiTask[];
  /** with ?include=retries */
  retries: ApiTask[];
  result: {
    files: (ResultFile & { url: string })[];
    form: { url: string; parameters: Record<string, string> };
    members: { path: string; filename: string }[];
    metadata: Record<string, unknown>;
    ocr: { pages: number[]; words: number };
    command: string;
    output: string;
  };
}

/** A job of the API's JSON as these tests read it: its tasks are listed. */
export interface ApiJob extends Omit<JobJson, "tasks"> {
  tasks: ApiTask[];
}

/** A row of GET /v2/operations (contract §1.4). */
export interface ApiOperation {
  operation: string;
  input_format: string;
  output_format: string;
  engine: string;
  options: OptionJson[];
}

/** The API's JSON answer: `data` (a job unless the caller says otherwise), or an error's code, message and field errors. */
export interface ApiAnswer<D> {
  data: D;
  code: string;
  message: string;
  errors: Record<string, string[]>;
  links: { next: string | null };
  meta: Record<string, unknown>;
}

export const KEY_A = "test-key-a";
export const KEY_B = "test-key-b";

/** Calls the Worker; `body` objects are sent as JSON. */
export async function api<D = ApiJob>(
  method: string,
  path: string,
  opts: { key?: string | null; body?: unknown } = {},
): Promise<{ status: number; json: ApiAnswer<D>; res: Response }> {
  const headers: Record<string, string> = {};
  if (opts.key !== null) headers.authorization = `Bearer ${opts.key ?? KEY_A}`;
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  const res = await exports.default.fetch(`http://example.com${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  // the shape the caller reads (a non-JSON body is returned as its text, an empty one as null)
  return { status: res.status, json: json as ApiAnswer<D>, res };
}

/** POST /v2/jobs and return the job (asserting 201). */
export async function createJob(tasks: Record<string, unknown>, key = KEY_A, extra: Record<string, unknown> = {}) {
  const r = await api("POST", "/v2/jobs", { key, body: { tasks, ...extra } });
  if (r.status !== 201) throw new Error(`create failed ${r.status}: ${JSON.stringify(r.json)}`);
  return r.json.data;
}

/** Blocks on the sync wait endpoint (the same one the SDK uses). */
export async function waitJob(id: string, key = KEY_A) {
  const r = await api("GET", `/sync/v2/jobs/${id}`, { key });
  return r.json.data;
}

/** The job's task of that name (undefined at runtime when there is none: the test reading it fails). */
export const taskByName = (job: ApiJob, name: string) => job.tasks.find((t) => t.name === name) as ApiTask;

/** Bytes as base64 (import/base64 bodies). */
export function b64(b: Uint8Array): string {
  let s = "";
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return btoa(s);
}

/** A w×h white 24-bit BMP. */
export function whiteBmp(w: number, h: number): Uint8Array {
  const row = Math.ceil((w * 3) / 4) * 4;
  const b = new Uint8Array(54 + row * h).fill(255);
  const v = new DataView(b.buffer);
  b.set([0x42, 0x4d]);
  v.setUint32(2, b.length, true);
  v.setUint32(6, 0, true);
  v.setUint32(10, 54, true);
  v.setUint32(14, 40, true);
  v.setInt32(18, w, true);
  v.setInt32(22, h, true);
  v.setUint16(26, 1, true);
  v.setUint16(28, 24, true);
  v.setUint32(30, 0, true);
  v.setUint32(34, row * h, true);
  for (let i = 38; i < 54; i++) b[i] = 0;
  return b;
}
