/**
 * One engine call in a process of its own, for test/engines-heavy/isolate-memory.test.ts (issue 49): prints, as JSON,
 * a {@link ProbeAnswer} — the isolate's own figures (V8's used heap + external memory, which counts every ArrayBuffer's
 * backing store and every WebAssembly memory) over the process's bare figure before the engine was loaded: the peak
 * live memory and the high-water mark during the call. Neither moves between collections except upward (the heap and
 * the external bytes shrink only in a collection), so the high-water mark is the figure just before one of the call's
 * collections (`v8.GCProfiler`, which records each one's before and after in the collection itself) or at the end; what
 * was live is at least what each collection left. The engine is warmed up first by the same method on a tiny input
 * (its module loaded, its WebAssembly instantiated, data it keeps loaded), and garbage is collected before the bare
 * figure, after the warm-up and before the call (`--expose-gc`). The resident high-water growth (VmHWM after less VmRSS
 * before, the kernel's mark reset just before the call by `5` into /proc/self/clear_refs) is printed too, for
 * comparison: it was the former measure, and it moved up to 2× with the machine's load.
 *
 * Usage: `node --expose-gc --import tsx engine-memory-probe.mts <spec.json>` (with isolate-memory.test.ts's PROBE_FLAGS
 * the figures do not depend on the machine's load), the spec a {@link ProbeSpec}. In the requests, an object
 * `{"$file": "/path"}` stands for the file's bytes (a Uint8Array, read after the warm-up: the runner holds its input),
 * and `{"$files": "/dir"}` for `[{name, data}]` of every file of a folder (an archive's members).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import v8 from "node:v8";
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

/**
 * What the probe prints (bytes): the call's outcome; the input's bytes; `engineBytes`, what the engine holds idle after
 * the warm-up (its code's heap, its WebAssembly instance's memory, data it keeps such as tesseract's traineddata);
 * `peakBytes`, the peak live memory during the call and `highWaterBytes`, its high-water mark with garbage not yet
 * collected, both over the process's bare figure (so: the engine idle + the input + what the call holds);
 * `collections`, the collections during the call; `rssGrowth`, the resident high-water growth, for comparison only.
 */
export interface ProbeAnswer {
  ok: boolean;
  error?: { code: string; message: string };
  inputBytes: number;
  engineBytes: number;
  peakBytes: number;
  highWaterBytes: number;
  collections: number;
  rssGrowth: number;
}

/**
 * The isolate's own figure, bytes: V8's used heap plus its external memory (every ArrayBuffer's backing store and every
 * WebAssembly memory: what a Worker's 128 MB counts besides the heap).
 */
function isolateBytes(): number {
  const h = v8.getHeapStatistics();
  return h.used_heap_size + h.external_memory;
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
const gc = async () => {
  for (let i = 0; i < 2; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((r) => setTimeout(r, 20));
  }
};
await gc();
const bare = isolateBytes();
const engine = (nodeEngines([spec.engine]) as Record<string, Record<string, (r: unknown) => Promise<unknown>>>)[
  spec.engine
]!;
const call = (r: unknown) => engine[spec.method]!.call(engine, r) as Promise<{ ok: boolean; error?: unknown }>;
const warm = await call(materialise(spec.warm, false));
if (!warm.ok) throw new Error(`warm-up failed: ${JSON.stringify(warm.error)}`);
// garbage of the warm-up (a dropped WebAssembly instance's memory among it) is collected first, so "before" is what is
// live: the engine loaded and instantiated, idle
await gc();
const idle = isolateBytes();
const request = materialise(spec.call, true);
// the file's bytes as read (a Buffer the Uint8Array copied) are garbage: collected too, so only the input itself counts
await gc();
writeFileSync("/proc/self/clear_refs", "5");
const rssBefore = vm("RSS");
const profiler = new v8.GCProfiler();
profiler.start();
const r = await call(request);
const end = isolateBytes();
const hwm = vm("HWM");
const gcs = profiler.stop().statistics;
// the JS heap and the external bytes only shrink in a collection, so their high-water mark (garbage not yet collected
// counted) is the larger of the figure at the end and the one just before each collection during the call; what was
// live is at most that and at least what each collection left, or the figure at the end (every WebAssembly memory of
// the call is still counted there: a dropped instance's memory goes only in a later collection)
const figure = (g: v8.GCProfilerResult["statistics"][number]["beforeGC"]) =>
  g.heapStatistics.usedHeapSize + g.heapStatistics.externalMemory;
const highWater = Math.max(end, ...gcs.map((g) => figure(g.beforeGC)));
const live = Math.max(end, ...gcs.map((g) => figure(g.afterGC)));
if (spec.save && r.ok) writeFileSync(spec.save, (r as { data?: Uint8Array }).data ?? new Uint8Array());
const answer: ProbeAnswer = {
  ok: r.ok,
  error: r.ok ? undefined : (r.error as ProbeAnswer["error"]),
  inputBytes,
  engineBytes: idle - bare,
  peakBytes: live - bare,
  highWaterBytes: highWater - bare,
  collections: gcs.length,
  rssGrowth: hwm - rssBefore,
};
console.log(JSON.stringify(answer));
