/**
 * PDF benchmark rows (issue 4): merge, split, rotate, encrypt and rasterize with this service's
 * engines (pdf-lib, PDFium) against qpdf and pdftoppm on the same inputs, in the same run.
 * Ours: in-process time of the operation (warm, after one warm-up run), as the Worker's task runner
 * sees it. Native: wall time of the Debian tool, process start included (as in
 * reference/wasm-engines.md). Each cell is the median of `runs` (≥ 5) runs; ratio = ours / native.
 *
 * Usage: `node scripts/bench-pdf.mjs [runs]` (Node 24: `npx node …`), or
 * `import { benchPdf } from "./bench-pdf.mjs"; const rows = await benchPdf({ runs: 7 })`.
 * The TypeScript sources are bundled once with esbuild into node_modules/.cache (packages stay external).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { median, bundleForNode } from "./bench-kit.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = process.env.CORPUS ?? join(ROOT, "..", "shared", "corpus");

const ENTRY = `
export { mergePdf } from "./src/operations/pdf/merge";
export { splitPages } from "./src/operations/pdf/split";
export { rotatePages } from "./src/operations/pdf/rotate";
export { encryptPdf } from "./src/operations/pdf/encrypt";
export { convertPdfToImage } from "./src/operations/pdf/rasterize";
export { nodePdfiumEngine } from "./src/runtime/node/pdfium";
export { createPdfLibEngine } from "./src/engines/pdflib/engine";
`;

/** Bundles the operations (TypeScript, extensionless imports) into an importable module. */
async function loadOperations() {
  return bundleForNode("bench-pdf-ops", ENTRY);
}

async function timeOurs(fn, runs) {
  await fn(); // warm-up: compile, JIT, engine instance
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

function timeNative(cmd, args, runs) {
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = spawnSync(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
    ms.push(performance.now() - t);
    if (r.status !== 0 && r.status !== 3) throw new Error(`${cmd} ${args.join(" ")}: exit ${r.status} ${r.stderr}`);
  }
  return median(ms);
}

function input(rel) {
  const data = new Uint8Array(readFileSync(join(CORPUS, rel)));
  return {
    filename: rel.split("/").pop(),
    size: data.byteLength,
    fromTask: "bench",
    key: rel,
    bytes: async () => data,
  };
}

/**
 * Runs every row and prints a markdown table with `print`. Returns the rows:
 * { op, input, ours_ms, native, native_ms, ratio } (times in milliseconds, medians of `runs`).
 */
export async function benchPdf({ runs = 5, print = console.log } = {}) {
  runs = Math.max(5, runs);
  const ops = await loadOperations();
  const pdfium = ops.nodePdfiumEngine();
  const ctx = {
    signal: new AbortController().signal,
    taskName: "bench",
    taskId: "bench",
    jobId: "bench",
    engines: { pdfium, pdflib: ops.createPdfLibEngine() },
    settings: {},
    taskFiles: async () => [],
  };
  const tmp = mkdtempSync(join(tmpdir(), "bench-pdf-"));
  const p = (rel) => join(CORPUS, rel);
  const CC = "pdf/cloudconvert-input.pdf"; // 31 pages, 169 KB
  const TW = "pdf/gotenberg-pages_12.pdf"; // 12 pages
  const TM = "pdf/pdfjs-tracemonkey.pdf"; // 14 pages, 1 MB, figures
  const cases = [
    [
      "merge",
      `${CC} + ${TW} + ${TM} (57 p)`,
      () => ops.mergePdf.run([input(CC), input(TW), input(TM)], { output_format: "pdf" }, ctx),
      ["qpdf", ["--empty", "--pages", p(CC), p(TW), p(TM), "--", join(tmp, "m.pdf")]],
    ],
    [
      "split",
      `${CC} (31 p)`,
      () => ops.splitPages.run([input(CC)], {}, ctx),
      ["qpdf", ["--split-pages", p(CC), join(tmp, "s-%d.pdf")]],
    ],
    [
      "rotate +90",
      `${CC} (31 p)`,
      () => ops.rotatePages.run([input(CC)], { rotation: "+90" }, ctx),
      ["qpdf", ["--rotate=+90", p(CC), join(tmp, "r.pdf")]],
    ],
    [
      "encrypt AES-256",
      CC,
      () => ops.encryptPdf.run([input(CC)], { set_password: "u", set_owner_password: "o", allow_print: "low" }, ctx),
      ["qpdf", ["--encrypt", "u", "o", "256", "--print=low", "--", p(CC), join(tmp, "e.pdf")]],
    ],
    [
      "rasterize 150 ppi png",
      `${TM} pages 1-3`,
      () => ops.convertPdfToImage.run([input(TM)], { output_format: "png", pages: "1-3", pixel_density: 150 }, ctx),
      ["pdftoppm", ["-r", "150", "-png", "-f", "1", "-l", "3", p(TM), join(tmp, "t")]],
    ],
    [
      "encrypt AES-256",
      `${TM} (1 MB)`,
      () => ops.encryptPdf.run([input(TM)], { set_password: "u", set_owner_password: "o" }, ctx),
      ["qpdf", ["--encrypt", "u", "o", "256", "--", p(TM), join(tmp, "e2.pdf")]],
    ],
    [
      "rasterize 150 ppi png",
      `${TW} (12 p)`,
      () => ops.convertPdfToImage.run([input(TW)], { output_format: "png", pixel_density: 150 }, ctx),
      ["pdftoppm", ["-r", "150", "-png", p(TW), join(tmp, "c")]],
    ],
    [
      "thumbnail 72 ppi png",
      `${TM} page 1`,
      () => ops.convertPdfToImage.run([input(TM)], { output_format: "png", pages: "1", pixel_density: 72 }, ctx),
      ["pdftoppm", ["-r", "72", "-png", "-f", "1", "-l", "1", p(TM), join(tmp, "th")]],
    ],
  ];
  const rows = [];
  for (const [op, what, ours, [cmd, args]] of cases) {
    const ours_ms = await timeOurs(ours, runs);
    const native_ms = timeNative(cmd, args, runs);
    rows.push({ op, input: what, ours_ms, native: cmd, native_ms, ratio: ours_ms / native_ms });
  }
  print(
    `| operation | input | ours ms (pdf-lib / PDFium, Node ${process.versions.node}) | native | native ms | ratio |`,
  );
  print("|---|---|---:|---|---:|---:|");
  for (const r of rows)
    print(
      `| ${r.op} | ${r.input} | ${r.ours_ms.toFixed(1)} | ${r.native} | ${r.native_ms.toFixed(1)} | ${r.ratio.toFixed(2)} |`,
    );
  print(`(median of ${runs} runs each; ours in-process after a warm-up, native wall time incl. process start)`);
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await benchPdf({ runs: Number(process.argv[2] ?? 7) });
}
