/**
 * Issue 45 item 4, "Nothing fills the disk": the native engine's disk budget across calls (container/disk-budget.ts).
 * The real server (container/server.ts) is started with a small budget (NATIVE_DISK_BUDGET_BYTES = 64 MiB) and
 * given concurrent streamed calls (framed, native-protocol/frame.ts) through the Worker's client (nativeRpc), their
 * inputs trickled in so they overlap: each call reserves twice its declared size on admission; calls within the
 * budget run side by side, one that does not fit now is refused (503 with Retry-After → ENGINE_UNAVAILABLE,
 * retryable, naming the budget), one larger than the whole budget is 413 → OVER_BUDGET; answered, refused or
 * aborted, a call gives its share back and leaves nothing in the work folder.
 *
 * Oracles: ffprobe's own report of the input's size (the call ran on the whole file), the HTTP answer (503,
 * Retry-After), the work folder's listing.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FRAMED_TYPE, frame, type StreamedBytes } from "../../native-protocol/frame";
import { nativeRpc } from "../../src/engines/native/client";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { until } from "../support/native-oracles";
import { scaled } from "../support/time-scale";

const MiB = 1024 * 1024;
/** The server's disk budget: each call reserves twice what it declares. */
const BUDGET = 64 * MiB;

let native: NativeServer;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "native-disk-budget-"));
  native = await startNativeEngine({ NATIVE_WORK_DIR: root, NATIVE_DISK_BUDGET_BYTES: String(BUDGET) });
}, scaled(120_000));
afterAll(async () => {
  await native?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** `size` bytes as a stream of 1 MiB chunks, one every `delayMs` (so a call stays in flight while others start). */
function trickle(size: number, delayMs: number, signal?: AbortSignal): StreamedBytes {
  let sent = 0;
  return {
    length: size,
    stream: new ReadableStream<Uint8Array>({
      async pull(c) {
        if (sent >= size) return c.close();
        await new Promise((r) => setTimeout(r, delayMs));
        if (signal?.aborted) return c.error(signal.reason);
        const n = Math.min(MiB, size - sent);
        sent += n;
        c.enqueue(new Uint8Array(n).fill(sent % 251));
      },
    }),
  };
}

/** An ffprobe of `size` bytes read as raw 8-bit audio: its answer names the size it read (`size` in the output). */
const probeRequest = (data: StreamedBytes) => ({
  command: "ffprobe",
  arguments: "-v error -f u8 -ar 8000 -ac 1 -show_entries format=size -of csv=p=0 /input/imp/a.raw",
  inputs: [{ task: "imp", filename: "a.raw", data }],
  capture_output: true,
});

type Answer = { ok: boolean; output?: string; error?: { code: string; message: string; retryable: boolean } };

/** One streamed ffprobe call through the Worker's client. */
function call(size: number, delayMs = 0, signal?: AbortSignal): Promise<Answer> {
  const rpc = nativeRpc(native.target.fetch, "ffmpeg-native", { streamOver: MiB, signal });
  return rpc.invoke("command", probeRequest(trickle(size, delayMs, signal))) as Promise<Answer>;
}

/** The call folders in the server's work folder. */
const calls = () => readdirSync(root).filter((n) => n.startsWith("call-"));

/** Waits until no call folder is left (a framed call's folder goes once its answer is sent). */
async function emptied(): Promise<string[]> {
  await until(() => calls().length === 0, 10_000);
  return readdirSync(root);
}

describe("the native engine's disk budget (NATIVE_DISK_BUDGET_BYTES=64 MiB)", () => {
  it(
    "concurrent calls within the budget run; one that does not fit now is 503 with Retry-After → ENGINE_UNAVAILABLE (retryable); nothing is left behind",
    async () => {
      // A: 24 MiB trickled over ~2.4 s holds 48 MiB of the 64
      const a = call(24 * MiB, 100);
      expect(await until(() => calls().length === 1, 10_000), "A admitted (its call folder made)").toBe(true);

      // B: 12 MiB would take 24 more: refused at once, by its Content-Length, before a byte is read
      const raw = frame(probeRequest({ stream: new Response(new Uint8Array(12 * MiB)).body!, length: 12 * MiB }));
      const res = await fetch(`${native.url}/invoke/ffmpeg-native/command`, {
        method: "POST",
        body: raw.body,
        headers: { "content-type": FRAMED_TYPE, "content-length": String(raw.length) },
        duplex: "half",
      } as RequestInit);
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("10");
      expect(((await res.json()) as { message: string }).message).toMatch(/disk budget is in use/);

      // the same through the Worker's client: a retryable ENGINE_UNAVAILABLE naming the budget
      const b = await call(12 * MiB);
      expect(b.ok).toBe(false);
      expect(b.error).toMatchObject({ code: "ENGINE_UNAVAILABLE", retryable: true });
      expect(b.error!.message).toMatch(/^The native engine is busy: .*disk budget is in use.*retry after 10 s/);

      // C: 4 MiB takes 8 more (56 of 64): runs beside A
      const c = await call(4 * MiB);
      expect(c.ok, JSON.stringify(c.error)).toBe(true);
      expect(c.output?.trim()).toBe(String(4 * MiB));

      const done = await a;
      expect(done.ok, JSON.stringify(done.error)).toBe(true);
      expect(done.output?.trim()).toBe(String(24 * MiB));

      // A's share is back: B now runs
      await emptied();
      const again = await call(12 * MiB);
      expect(again.ok, JSON.stringify(again.error)).toBe(true);
      expect(again.output?.trim()).toBe(String(12 * MiB));
      expect(await emptied()).toEqual([]);
    },
    scaled(120_000),
  );

  it(
    "a call needing more than the whole budget is 413 → OVER_BUDGET (not retryable), naming NATIVE_DISK_BUDGET_BYTES",
    async () => {
      const r = await call(40 * MiB); // 80 MiB > 64
      expect(r.ok).toBe(false);
      expect(r.error).toMatchObject({ code: "OVER_BUDGET", retryable: false });
      expect(r.error!.message).toContain(`disk budget of ${BUDGET} bytes (NATIVE_DISK_BUDGET_BYTES)`);
      expect(await emptied()).toEqual([]);
    },
    scaled(60_000),
  );

  it(
    "an aborted call gives its share back and its folder goes: a call of the same size runs next",
    async () => {
      const ac = new AbortController();
      const pending = call(24 * MiB, 100, ac.signal).then(
        (x) => x,
        (e: unknown) => e,
      );
      expect(await until(() => calls().length === 1, 10_000)).toBe(true);
      await new Promise((r) => setTimeout(r, 500)); // some of it written to the call's folder
      ac.abort(new Error("The test cancelled the call."));
      await pending;
      expect(await emptied()).toEqual([]);
      // 48 MiB again: refused (503) if the aborted call still held its 48
      const next = await call(24 * MiB);
      expect(next.ok, JSON.stringify(next.error)).toBe(true);
      expect(await emptied()).toEqual([]);
    },
    scaled(60_000),
  );
});
