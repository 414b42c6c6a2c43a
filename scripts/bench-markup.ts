/**
 * Benchmark of pandoc in WebAssembly (row "pandoc-wasm", issue 47) against its native twin, Debian's pandoc (the
 * native row's tool), on the same corpus file in the same run: medians of `runs` wall-clock times and their ratio
 * (WebAssembly ÷ native). The WebAssembly engine runs in this process with its instance warm (its first call, which
 * compiles and starts the 56 MiB module, is printed apart); the native figure is a `pandoc` process per conversion,
 * as the native engine runs it (process start included).
 * Run: `npm run bench -- markup` (or `node scripts/bench-markup.ts`).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleForNode, median } from "./bench-kit.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CORPUS = process.env.CORPUS_DIR ?? join(ROOT, "..", "shared", "corpus");

/** One case: a corpus file, its pandoc reader, the output format and the native writer's arguments. */
const CASES: { file: string; reader: string; output: string; writer: string[] }[] = [
  { file: "markup/tika-testMARKDOWN.md", reader: "markdown", output: "html", writer: ["-t", "html5", "-s"] },
  { file: "markup/tika-testMARKDOWN.md", reader: "markdown", output: "docx", writer: ["-t", "docx"] },
  { file: "markup/docutils-demo.rst", reader: "rst", output: "html", writer: ["-t", "html5", "-s"] },
  { file: "markup/docutils-demo.rst", reader: "rst", output: "docx", writer: ["-t", "docx"] },
  { file: "markup/texlive-sample2e.tex", reader: "latex", output: "html", writer: ["-t", "html5", "-s"] },
  { file: "html/gotenberg-feature-rich.html", reader: "html", output: "md", writer: ["-t", "markdown"] },
  { file: "ebooks/tika-test.fb2", reader: "fb2", output: "txt", writer: ["-t", "plain"] },
];

/** Runs the cases `runs` times each and prints one line per case. */
export async function benchMarkup(runs = 5): Promise<void> {
  const { nodePandocEngine } = await bundleForNode<typeof import("../src/runtime/node/pandoc")>(
    "bench-markup-engine",
    'export { nodePandocEngine } from "./src/runtime/node/pandoc";',
  );
  const engine = nodePandocEngine();
  const dir = mkdtempSync(join(tmpdir(), "bench-markup-"));
  const first = performance.now();
  const warm = await engine.convert({
    input: { data: new TextEncoder().encode("# warm\n"), filename: "w.md" },
    format: "html",
  });
  if (!warm.ok) throw new Error(warm.error.message);
  console.log(
    `markup  pandoc-wasm first call (compile + start + md → html): ${Math.round(performance.now() - first)} ms`,
  );
  try {
    for (const c of CASES) {
      const path = join(CORPUS, c.file);
      const data = new Uint8Array(readFileSync(path));
      const wasm: number[] = [];
      const native: number[] = [];
      for (let i = 0; i < runs; i++) {
        let t = performance.now();
        const r = await engine.convert({ input: { data, filename: path }, format: c.output });
        wasm.push(performance.now() - t);
        if (!r.ok) throw new Error(`${c.file} → ${c.output}: ${r.error.message}`);
        t = performance.now();
        const p = spawnSync("pandoc", ["-f", c.reader, ...c.writer, "-o", join(dir, `out.${c.output}`), path]);
        native.push(performance.now() - t);
        if (p.status !== 0) throw new Error(`pandoc: ${p.stderr}`);
      }
      const [w, n] = [median(wasm), median(native)];
      console.log(
        `markup  ${c.file.split("/").pop()} → ${c.output}`.padEnd(56) +
          `wasm ${w.toFixed(0).padStart(5)} ms   native ${n.toFixed(0).padStart(5)} ms   ratio ${(w / n).toFixed(2)}×`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchMarkup(Number(process.env.RUNS ?? 5));
