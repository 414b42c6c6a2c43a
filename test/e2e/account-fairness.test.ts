/**
 * Issue 48, "Scale tests": two accounts share the native engine, one with a burst of 200 office jobs and one with 5.
 * The small account's jobs must not wait for the burst: each account's native tasks are sent to the queue at most
 * ACCOUNT_CONCURRENCY at a time (src/account/gate.ts), so the small account's tasks meet a few of the burst's in the
 * queue, not 200.
 *
 * The bound: the small account's p95 latency (create → job finished, as the client sees it) stays within
 * BOUND_FACTOR × a lone job's latency measured on the same server just before + BOUND_SLACK_MS. The same run on a
 * server without the gate (ACCOUNT_CONCURRENCY=0) shows what the gate prevents: there the small jobs wait behind
 * the whole burst (printed; the queue is first in, first out, so that figure is the burst's drain time).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { startDevServer, type DevServer } from "../support/server";
import { scaled } from "../support/time-scale";

const BURST = 200;
const SMALL = 5;
/** ACCOUNT_CONCURRENCY of the gated server. */
const CAP = 3;
const BOUND_FACTOR = 4;
const BOUND_SLACK_MS = 3_000;
const DOCX = readFileSync(corpusPath("office/python-docx-doc-coreprops.docx")).toString("base64");
const KEYS = "key-big:big,key-small:small";

let gated: DevServer;
let ungated: DevServer;

beforeAll(async () => {
  [gated, ungated] = await Promise.all([
    startDevServer({ API_KEYS: KEYS, ACCOUNT_CONCURRENCY: String(CAP), MAX_OPEN_JOBS: "1000" }, scaled(180_000)),
    startDevServer({ API_KEYS: KEYS, ACCOUNT_CONCURRENCY: "0", MAX_OPEN_JOBS: "1000" }, scaled(180_000)),
  ]);
}, scaled(240_000));

afterAll(async () => {
  await Promise.all([gated?.stop(), ungated?.stop()]);
});

/** Creates one docx → pdf job for `key` on `base`; resolves with its id once the create answered. */
async function create(base: string, key: string, tag: string): Promise<string> {
  const r = await fetch(`${base}/v2/jobs`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      tag,
      tasks: {
        in: { operation: "import/base64", file: DOCX, filename: "letter.docx" },
        pdf: { operation: "convert", input: "in", output_format: "pdf" },
        out: { operation: "export/url", input: "pdf" },
      },
    }),
  });
  expect(r.status).toBe(201);
  return ((await r.json()) as { data: { id: string } }).data.id;
}

/** Waits for job `id` to end; its status and the convert task's engine. */
async function finish(base: string, key: string, id: string) {
  for (;;) {
    const r = await fetch(`${base}/sync/v2/jobs/${id}`, { headers: { authorization: `Bearer ${key}` } });
    if (r.status === 408 || r.status === 504) continue; // the wait's own time limit: wait again
    const job = ((await r.json()) as { data: { status: string; tasks: { name: string; engine?: string }[] } }).data;
    return { status: job.status, engine: job.tasks.find((t) => t.name === "pdf")?.engine };
  }
}

/** Milliseconds from create to end of one job, as the client sees them. */
async function timed(base: string, key: string, tag: string) {
  const t0 = performance.now();
  const id = await create(base, key, tag);
  const end = await finish(base, key, id);
  return { ms: performance.now() - t0, ...end };
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(0.95 * xs.length) - 1]!;

/** A lone job's latency, then the burst and, once all of it is created, the small account's jobs. */
async function scenario(server: DevServer) {
  await timed(server.base, "key-small", "warm"); // warm: engines, LibreOffice pool
  const lone = await timed(server.base, "key-small", "lone");
  const t0 = performance.now();
  const burstIds: string[] = [];
  for (let i = 0; i < BURST; i += 20)
    burstIds.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(20, BURST - i) }, () => create(server.base, "key-big", "burst")),
      )),
    );
  const small = await Promise.all(Array.from({ length: SMALL }, () => timed(server.base, "key-small", "small")));
  const burst = await Promise.all(burstIds.map((id) => finish(server.base, "key-big", id)));
  return { lone, small, burst, drainMs: performance.now() - t0 };
}

describe("fairness across accounts for native work (issue 48)", () => {
  it(
    `an account's ${SMALL} office jobs beside another's ${BURST}: the small account's p95 stays within ` +
      `${BOUND_FACTOR}× a lone job + ${BOUND_SLACK_MS / 1000} s`,
    async () => {
      const g = await scenario(gated);
      const u = await scenario(ungated);
      const bound = BOUND_FACTOR * g.lone.ms + BOUND_SLACK_MS;
      const report = (name: string, s: typeof g) =>
        `${name}: lone ${Math.round(s.lone.ms)} ms, small p95 ${Math.round(p95(s.small.map((x) => x.ms)))} ms, ` +
        `burst drained in ${Math.round(s.drainMs)} ms`;
      console.log(
        `${report(`gated (ACCOUNT_CONCURRENCY=${CAP})`, g)}; bound ${Math.round(bound)} ms\n${report("ungated", u)}`,
      );
      for (const s of [g, u]) {
        expect([...s.small, ...s.burst].filter((j) => j.status !== "finished")).toEqual([]);
        expect(new Set([...s.small, ...s.burst].map((j) => j.engine))).toEqual(new Set(["libreoffice"]));
      }
      expect(p95(g.small.map((x) => x.ms))).toBeLessThanOrEqual(bound);
    },
    scaled(900_000),
  );
});
