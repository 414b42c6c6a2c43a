#!/usr/bin/env node
/**
 * The whole corpus (except broken/) through a running ExifTool engine Worker (workerd under
 * `wrangler dev -c wasm/exiftool/wrangler.toml`): agreement with Debian's `exiftool -json` on the
 * spec's keys (the same keys and rule as test/corpus/metadata-corpus.test.ts), per-file time in the
 * Worker vs native (ms), and the interpreter's WASM memory per call (MB). Prints every disagreement.
 *
 * Usage: node scripts/metadata-worker-corpus.mjs http://127.0.0.1:PORT
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = process.env.CORPUS_DIR ?? join(ROOT, "..", "shared", "corpus");
const KEYS = [
  "FileName",
  "Directory",
  "FileSize",
  "FileType",
  "FileTypeExtension",
  "MIMEType",
  "PDFVersion",
  "Author",
  "Title",
  "Creator",
  "Producer",
  "CreateDate",
  "ModifyDate",
  "PageCount",
  "ImageWidth",
  "ImageHeight",
  "ImageSize",
  "Duration",
];
const scalar = (v) =>
  Array.isArray(v) ? v.map(scalar).join(", ") : typeof v === "number" || typeof v === "string" ? v : String(v);
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};

function files() {
  const out = [];
  const walk = (d) =>
    readdirSync(d)
      .sort()
      .forEach((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : out.push(join(d, n))));
  readdirSync(CORPUS)
    .sort()
    .filter((t) => t !== "broken" && statSync(join(CORPUS, t)).isDirectory())
    .forEach((t) => walk(join(CORPUS, t)));
  return out;
}

function native(path) {
  const t = performance.now();
  let out;
  try {
    out = execFileSync("exiftool", ["-json", basename(path)], {
      cwd: dirname(path),
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch (e) {
    out = e.stdout;
  }
  return { ms: performance.now() - t, m: JSON.parse(out)[0] };
}

/** Runs the corpus through the Worker at `base`; returns {agreed, compared, disagreements, workerMs[], nativeMs[], memMB[]}. */
export async function workerCorpus(base) {
  let agreed = 0,
    compared = 0;
  const disagreements = [],
    workerMs = [],
    nativeMs = [],
    memMB = [];
  for (const path of files()) {
    const q = new URLSearchParams({ request: JSON.stringify({ filename: basename(path) }) });
    const res = await fetch(`${base}/invoke/read?${q}`, { method: "POST", body: readFileSync(path) });
    const body = await res.json();
    if (!res.ok) {
      disagreements.push(`${relative(CORPUS, path)}: task error ${body.code} ${body.message}`);
      continue;
    }
    const n = native(path);
    workerMs.push(body.ms);
    nativeMs.push(n.ms);
    memMB.push(body.wasmMemoryBytes / 1e6);
    for (const k of KEYS) {
      if (!(k in n.m) && !(k in body.metadata)) continue;
      compared++;
      const ours = body.metadata[k],
        theirs = k in n.m ? scalar(n.m[k]) : undefined;
      if (ours === theirs) agreed++;
      else
        disagreements.push(
          `${relative(CORPUS, path)} ${k}: worker ${JSON.stringify(ours)} vs native ${JSON.stringify(theirs)}`,
        );
    }
  }
  return { agreed, compared, disagreements, workerMs, nativeMs, memMB };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const r = await workerCorpus(process.argv[2] ?? "http://127.0.0.1:8791");
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  console.log(
    `agreement in workerd: ${r.agreed}/${r.compared} = ${((100 * r.agreed) / r.compared).toFixed(1)}% over ${r.workerMs.length} files`,
  );
  r.disagreements.forEach((d) => console.log(`  ${d}`));
  console.log(
    `per file, Worker: median ${pct(r.workerMs, 0.5).toFixed(0)} ms, p90 ${pct(r.workerMs, 0.9).toFixed(0)} ms, max ${Math.max(...r.workerMs).toFixed(0)} ms, total ${(sum(r.workerMs) / 1000).toFixed(1)} s`,
  );
  console.log(
    `per file, native exiftool: median ${pct(r.nativeMs, 0.5).toFixed(0)} ms, p90 ${pct(r.nativeMs, 0.9).toFixed(0)} ms, max ${Math.max(...r.nativeMs).toFixed(0)} ms, total ${(sum(r.nativeMs) / 1000).toFixed(1)} s`,
  );
  console.log(
    `WASM memory per call: median ${pct(r.memMB, 0.5).toFixed(1)} MB, max ${Math.max(...r.memMB).toFixed(1)} MB`,
  );
}
