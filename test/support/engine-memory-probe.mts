/**
 * One engine call in a process of its own, for test/engines-heavy/isolate-memory.test.ts (issue 49): prints, as JSON,
 * the input's bytes and the process's peak resident memory growth during the call (VmHWM after less VmHWM before, from
 * /proc/self/status: a true high-water mark, JS heap, array buffers and WebAssembly memory all counted, since every page
 * they touch is resident). The engine is warmed up first by the same method on a tiny input, so its module is loaded
 * and its WebAssembly compiled and instantiated before "before": what is measured is what the call itself adds to an
 * isolate that already runs the engine, not Node's baseline (which is not the isolate's). Just before the call the
 * kernel's high-water mark is reset to the resident size (`5` into /proc/self/clear_refs), so "before" is what is
 * resident then and a peak of loading or warming up that the call would merely refill is not mistaken for room; run
 * with `--expose-gc`, garbage is collected before that, so "before" is the live memory.
 *
 * Usage: `node --expose-gc --import tsx engine-memory-probe.mts <spec.json>`, the spec a {@link ProbeSpec}. In the requests, an
 * object `{"$file": "/path"}` stands for the file's bytes (a Uint8Array read before "before": the runner holds its
 * input), and `{"$files": "/dir"}` for `[{name, data}]` of every file of a folder (an archive's members).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { nodeEngines } from "../../src/runtime/node/engines.ts";

/**
 * What the probe runs: `engine` (a name of nodeEngines()), its `method`, a warm-up request and the measured one;
 * `save`, a path the answer's `data` is written to (a test makes its next input with the engine itself).
 */
export interface ProbeSpec {
  engine: string;
  method: string;
  warm: unknown;
  call: unknown;
  save?: string;
}

/** VmHWM or VmRSS of this process, bytes. */
const vm = (field: "HWM" | "RSS") =>
  Number(new RegExp(`Vm${field}:\\s+(\\d+)`).exec(readFileSync("/proc/self/status", "utf8"))![1]) * 1024;

let inputBytes = 0;
/** `v` with every `{$file}` / `{$files}` replaced by bytes; counts the bytes into `inputBytes` when `count`. */
function materialise(v: unknown, count: boolean): unknown {
  if (Array.isArray(v)) return v.map((x) => materialise(x, count));
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    if (typeof o.$file === "string") {
      const data = new Uint8Array(readFileSync(o.$file));
      if (count) inputBytes += data.byteLength;
      return data;
    }
    if (typeof o.$files === "string") {
      const dir = o.$files;
      return readdirSync(dir)
        .sort()
        .map((name) => ({ name, data: materialise({ $file: join(dir, name) }, count) }));
    }
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, materialise(x, count)]));
  }
  return v;
}

const spec = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as ProbeSpec;
const engine = (nodeEngines([spec.engine]) as Record<string, Record<string, (r: unknown) => Promise<unknown>>>)[
  spec.engine
]!;
const call = (r: unknown) => engine[spec.method]!.call(engine, r) as Promise<{ ok: boolean; error?: unknown }>;
const warm = await call(materialise(spec.warm, false));
if (!warm.ok) throw new Error(`warm-up failed: ${JSON.stringify(warm.error)}`);
const request = materialise(spec.call, true);
// garbage of the warm-up (a dropped WebAssembly instance's memory among it) is collected first when the probe runs with
// --expose-gc, so "before" is what is live, not what a collection during the call would hand back and refill unseen
for (let i = 0; i < 2; i++) {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 20));
}
writeFileSync("/proc/self/clear_refs", "5");
const before = vm("RSS");
const r = await call(request);
const growth = vm("HWM") - before;
if (spec.save && r.ok) writeFileSync(spec.save, (r as { data?: Uint8Array }).data ?? new Uint8Array());
console.log(JSON.stringify({ ok: r.ok, error: r.ok ? undefined : r.error, inputBytes, growth }));
