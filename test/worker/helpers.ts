/** Helpers for tests inside workerd: call the Worker's own fetch with a key, create jobs, wait. */
import { exports } from "cloudflare:workers";

export const KEY_A = "test-key-a";
export const KEY_B = "test-key-b";

/** Calls the Worker; `body` objects are sent as JSON. */
export async function api(method: string, path: string, opts: { key?: string | null; body?: unknown } = {}): Promise<{ status: number; json: any; res: Response }> {
  const headers: Record<string, string> = {};
  if (opts.key !== null) headers.authorization = `Bearer ${opts.key ?? KEY_A}`;
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  const res = await (exports as any).default.fetch(`http://example.com${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status, json, res };
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

export const taskByName = (job: any, name: string) => job.tasks.find((t: any) => t.name === name);
