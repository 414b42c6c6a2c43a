/**
 * Benchmark of OCR (issue 17): seconds per page of the WebAssembly tesseract engine in-process
 * (nodeTesseractEngine, the code the engine Worker runs) against native `tesseract`, and of the
 * pdf/ocr operation end to end against `ocrmypdf`, on the same pages in the same run.
 * - image rows: `engine.recognize({ image, languages: ["eng"], dpi })` wall time against
 *   `tesseract <file> - -l eng --dpi <dpi>` with OMP_THREAD_LIMIT=1 (single thread, as the WebAssembly
 *   core is; process start and model load included). Both are told the image's resolution (its own
 *   metadata; linn.png, a Letter page at 300 dpi, says 72, so 300 is given to both).
 * - PDF rows: `ocrPdf.run()` (PDFium renders each page at ≤ 300 ppi within 6 MP, tesseract in
 *   WebAssembly reads it, pdf-lib lays the text) against `ocrmypdf --jobs 1 --output-type pdf -l eng`
 *   (OMP_THREAD_LIMIT=1), on scans/ocrmypdf-multipage.pdf and on an image-only PDF of phototest
 *   written by img2pdf at 200 dpi. Page 4 of multipage.pdf already has text: pdf/ocr skips it, and
 *   ocrmypdf, which refuses such a file (exit 6), is run again with --skip-text (the same behaviour);
 *   s/page = seconds / pages without text. Its page 2 (2160 pt square) is over pdf/ocr's budget
 *   (OVER_BUDGET, which routes the task to the native engine), so a second row times both on just the
 *   pages within budget (`pages` / `--pages`).
 * - Medians of `runs`, after one warm-up per input (the first compiles the module). Every input gets
 *   a fresh engine, so WASM MB (10^6 bytes, the largest `wasmMemoryBytes` seen) is that input's peak.
 * The TypeScript code (src/ and test/support/context.ts, extensionless imports) is bundled with
 * esbuild (wrangler's own) into node_modules/.cache, as bench-media.ts does.
 * Run: `npm run bench -- ocr` (or `node scripts/bench-ocr.ts [runs]` with Node ≥ 23).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median, bundleForNode } from "./bench-kit.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CORPUS = process.env.CORPUS_DIR ?? join(ROOT, "..", "shared", "corpus");
const TMP = join(tmpdir(), "bench-ocr-");
const ENV1 = { ...process.env, OMP_THREAD_LIMIT: "1" };

/** The images, with the resolution both sides are told. */
const IMAGES: [rel: string, dpi: number][] = [
  ["scans/tesseract-phototest.tif", 200],
  ["scans/tesseract-eurotext.tif", 300],
  ["scans/tesseractjs-bill.png", 96],
  ["scans/ocrmypdf-linn.png", 300],
];

/** Bundles the engines, pdf/ocr (and its pdf-lib pageInfo) and the test context for Node with esbuild (wrangler's own) into node_modules/.cache. */
async function loadEngine(): Promise<
  typeof import("../src/runtime/node/tesseract") &
    typeof import("../src/runtime/node/pdfium") &
    typeof import("../src/operations/pdf/ocr") &
    typeof import("../test/support/context") &
    typeof import("../src/engines/pdflib/engine")
> {
  return bundleForNode<
    typeof import("../src/runtime/node/tesseract") &
      typeof import("../src/runtime/node/pdfium") &
      typeof import("../src/operations/pdf/ocr") &
      typeof import("../test/support/context") &
      typeof import("../src/engines/pdflib/engine")
  >(
    "bench-ocr-engine",
    [
      'export { nodeTesseractEngine } from "./src/runtime/node/tesseract";',
      'export { nodePdfiumEngine } from "./src/runtime/node/pdfium";',
      'export { ocrPdf, ocrDpi } from "./src/operations/pdf/ocr";',
      'export { testContext } from "./test/support/context";',
      'export { createPdfLibEngine } from "./src/engines/pdflib/engine";',
    ].join("\n"),
  );
}

/** The first line of `cmd args`' output, or null when it is not installed. */
function version(cmd: string, args: string[]): string | null {
  const r = spawnSync(cmd, args, { encoding: "utf8" });
  return r.status === 0 ? `${r.stdout}${r.stderr}`.trim().split("\n")[0]! : null;
}

/** One native process, wall seconds; throws on a non-zero exit (the code in `.status`). */
function timeNative(cmd: string, args: string[]): number {
  const t = performance.now();
  const r = spawnSync(cmd, args, { env: ENV1, stdio: ["ignore", "ignore", "pipe"], maxBuffer: 1 << 26 });
  const s = (performance.now() - t) / 1000;
  if (r.status !== 0)
    throw Object.assign(
      new Error(`${cmd} exit ${r.status}: ${r.stderr.toString().trim().split("\n").slice(-2).join(" | ")}`),
      { status: r.status },
    );
  return s;
}

async function sequence<T>(n: number, fn: () => Promise<T> | T): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(await fn());
  return out;
}

export interface OcrBenchRow {
  input: string;
  versus: string;
  pages: string;
  /** seconds per page; a string: why there is no figure (OVER_BUDGET, an error) */
  ours: number | string;
  native: number | string | null;
  wasmMB: number | null;
}

/** Markdown table of benchOcr rows. */
export function formatOcrBench(rows: OcrBenchRow[]): string {
  const f = (x: number | string | null) => (x === null ? "—" : typeof x === "string" ? x : x.toFixed(2));
  return [
    "| input | ours vs native | pages | ours s/page | native s/page | ratio | WASM MB |",
    "|---|---|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.input} | ${r.versus} | ${r.pages} | ${f(r.ours)} | ${f(r.native)} | ${typeof r.ours === "number" && typeof r.native === "number" ? (r.ours / r.native).toFixed(2) : "—"} | ${r.wasmMB === null ? "—" : r.wasmMB.toFixed(0)} |`,
    ),
  ].join("\n");
}

/** Runs every input and prints the table; medians of `runs` after one warm-up each. */
export async function benchOcr(runs = 3): Promise<OcrBenchRow[]> {
  const t0 = performance.now();
  const tesseract = version("tesseract", ["--version"]);
  const ocrmypdf = version("ocrmypdf", ["--version"]);
  const notes: string[] = [];
  if (!tesseract) notes.push("native tesseract is not installed (npm run setup:native): its column is skipped");
  if (!ocrmypdf) notes.push("ocrmypdf is not installed: its column is skipped");
  const { nodeTesseractEngine, nodePdfiumEngine, ocrPdf, ocrDpi, testContext, createPdfLibEngine } = await loadEngine();
  const dir = mkdtempSync(TMP);
  const rows: OcrBenchRow[] = [];
  let wasmVersion = "?";
  try {
    for (const [rel, dpi] of IMAGES) {
      const path = join(CORPUS, rel);
      if (!existsSync(path)) {
        notes.push(`${rel} is not in ${CORPUS}: skipped`);
        continue;
      }
      const image = new Uint8Array(readFileSync(path));
      const size = execFileSync("identify", ["-format", "%wx%h", `${path}[0]`], { encoding: "utf8" }).replace("x", "×");
      const engine = nodeTesseractEngine();
      let peak = 0;
      const run = async () => {
        const t = performance.now();
        const r = await engine.recognize({ image, filename: basename(rel), languages: ["eng"], dpi });
        const s = (performance.now() - t) / 1000;
        wasmVersion = r.engineVersion;
        if (!r.ok) throw Object.assign(new Error(`${r.error.code}: ${r.error.message}`), { code: r.error.code });
        peak = Math.max(peak, r.wasmMemoryBytes ?? 0);
        return s;
      };
      let ours: number | string;
      try {
        await run(); // warm-up (compiles the module, loads eng)
        ours = median(await sequence(runs, run));
      } catch (err) {
        ours =
          (err as { code?: string }).code === "OVER_BUDGET"
            ? `OVER_BUDGET (${size})`
            : `error: ${(err as Error).message.slice(0, 80)}`;
      }
      let native: number | string | null = null;
      if (tesseract) {
        const args = [path, "-", "-l", "eng", "--dpi", String(dpi)];
        try {
          timeNative("tesseract", args);
          native = median(await sequence(runs, () => timeNative("tesseract", args)));
        } catch (err) {
          native = `error: ${(err as Error).message.slice(0, 80)}`;
        }
      }
      rows.push({
        input: `${basename(rel)} ${size} @ ${dpi} dpi`,
        versus: "engine.recognize vs tesseract",
        pages: "1",
        ours,
        native,
        wasmMB: peak && typeof ours === "number" ? peak / 1e6 : null,
      });
    }

    const pdfs: [name: string, path: string][] = [];
    const multipage = join(CORPUS, "scans/ocrmypdf-multipage.pdf");
    if (existsSync(multipage)) pdfs.push([basename(multipage), multipage]);
    else notes.push(`scans/ocrmypdf-multipage.pdf is not in ${CORPUS}: skipped`);
    try {
      const out = join(dir, "phototest-img2pdf.pdf");
      execFileSync(
        "/usr/bin/python3",
        [
          "-c",
          "import img2pdf,sys; open(sys.argv[2],'wb').write(img2pdf.convert(sys.argv[1], layout_fun=img2pdf.get_fixed_dpi_layout_fun((int(sys.argv[3]),)*2)))",
          join(CORPUS, "scans/tesseract-phototest.tif"),
          out,
          "200",
        ],
        { stdio: ["ignore", "ignore", "pipe"] },
      );
      pdfs.push(["phototest.tif → img2pdf 200 dpi", out]);
    } catch (err) {
      notes.push(
        `img2pdf (python3-img2pdf) could not write the phototest PDF: skipped (${(err as Error).message.split("\n")[0]})`,
      );
    }
    // each PDF whole, and, when pdf/ocr would refuse some of its pages as over budget, also just the pages it takes
    const pdfium = nodePdfiumEngine();
    const cases: { name: string; path: string; pages: number[]; total: number; only?: string }[] = [];
    for (const [name, path] of pdfs) {
      const info = await createPdfLibEngine().pageInfo!({
        input: { data: new Uint8Array(readFileSync(path)), filename: basename(path) },
      });
      if (!info.ok) {
        notes.push(`${name}: pdf-lib could not read it (${info.error.message}): skipped`);
        continue;
      }
      const todo = info.pages.flatMap((p, i) => (p.hasText ? [] : [i + 1]));
      const within = todo.filter((n) => {
        try {
          return ocrDpi(info.pages[n - 1]!, n, name) > 0;
        } catch {
          return false;
        }
      });
      cases.push({ name, path, pages: todo, total: info.pages.length });
      if (within.length && within.length < todo.length)
        cases.push({
          name: `${name}, pages ${within.join(",")} (those within budget)`,
          path,
          pages: within,
          total: info.pages.length,
          only: within.join(","),
        });
    }
    for (const c of cases) {
      const data = new Uint8Array(readFileSync(c.path));
      const inner = nodeTesseractEngine();
      let peak = 0;
      const tesseractEngine = {
        recognize: async (req: Parameters<typeof inner.recognize>[0]) => {
          const r = await inner.recognize(req);
          peak = Math.max(peak, r.ok ? (r.wasmMemoryBytes ?? 0) : 0);
          return r;
        },
      };
      const ctx = testContext({ engines: { pdfium, tesseract: tesseractEngine } });
      const input = {
        filename: basename(c.path),
        size: data.byteLength,
        fromTask: "previous",
        key: `memory/${basename(c.path)}`,
        bytes: async () => data,
      };
      const run = async () => {
        const t = performance.now();
        await ocrPdf.run([input], { language: ["eng"], ...(c.only ? { pages: c.only } : {}) }, ctx);
        return (performance.now() - t) / 1000;
      };
      let ours: number | string;
      try {
        await run(); // warm-up
        ours = median(await sequence(runs, run)) / c.pages.length;
      } catch (err) {
        const e = err as { code?: string; message: string };
        ours =
          e.code === "OVER_BUDGET"
            ? `OVER_BUDGET (${/page \d+ is \S+ pt/.exec(e.message)?.[0] ?? e.message.slice(0, 60)})`
            : `error: ${e.message.slice(0, 80)}`;
      }
      let native: number | string | null = null;
      let flag = "";
      if (ocrmypdf) {
        const args = () => [
          "-q",
          "--jobs",
          "1",
          "--output-type",
          "pdf",
          "-l",
          "eng",
          ...(flag ? [flag] : []),
          ...(c.only ? ["--pages", c.only] : []),
          c.path,
          join(dir, "ocrmypdf-out.pdf"),
        ];
        try {
          try {
            timeNative("ocrmypdf", args());
          } catch (err) {
            if ((err as { status?: number }).status !== 6) throw err; // 6: PriorOcrFound, a page has text
            flag = "--skip-text";
            timeNative("ocrmypdf", args());
          }
          native = median(await sequence(runs, () => timeNative("ocrmypdf", args()))) / c.pages.length;
        } catch (err) {
          native = `error: ${(err as Error).message.slice(0, 80)}`;
        }
      }
      rows.push({
        input: c.name,
        versus: `pdf/ocr vs ocrmypdf${flag ? ` ${flag}` : ""}${c.only ? ` --pages ${c.only}` : ""}`,
        pages: `${c.pages.length} of ${c.total}`,
        ours,
        native,
        wasmMB: peak && typeof ours === "number" ? peak / 1e6 : null,
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `\nOCR: tesseract ${wasmVersion} in WebAssembly (tesseract.js-core, best_int eng; Node ${process.version}, in-process) vs ${tesseract ?? "native tesseract (absent)"} with OMP_THREAD_LIMIT=1, and pdf/ocr vs ocrmypdf ${ocrmypdf ?? "(absent)"} --jobs 1; medians of ${runs}`,
  );
  console.log(formatOcrBench(rows));
  for (const n of notes) console.log(`note: ${n}`);
  console.log(
    `(native s/page includes process start and model load; s/page of a PDF = seconds / its pages without text (what both OCR); WASM MB = tesseract's WebAssembly memory only; section took ${((performance.now() - t0) / 1000).toFixed(0)} s)`,
  );
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await benchOcr(Number(process.argv[2] ?? 3));
