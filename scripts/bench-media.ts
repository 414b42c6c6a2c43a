/**
 * Benchmark of the ffmpeg engine (issue 13): for each case on the same input, the WebAssembly
 * engine in-process (nodeFfmpegEngine, the code the engine Worker runs) against Debian's native
 * ffmpeg running the very same argument lists in the same run.
 * - engine ms: `engine.run()` wall time, everything the engine does per call included (its ffprobe
 *   in a fresh core, a second fresh core, the files in and out of MEMFS, the ffmpeg runs); median of
 *   `runs` after one warm-up (which also compiles the 32 MB module).
 * - native ms: the runs of `planRuns(req, probe, paths)` as `ffmpeg` processes, in order, start-up
 *   included, the probe being native ffprobe's read by `parseProbe` (taken once, not timed); with
 *   ffmpeg's default threads, and single-threaded (`-threads 1` on every input and the output,
 *   `-filter_threads 1 -filter_complex_threads 1`) as the WebAssembly core is.
 * - WASM MB: the core's WebAssembly memory after the runs (each call has a fresh core, so it is the
 *   call's peak), 10^6 bytes.
 * The TypeScript engine (src/, extensionless imports) is bundled with esbuild (wrangler's own) into
 * node_modules/.cache, as bench-image.mjs does; native-protocol/media/ is imported directly.
 * Run: `npm run bench -- media` (or `node scripts/bench-media.ts [runs]` with Node ≥ 23).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { MediaRequest } from "../native-protocol/media/formats.ts";
import { planRuns } from "../native-protocol/media/plan.ts";
import { PROBE_ARGS, parseProbe, type MediaProbe } from "../native-protocol/media/probe.ts";
import { median, bundleForNode } from "./bench-kit.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CORPUS = process.env.CORPUS_DIR ?? join(ROOT, "..", "shared", "corpus");
const TMP = join(tmpdir(), "bench-media-");

interface Case {
  name: string;
  /** Path of the input; null: the generated WAV. */
  file: string | null;
  req: Omit<MediaRequest, "input">;
}

/** The cases: audio, video → WebM and MP4 from both clips, a thumbnail, a GIF. */
const CASES: Case[] = [
  { name: "WAV → MP3 (5 s 44.1 kHz stereo)", file: null, req: { op: "convert", outputFormat: "mp3", options: {} } },
  {
    name: "MP4 → WebM (VP9 + Opus; 13.7 s 320×240 15 fps, 5.1 AAC)",
    file: "video/tika-testVideoMp4.mp4",
    req: { op: "convert", outputFormat: "webm", options: {} },
  },
  {
    name: "MP4 → MP4 (x264 + AAC; same clip)",
    file: "video/tika-testVideoMp4.mp4",
    req: { op: "convert", outputFormat: "mp4", options: {} },
  },
  {
    name: "WebM → WebM (VP9; Big Buck Bunny 10 s 320×180 30 fps)",
    file: "video/ffmpegwasm-Big_Buck_Bunny_180_10s.webm",
    req: { op: "convert", outputFormat: "webm", options: {} },
  },
  {
    name: "WebM → MP4 (x264; same clip)",
    file: "video/ffmpegwasm-Big_Buck_Bunny_180_10s.webm",
    req: { op: "convert", outputFormat: "mp4", options: {} },
  },
  {
    name: "thumbnail → PNG (Big Buck Bunny)",
    file: "video/ffmpegwasm-Big_Buck_Bunny_180_10s.webm",
    req: { op: "thumbnail", outputFormat: "png", options: {} },
  },
  // issue 34: a new audio output and a new video output
  {
    name: "AIFF → WMA (wmav2; 0.3 s 24-bit pluck)",
    file: "audio/cpython-pluck-pcm24.aiff",
    req: { op: "convert", outputFormat: "wma", options: {} },
  },
  {
    name: "MP4 → WMV (wmv2 + wmav2; 13.7 s 320×240 15 fps)",
    file: "video/tika-testVideoMp4.mp4",
    req: { op: "convert", outputFormat: "wmv", options: {} },
  },
  {
    name: "GIF, first 3 s (Big Buck Bunny; palette + frames)",
    file: "video/ffmpegwasm-Big_Buck_Bunny_180_10s.webm",
    req: { op: "convert", outputFormat: "gif", options: { trim_end: 3 } },
  },
];

/** Bundles the TypeScript engine for Node with esbuild (wrangler's own) into node_modules/.cache. */
async function loadEngine(): Promise<
  typeof import("../src/runtime/node/ffmpeg") & { FFMPEG_ENGINE: { version: string } }
> {
  return bundleForNode<typeof import("../src/runtime/node/ffmpeg") & { FFMPEG_ENGINE: { version: string } }>(
    "bench-media-engine",
    'export { nodeFfmpegEngine } from "./src/runtime/node/ffmpeg";\nexport { FFMPEG_ENGINE } from "./src/engines/ffmpeg/version";',
  );
}

/** Native ffprobe of `path`, read as the engine reads its own. */
function nativeProbe(path: string): MediaProbe {
  const p = parseProbe(execFileSync("ffprobe", [...PROBE_ARGS, path], { maxBuffer: 1 << 24 }).toString());
  if (!p) throw new Error(`ffprobe could not read ${path}`);
  return p;
}

/** One run's arguments made single-threaded: -threads 1 on every input and on the output, one filter thread. */
function singleThread(args: string[]): string[] {
  const out = ["-filter_threads", "1", "-filter_complex_threads", "1"];
  args.forEach((a, i) => {
    if (a === "-i") out.push("-threads", "1");
    if (i === args.length - 1) out.push("-threads", "1");
    out.push(a);
  });
  return out;
}

/** The runs of a plan as native processes, in order; wall ms. */
function timeNative(runs: string[][]): number {
  const t = performance.now();
  for (const args of runs) {
    const r = spawnSync("ffmpeg", args, { stdio: ["ignore", "ignore", "pipe"], maxBuffer: 1 << 24 });
    if (r.status !== 0)
      throw new Error(
        `native ffmpeg ${args.join(" ")}: exit ${r.status}: ${r.stderr.toString().trim().split("\n").slice(-3).join(" | ")}`,
      );
  }
  return performance.now() - t;
}

async function sequence<T>(n: number, fn: () => Promise<T> | T): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(await fn());
  return out;
}

export interface MediaBenchRow {
  name: string;
  engineMs: number;
  nativeMs: number;
  native1Ms: number;
  ratio: number;
  ratio1: number;
  wasmMB: number;
  wasmKB: number;
  nativeKB: number;
}

/** Markdown table of benchMedia rows. */
export function formatMediaBench(rows: MediaBenchRow[]): string {
  const f = (x: number) => x.toFixed(0);
  return [
    "| operation | engine ms | native ms | ratio | native 1-thread ms | ratio 1-thread | WASM MB | out kB (wasm / native) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.name} | ${f(r.engineMs)} | ${f(r.nativeMs)} | ${r.ratio.toFixed(2)} | ${f(r.native1Ms)} | ${r.ratio1.toFixed(2)} | ${f(r.wasmMB)} | ${f(r.wasmKB)} / ${f(r.nativeKB)} |`,
    ),
  ].join("\n");
}

/** Runs every case and prints the table; medians of `runs` after one warm-up each. */
export async function benchMedia(runs = 5): Promise<MediaBenchRow[]> {
  const t0 = performance.now();
  const native = (() => {
    try {
      return execFileSync("ffmpeg", ["-version"])
        .toString()
        .split("\n")[0]!
        .replace(/ Copyright.*$/, "");
    } catch {
      return null;
    }
  })();
  if (!native) {
    console.log("\nffmpeg engine: native ffmpeg is not installed (npm run setup:native); skipped.");
    return [];
  }
  const { nodeFfmpegEngine, FFMPEG_ENGINE } = await loadEngine();
  const engine = nodeFfmpegEngine();
  const dir = mkdtempSync(TMP);
  const rows: MediaBenchRow[] = [];
  try {
    const wav = join(dir, "sine.wav");
    execFileSync("ffmpeg", [
      "-hide_banner",
      "-loglevel",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=440:duration=5",
      "-ac",
      "2",
      "-ar",
      "44100",
      wav,
    ]);
    for (const c of CASES) {
      const src = c.file ? join(CORPUS, c.file) : wav;
      const filename = src.split("/").pop()!;
      const data = new Uint8Array(readFileSync(src));
      const req = { ...c.req, input: { data, filename } } as MediaRequest;

      const run = async () => {
        const t = performance.now();
        const r = await engine.run(req);
        if (!r.ok) throw new Error(`${c.name}: ${r.error.code} ${r.error.message}`);
        return { ms: performance.now() - t, r };
      };
      const first = await run(); // warm-up (the first one compiles the module)
      let peak = first.r.wasmMemoryBytes ?? 0;
      const engineMs = median(
        await sequence(runs, async () => {
          const { ms, r } = await run();
          peak = Math.max(peak, r.wasmMemoryBytes ?? 0);
          return ms;
        }),
      );

      // the same argument lists natively, on temporary files named as the engine names them
      const paths = {
        input: join(dir, `input.${filename.split(".").pop()!.toLowerCase()}`),
        output: join(dir, "out", `output.${c.req.outputFormat}`),
      };
      rmSync(join(dir, "out"), { recursive: true, force: true });
      mkdirSync(join(dir, "out"));
      writeFileSync(paths.input, data);
      const plan = planRuns(req, nativeProbe(paths.input), paths);
      const plan1 = plan.map(singleThread);
      timeNative(plan); // warm-up (page cache)
      const nativeMs = median(await sequence(runs, () => timeNative(plan)));
      const nativeBytes = statSync(paths.output).size;
      timeNative(plan1);
      const native1Ms = median(await sequence(runs, () => timeNative(plan1)));
      rows.push({
        name: c.name,
        engineMs,
        nativeMs,
        native1Ms,
        ratio: engineMs / nativeMs,
        ratio1: engineMs / native1Ms,
        wasmMB: peak / 1e6,
        wasmKB: (first.r.data as Uint8Array).byteLength / 1e3, // the WebAssembly engine answers bytes
        nativeKB: nativeBytes / 1e3,
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `\nffmpeg engine (ffmpeg ${FFMPEG_ENGINE.version} in WebAssembly, @ffmpeg/core single-threaded; Node ${process.version}, in-process) vs ${native} running the same arguments (planRuns); medians of ${runs}`,
  );
  console.log(formatMediaBench(rows));
  console.log(
    `(engine ms includes the engine's own ffprobe and a fresh core per call; native ms the ffmpeg processes only; section took ${((performance.now() - t0) / 1000).toFixed(0)} s)`,
  );
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await benchMedia(Number(process.argv[2] ?? 5));
