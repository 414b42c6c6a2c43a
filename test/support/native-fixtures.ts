/**
 * Fixtures of the native-engine tests (test/native/native-*.test.ts): the production context (the
 * WebAssembly engines first, the native rows after them), an engine spy, runs shared between a
 * describe's beforeAll and its tests, job validation as POST /v2/jobs does it, an outcome check that
 * names a silent wrong result, and inputs made here (a PNG writer, large PDFs, random bytes).
 */
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";
import { expect } from "vitest";
import { TaskError } from "../../src/engines/errors";
import type { EngineInstances } from "../../src/engines/registry";
import { parseJobTasks } from "../../src/graph/parse";
import { TASK_CATALOG } from "../../src/operations/validate";
import type { OperationContext } from "../../src/operations/types";
import { execute, type Executed } from "../../src/runner/execute";
import { corpusPath } from "./corpus";
import type { NativeServer } from "./native-engine";
import { sh } from "./native-oracles";
import { corpusInput, dataOf, pdfinfo, pdftotext, testContext, tmpFile } from "./pdf-helpers";

/**
 * A context with the WebAssembly engines `wasm` and the native rows of `native` (the production
 * order); `opts` go to the native rows (signal, timeoutMs), `signal` to the task.
 */
export const fullContext = (
  wasm: EngineInstances,
  native: NativeServer,
  opts?: { signal?: AbortSignal; timeoutMs?: number },
  signal?: AbortSignal,
): OperationContext => testContext({ ...(signal ? { signal } : {}), engines: { ...wasm, ...native.engines(opts) } });

/** One engine method call seen by {@link spied}: its name and "ok" or the failure code. */
export interface Call {
  method: string;
  code: string;
}

/** Wraps an engine object so that each method call's outcome is recorded in `calls`. */
export function spied<T extends object>(engine: T, calls: Call[]): T {
  return new Proxy(engine, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== "function") return v;
      return async (...args: unknown[]) => {
        try {
          const r = await v.apply(target, args);
          calls.push({
            method: String(prop),
            code: r && typeof r === "object" && r.ok === false ? r.error.code : "ok",
          });
          return r;
        } catch (e) {
          calls.push({ method: String(prop), code: e instanceof TaskError ? e.code : "threw" });
          throw e;
        }
      };
    },
  });
}

/** Runs async functions at most `n` at a time. */
export function limiter(n: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(f: () => Promise<T>): Promise<T> => {
    while (active >= n) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await f();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

/**
 * `corpusRun(operation, params, rel)`: `execute(operation, params, [corpus file rel])` in the context
 * `ctx()` gives, run once per argument set (at most two at a time: Ghostscript is single-threaded)
 * and shared: a describe's beforeAll starts its runs, its tests await them.
 */
export function sharedCorpusRuns(ctx: () => OperationContext) {
  const runs = new Map<string, Promise<Executed>>();
  const twoAtATime = limiter(2);
  return (operation: string, params: Record<string, unknown>, rel: string): Promise<Executed> => {
    const key = JSON.stringify([operation, params, rel]);
    let run = runs.get(key);
    if (!run) {
      run = twoAtATime(() => execute(operation, params, [corpusInput(rel)], ctx()));
      run.catch(() => {}); // a failure is reported by the test that awaits it
      runs.set(key, run);
    }
    return run;
  };
}

/** A job with an upload task "up" and the task "t" taking its file, validated as POST /v2/jobs does. */
export function job(task: Record<string, unknown>) {
  return parseJobTasks({ up: { operation: "import/upload" }, t: { input: "up", ...task } }, TASK_CATALOG);
}

/**
 * Awaits a task that must fail with TaskError `code`; when it succeeds instead, fails naming what
 * came back (pages and text per pdfinfo/pdftotext), so a silent wrong result is visible.
 */
export async function expectPdfFailure(
  task: Promise<{ out: { files: { filename: string; data: unknown }[] } }>,
  code: string,
): Promise<TaskError> {
  const outcome = await task.then(
    (r) => ({ ok: true as const, r }),
    (e: unknown) => ({ ok: false as const, e }),
  );
  if (outcome.ok) {
    const f = outcome.r.out.files[0] as Parameters<typeof tmpFile>[0];
    const path = tmpFile(f);
    const text = pdftotext(f).replace(/\s+/g, " ").trim();
    expect.fail(
      `expected TaskError ${code}, but it succeeded: ${dataOf(f).length} bytes, ${pdfinfo(path).Pages} page(s), text ${JSON.stringify(text.slice(0, 80))}`,
    );
  }
  const e = (outcome as { e: unknown }).e;
  expect(e, String(e)).toBeInstanceOf(TaskError);
  expect((e as TaskError).code, (e as Error).message).toBe(code);
  return e as TaskError;
}

/**
 * Writes to `out` the corpus PDF `rel` repeated `times` times, with qpdf (which shares the repeated
 * file's resources: 200 × the 12-page PDF is ~0.6 MB). @throws when qpdf fails
 */
export function repeatedPdf(rel: string, times: number, out: string): string {
  const q = sh("qpdf", ["--empty", "--pages", ...Array<string>(times).fill(corpusPath(rel)), "--", out]);
  if (q.status !== 0) throw new Error(`qpdf could not repeat ${rel} ${times} times: ${q.stderr}`);
  return out;
}

/** Deterministic pseudo-random bytes (xorshift32). */
export function randomBytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/**
 * Writes an 8-bit RGB PNG of w×h, left half pure red, right half pure blue, to `path`. Written here,
 * not with `convert`: Debian's ImageMagick policy (memory 256 MiB, disk 1 GiB) makes
 * `convert -size 10000x6000 …` fail with "cache resources exhausted" before it writes anything.
 */
export function writeHalvesPng(path: string, w: number, h: number): string {
  writeFileSync(path, halvesPng(w, h));
  return path;
}

/** An 8-bit RGB PNG of w×h: left half pure red, right half pure blue. */
export function halvesPng(w: number, h: number): Buffer {
  const row = Buffer.alloc(1 + w * 3); // filter byte 0, then RGB
  for (let x = 0; x < w; x++) row[1 + x * 3 + (x < w / 2 ? 0 : 2)] = 255;
  const raw = Buffer.alloc(row.length * h);
  for (let y = 0; y < h; y++) row.copy(raw, y * row.length);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** One PNG chunk: length, type, data, CRC-32 of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

let crcTable: Uint32Array | undefined;
/** CRC-32 (ISO 3309, PNG's) of `buf`. */
function crc32(buf: Uint8Array): number {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
