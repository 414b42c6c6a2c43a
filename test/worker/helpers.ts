/** Helpers for tests inside workerd: call the Worker's own fetch with a key, create jobs, wait. */
import { exports } from "cloudflare:workers";

export const KEY_A = "test-key-a";
export const KEY_B = "test-key-b";

/** Calls the Worker; `body` objects are sent as JSON. */
export async function api(
  method: string,
  path: string,
  opts: { key?: string | null; body?: unknown } = {},
): Promise<{ status: number; json: any; res: Response }> {
  const headers: Record<string, string> = {};
  if (opts.key !== null) headers.authorization = `Bearer ${opts.key ?? KEY_A}`;
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  const res = await (exports as any).default.fetch(`http://example.com${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
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
