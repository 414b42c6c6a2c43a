#!/usr/bin/env node
/**
 * Image engine benchmark (issue 3): for each operation on the same corpus input, the in-process
 * ImageMagick engine (magick-wasm, the code the engine Worker runs) against Debian's `convert` on the
 * same machine in the same run. Engine time = `engine.run()` wall time (median of ≥5 after a
 * warm-up); native time = the `convert` process wall time, start-up included (median of ≥5), with
 * its default threads and with MAGICK_THREAD_LIMIT=1. WASM memory = byteLength of magick's
 * WebAssembly.Memory after the case, each case on a fresh instance (memory never shrinks, so it is
 * that case's peak). Targets (issue 3): convert and thumbnail ≤ 1.5× native, WEBP encode ≤ 2.5×; camera raws (issue 47)
 * against the native row's pipeline (dcraw_emu to TIFF, then convert): ≤ 1.5×.
 *
 * Usage: node scripts/bench-image.mjs [--runs N] [--worker http://127.0.0.1:8790] [--only raw]
 *   --worker also times each case inside a running engine Worker (wrangler dev -c
 *   wasm/imagemagick/wrangler.toml), from its x-engine-ms header.
 * API:   import { benchImage, formatImageBench } from "./bench-image.mjs"
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median, bundleForNode } from "./bench-kit.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = process.env.CORPUS_DIR ?? join(ROOT, "..", "shared", "corpus");

/** The cases: engine request + the equivalent Debian `convert` arguments (input path, output spec). */
export const IMAGE_CASES = [
  {
    name: "convert png→jpg",
    file: "images/cloudconvert-input.png",
    op: "convert",
    from: "png",
    to: "jpg",
    options: {},
    native: (i) => [i, "jpg:-"],
  },
  {
    name: "convert png→webp",
    file: "images/cloudconvert-input.png",
    op: "convert",
    from: "png",
    to: "webp",
    options: {},
    native: (i) => [i, "webp:-"],
  },
  {
    name: "convert jpg→png (1800×1200)",
    file: "images/exif-orientation-Landscape_1.jpg",
    op: "convert",
    from: "jpg",
    to: "png",
    options: {},
    native: (i) => [i, "-auto-orient", "png:-"],
  },
  {
    name: "convert jpg→webp (1800×1200)",
    file: "images/exif-orientation-Landscape_1.jpg",
    op: "convert",
    from: "jpg",
    to: "webp",
    options: {},
    native: (i) => [i, "-auto-orient", "webp:-"],
  },
  {
    name: "convert jpg→jpg w=800",
    file: "images/exif-orientation-Landscape_6.jpg",
    op: "convert",
    from: "jpg",
    to: "jpg",
    options: { width: 800 },
    native: (i) => ["-define", "jpeg:size=1600x1600", i, "-auto-orient", "-resize", "800x", "jpg:-"],
  },
  {
    name: "thumbnail jpg→png 256",
    file: "images/exif-orientation-Landscape_1.jpg",
    op: "thumbnail",
    from: "jpg",
    to: "png",
    options: { width: 256, height: 256 },
    native: (i) => ["-define", "jpeg:size=512x512", i, "-auto-orient", "-thumbnail", "256x256>", "png:-"],
  },
  {
    name: "thumbnail png→webp 256 crop",
    file: "images/cloudconvert-input.png",
    op: "thumbnail",
    from: "png",
    to: "webp",
    options: { width: 256, height: 256, fit: "crop" },
    native: (i) => [
      i,
      "-thumbnail",
      "256x256^",
      "-gravity",
      "center",
      "-extent",
      "256x256",
      "-quality",
      "85",
      "webp:-",
    ],
  },
  {
    name: "thumbnail heic→jpg 256 (12 MP)",
    file: "images/tika-IMG_1034.heic",
    op: "thumbnail",
    from: "heic",
    to: "jpg",
    options: { width: 256, height: 256 },
    native: (i) => [i, "-auto-orient", "-thumbnail", "256x256>", "-quality", "85", "jpg:-"],
  },
  // issue 47: camera raws in WebAssembly (LibRaw in magick-wasm) against the native row's own pipeline: LibRaw's
  // dcraw_emu (camera white balance, sRGB, AHD) to a TIFF, then Debian's convert
  {
    name: "convert kdc→png (raw, 0.4 MP)",
    file: "raw/rawpy-RAW_KODAK_DC50.KDC",
    op: "convert",
    from: "kdc",
    to: "png",
    options: {},
    nativeShell: (i) => `dcraw_emu -w -o 1 -q 3 -T -Z - "${i}" | convert tiff:- png:-`,
  },
  {
    name: "convert nef→jpg (raw, 6.1 MP; a browser's budget)",
    file: "raw/exiftool-Nikon.nef",
    op: "convert",
    from: "nef",
    to: "jpg",
    options: {},
    budget: { maxMemoryBytes: 1_000_000_000 },
    nativeShell: (i) => `dcraw_emu -w -o 1 -q 3 -T -Z - "${i}" | convert tiff:- jpg:-`,
  },
];

/** Bundles the TypeScript engine for Node with esbuild (wrangler's own) into node_modules/.cache. */
async function loadEngine() {
  return bundleForNode(
    "bench-image-engine",
    'export { nodeImageMagickEngine } from "./src/runtime/node/imagemagick";\nexport { discardInstance } from "./src/engines/imagemagick/magick";',
    ["@imagemagick/magick-wasm"],
  );
}

/** Wall time (ms) of the case's native twin on `path`: Debian's convert, or the case's own shell pipeline. */
function timeNative(c, path, env) {
  const t = performance.now();
  const [bin, args] = c.nativeShell ? ["sh", ["-c", c.nativeShell(path)]] : ["convert", c.native(path)];
  execFileSync(bin, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "ignore"],
    maxBuffer: 1 << 28,
  });
  return performance.now() - t;
}

async function timeWorker(base, c, bytes) {
  // the shared engine-Worker entry (wasm/entry.ts): POST /invoke/<method>?request=<json>, body = input
  const q = new URLSearchParams({
    request: JSON.stringify({
      op: c.op,
      inputFormat: c.from,
      outputFormat: c.to,
      options: c.options,
      ...(c.budget ? { budget: c.budget } : {}),
    }),
  });
  const post = () => fetch(`${base}/invoke/run?${q}`, { method: "POST", body: bytes });
  // a keep-alive socket left idle while the native runs may have been closed by the server: retry once
  const res = await post().catch(post);
  const body = await res.json();
  if (!res.ok) throw new Error(`worker ${c.name}: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body.ms;
}

/**
 * Runs every case. Returns rows {name, engineMs, nativeMs, native1Ms, ratio, ratio1, workerMs?,
 * wasmMB, outBytes}; times in milliseconds (medians), memory in MB (10^6 bytes).
 * @param opts.runs   timed runs per measurement after one warm-up (default 7, minimum 5)
 * @param opts.worker base URL of a running engine Worker, to add in-Worker times
 * @param opts.only   run only the cases whose name contains this text (e.g. "raw")
 */
export async function benchImage(opts = {}) {
  const runs = Math.max(5, opts.runs ?? 7);
  const { nodeImageMagickEngine, discardInstance } = await loadEngine();
  // no recycling while timing: every run would otherwise pay a fresh instantiation after a big case
  const engine = nodeImageMagickEngine({ root: ROOT, recycleAboveBytes: Infinity });
  const rows = [];
  for (const c of IMAGE_CASES.filter((x) => !opts.only || x.name.includes(opts.only))) {
    const path = join(CORPUS, c.file);
    const bytes = new Uint8Array(readFileSync(path));
    discardInstance(); // fresh WASM instance: its memory afterwards is this case's peak
    const run = async () => {
      const t = performance.now();
      const r = await engine.run({
        op: c.op,
        input: bytes,
        inputFormat: c.from,
        outputFormat: c.to,
        options: c.options,
        ...(c.budget ? { budget: c.budget } : {}),
      });
      if (!r.ok) throw new Error(`${c.name}: ${r.error.code} ${r.error.message}`);
      return { ms: performance.now() - t, r };
    };
    const first = await run(); // warm-up (includes instantiation)
    let peak = first.r.wasmMemoryBytes;
    const engineMs = median(
      await sequence(runs, async () => {
        const { ms, r } = await run();
        peak = Math.max(peak, r.wasmMemoryBytes);
        return ms;
      }),
    );
    const wasmMB = peak / 1e6;
    timeNative(c, path);
    const nativeMs = median(await sequence(runs, () => timeNative(c, path)));
    const native1Ms = median(await sequence(runs, () => timeNative(c, path, { MAGICK_THREAD_LIMIT: "1" })));
    let workerMs;
    if (opts.worker) {
      await timeWorker(opts.worker, c, bytes);
      workerMs = median(await sequence(runs, () => timeWorker(opts.worker, c, bytes)));
    }
    rows.push({
      name: c.name,
      engineMs,
      nativeMs,
      native1Ms,
      ratio: engineMs / nativeMs,
      ratio1: engineMs / native1Ms,
      workerMs,
      wasmMB,
      outBytes: first.r.outputs[0].data.byteLength,
    });
  }
  return rows;
}

async function sequence(n, fn) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await fn());
  return out;
}

/** Markdown table of benchImage rows. */
export function formatImageBench(rows) {
  const f = (x) => (x === undefined ? "–" : x.toFixed(0));
  const lines = [
    "| operation | engine ms | native ms | ratio | native 1-thread ms | ratio 1-thread | in-Worker ms | WASM MB |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.name} | ${f(r.engineMs)} | ${f(r.nativeMs)} | ${r.ratio.toFixed(2)} | ${f(r.native1Ms)} | ${r.ratio1.toFixed(2)} | ${f(r.workerMs)} | ${r.wasmMB.toFixed(0)} |`,
    ),
  ];
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const arg = (name) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const rows = await benchImage({
    runs: arg("--runs") ? Number(arg("--runs")) : undefined,
    worker: arg("--worker"),
    only: arg("--only"),
  });
  const version = execFileSync("convert", ["-version"]).toString().split("\n")[0];
  console.log(`ImageMagick engine (magick-wasm, Node ${process.version}) vs ${version}\n`);
  console.log(formatImageBench(rows));
}
