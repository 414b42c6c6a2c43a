#!/usr/bin/env node
/**
 * Metadata benchmark (issue 5): per file type, the in-process ExifTool engine (ExifTool 13.42 on
 * zeroperl, the code the engine Worker runs) against Debian's native `exiftool -json` on the same
 * file in the same run. Engine time = `engine.read()` wall time (a fresh interpreter per call, as in
 * production; median of ≥5 after a warm-up); native time = the `exiftool` process wall time, Perl
 * start-up included (median of ≥5). WASM memory = the interpreter's WebAssembly.Memory at the end
 * of the call. Write rows time `metadata/write` against `exiftool -Title=… -o OUT`.
 *
 * Usage: node scripts/bench-metadata.mjs [--runs N] [--worker http://127.0.0.1:8791]
 *   --worker also times each case inside a running engine Worker (wrangler dev -c
 *   wasm/exiftool/wrangler.toml), from the `ms` it reports.
 * API:   import { benchMetadata, formatMetadataBench } from "./bench-metadata.mjs"
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median, bundleForNode } from "./bench-kit.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = process.env.CORPUS_DIR ?? join(ROOT, "..", "shared", "corpus");

/** One case per file type; `write` cases set a Title (and Author) instead of reading. */
export const METADATA_CASES = [
  { type: "PDF", file: "pdf/cloudconvert-input.pdf" },
  { type: "PDF 14 pages (tracemonkey)", file: "pdf/pdfjs-tracemonkey.pdf" },
  { type: "JPEG", file: "images/exif-orientation-Landscape_1.jpg" },
  { type: "PNG", file: "images/cloudconvert-input.png" },
  { type: "HEIC", file: "images/tika-IMG_1034.heic" },
  { type: "MP3", file: "audio/tika-testMP3id3v2.mp3" },
  { type: "MP4", file: "video/tika-testVideoMp4.mp4" },
  { type: "DOCX", file: "office/python-docx-doc-coreprops.docx" },
  { type: "XLS", file: "office/tika-testEXCEL.xls" },
  { type: "ZIP", file: "archives/yauzl-linux-info-zip.zip" },
  { type: "write PDF (Title, Author)", file: "pdf/cloudconvert-input.pdf", write: { Title: "Bench", Author: "Ann" } },
  { type: "write JPEG (XMP:Title)", file: "images/exif-orientation-Landscape_1.jpg", write: { "XMP:Title": "Bench" } },
];

async function sequence(n, fn) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await fn());
  return out;
}

/** Bundles the TypeScript engine for Node with esbuild (wrangler's own) into node_modules/.cache. */
async function loadEngine() {
  return bundleForNode("bench-metadata-engine", 'export { nodeExifToolEngine } from "./src/runtime/node/exiftool";', [
    "@6over3/zeroperl-ts",
  ]);
}

/** Native exiftool on the corpus file, process wall time in ms. */
function timeNative(c, path, out) {
  const args = c.write
    ? [
        ...Object.entries(c.write).map(([k, v]) => `-${k}=${v}`),
        "-o",
        join(out, `${Math.random().toString(36).slice(2)}-${path.split("/").pop()}`),
        path,
      ]
    : ["-json", path];
  const t = performance.now();
  execFileSync("exiftool", args, { stdio: ["ignore", "pipe", "ignore"], maxBuffer: 1 << 26 });
  return performance.now() - t;
}

/** The engine Worker's own `ms` for one call over its HTTP diagnostics route. */
async function timeWorker(base, c, bytes) {
  const name = c.file.split("/").pop();
  // the shared engine-Worker entry (wasm/entry.ts): POST /invoke/<method>?request=<json>, body = input
  const q = new URLSearchParams({ request: JSON.stringify({ filename: name, ...(c.write ? { tags: c.write } : {}) }) });
  const post = () => fetch(`${base}/invoke/${c.write ? "write" : "read"}?${q}`, { method: "POST", body: bytes });
  const res = await post().catch(post); // an idle keep-alive socket may have been closed: retry once
  if (!res.ok) throw new Error(`worker ${c.type}: HTTP ${res.status} ${await res.text()}`);
  const body = await res.json();
  return { ms: body.ms, mem: body.wasmMemoryBytes };
}

/**
 * Runs every case. Returns rows {type, engineMs, nativeMs, ratio, workerMs?, workerRatio?, wasmMB,
 * workerWasmMB?}; times in milliseconds (medians), memory in MB (10^6 bytes).
 * @param opts.runs   timed runs per measurement after one warm-up (default 7, minimum 5)
 * @param opts.worker base URL of a running engine Worker, to add in-Worker times
 */
export async function benchMetadata(opts = {}) {
  const runs = Math.max(5, opts.runs ?? 7);
  const { nodeExifToolEngine } = await loadEngine();
  const engine = nodeExifToolEngine({ root: ROOT });
  const out = mkdtempSync(join(tmpdir(), "bench-metadata-"));
  const rows = [];
  try {
    for (const c of METADATA_CASES) {
      const path = join(CORPUS, c.file);
      const bytes = new Uint8Array(readFileSync(path));
      let wasm = 0;
      const run = async () => {
        const t = performance.now();
        const req = { input: bytes, filename: c.file.split("/").pop() };
        const r = c.write ? await engine.write({ ...req, tags: c.write }) : await engine.read(req);
        if (!r.ok) throw new Error(`${c.type}: ${r.error.code} ${r.error.message}`);
        wasm = Math.max(wasm, r.wasmMemoryBytes);
        return performance.now() - t;
      };
      await run(); // warm-up (the first call also compiles the 25 MB module)
      const engineMs = median(await sequence(runs, run));
      timeNative(c, path, out);
      const nativeMs = median(await sequence(runs, () => timeNative(c, path, out)));
      const row = { type: c.type, engineMs, nativeMs, ratio: engineMs / nativeMs, wasmMB: wasm / 1e6 };
      if (opts.worker) {
        await timeWorker(opts.worker, c, bytes);
        const w = await sequence(runs, () => timeWorker(opts.worker, c, bytes));
        Object.assign(row, {
          workerMs: median(w.map((x) => x.ms)),
          workerWasmMB: Math.max(...w.map((x) => x.mem)) / 1e6,
        });
        row.workerRatio = row.workerMs / nativeMs;
      }
      rows.push(row);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return rows;
}

/** Markdown table of benchMetadata rows. */
export function formatMetadataBench(rows) {
  const f = (x, d = 0) => (x === undefined ? "–" : x.toFixed(d));
  return [
    "| file type | engine ms (Node) | native exiftool ms | ratio | in-Worker ms | Worker ratio | WASM MB |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.type} | ${f(r.engineMs)} | ${f(r.nativeMs)} | ${f(r.ratio, 2)} | ${f(r.workerMs)} | ${f(r.workerRatio, 2)} | ${f(r.workerWasmMB ?? r.wasmMB)} |`,
    ),
  ].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const arg = (name) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const rows = await benchMetadata({
    runs: arg("--runs") ? Number(arg("--runs")) : undefined,
    worker: arg("--worker"),
  });
  const version = execFileSync("exiftool", ["-ver"]).toString().trim();
  console.log(
    `ExifTool engine (13.42 on zeroperl, Node ${process.version}${arg("--worker") ? " and in the engine Worker" : ""}) vs native exiftool ${version}; medians\n`,
  );
  console.log(formatMetadataBench(rows));
}
