// npm run build:browser (issue 19): the browser build of the engine into dist/browser/ —
//   edge-convert.js  the entry a web app imports (runJob; a Web Worker client, nothing else)
//   worker.js        the Web Worker: the local job runner and operations; chunks/: each engine's code, imported
//                    on its first call (no .wasm)
//   *.wasm, ffmpeg-core.wasm.0/.1, pandoc.wasm.0/.1/.2, exiftool-perl.json, tessdata/, fonts/   the engines' assets, fetched only
//                    when a task needs them
//   index.html       the page at /browser/ (convert a dropped file entirely in the browser)
// with esbuild (the one wrangler brings). The api Worker serves dist/ as static assets, so all of
// this is at /browser/; the folder works as static files on any server too. Prints the sizes.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { NODE_BUILTINS, WORKER_ONLY } from "./browser-externals.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = join(ROOT, "dist", "browser");
const require = createRequire(join(ROOT, "package.json"));
const quiet = process.argv.includes("--quiet");

rmSync(OUT, { recursive: true, force: true });
mkdirSync(join(OUT, "fonts"), { recursive: true });

const common = {
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  sourcemap: false,
  logLevel: "warning",
  legalComments: "linked",
  // the browser never runs storage operations: their Worker-only imports stay unresolved there
  external: WORKER_ONLY,
};
await build({ ...common, entryPoints: { "edge-convert": join(ROOT, "src/browser/index.ts") }, outdir: OUT });
// the worker with each engine's code as a chunk of its own, imported on the engine's first call (splitting)
await build({
  ...common,
  entryPoints: { worker: join(ROOT, "src/browser/worker.ts") },
  outdir: OUT,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  external: [...WORKER_ONLY, ...NODE_BUILTINS],
});

const assets = {
  "pdfium.wasm": require.resolve("@embedpdf/pdfium/pdfium.wasm"),
  "magick.wasm": require.resolve("@imagemagick/magick-wasm/magick.wasm"),
  "resvg.wasm": require.resolve("@resvg/resvg-wasm/index_bg.wasm"),
  "zeroperl.wasm": require.resolve("@6over3/zeroperl-ts/zeroperl.wasm"),
  "exiftool-perl.json": join(ROOT, "wasm/exiftool/perl-files.json"),
  "7zz.wasm": join(require.resolve("7z-wasm"), "..", "7zz.wasm"),
  "tesseract-core-simd.wasm": join(
    dirname(require.resolve("tesseract.js-core/package.json")),
    "tesseract-core-simd.wasm",
  ),
};
for (const [name, from] of Object.entries(assets)) copyFileSync(from, join(OUT, name));
// ffmpeg-core.wasm (30.7 MiB) and pandoc.wasm (55.9 MiB) in parts: static hosts, Workers assets among them, take
// 25 MiB a file (src/runtime/browser/engines.ts FFMPEG_PARTS, PANDOC_PARTS: it compiles their concatenation as one stream)
const writeParts = (name, bytes, parts) => {
  const part = Math.ceil(bytes.length / parts);
  for (let i = 0; i < parts; i++) writeFileSync(join(OUT, `${name}.${i}`), bytes.subarray(i * part, (i + 1) * part));
};
writeParts("ffmpeg-core.wasm", readFileSync(join(require.resolve("@ffmpeg/core"), "..", "ffmpeg-core.wasm")), 2);
// pandoc-wasm exports only its entry; pandoc.wasm sits beside it
writeParts("pandoc.wasm", readFileSync(join(dirname(require.resolve("pandoc-wasm")), "pandoc.wasm")), 3);
mkdirSync(join(OUT, "tessdata"), { recursive: true });
for (const lang of ["eng", "fra", "osd"])
  copyFileSync(
    join(
      dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`)),
      "4.0.0_best_int",
      `${lang}.traineddata.gz`,
    ),
    join(OUT, "tessdata", `${lang}.traineddata.gz`),
  );
// the watermark fonts (engines/text/faces.ts FONT_LOCATIONS, paths from the root): DejaVu from wasm/fonts, Noto from their packages
const faces = readFileSync(join(ROOT, "src/engines/text/faces.ts"), "utf8");
for (const [, file, loc] of faces.matchAll(/"([\w-]+\.(?:ttf|otf))": "([^"]+\.(?:ttf|otf))"/g))
  copyFileSync(join(ROOT, loc), join(OUT, "fonts", file));
// the ffmpeg text watermark's DejaVu faces (native-protocol/media/formats.ts FONT_FILES) are among them (wasm/fonts)
for (const f of readFileSync(join(ROOT, "native-protocol/media/formats.ts"), "utf8").matchAll(/"(DejaVu[\w-]+\.ttf)"/g))
  copyFileSync(join(ROOT, "wasm/fonts", f[1]), join(OUT, "fonts", f[1]));
copyFileSync(join(ROOT, "src/browser/page/index.html"), join(OUT, "index.html"));
// workerd's static assets need no headers file; other static servers must answer .wasm as application/wasm.

const kb = (f) => (statSync(join(OUT, f)).size / 1024).toFixed(1);
// what the first job loads before any engine: worker.js and the chunks it imports statically
const core = new Set();
const walk = (f) => {
  if (core.has(f)) return;
  core.add(f);
  for (const m of readFileSync(join(OUT, f), "utf8").matchAll(/(?:from|import)\s*"(\.\/[^"]+)"/g))
    walk(join(dirname(f), m[1]));
};
walk("worker.js");
const chunkBytes = (files) => [...files].reduce((n, f) => n + statSync(join(OUT, f)).size, 0);
const all = new Set(["worker.js", ...readdirSync(join(OUT, "chunks")).map((f) => join("chunks", f))]);
const report = {
  "edge-convert.js (entry)": `${kb("edge-convert.js")} KB`,
  "worker core (first job)": `${(chunkBytes(core) / 1024).toFixed(1)} KB`,
  "engine code (on demand)": `${((chunkBytes(all) - chunkBytes(core)) / 1024).toFixed(1)} KB`,
  ...Object.fromEntries(
    Object.keys(assets).map((a) => [a, `${(statSync(join(OUT, a)).size / 1048576).toFixed(2)} MiB`]),
  ),
};
writeFileSync(join(OUT, "sizes.json"), JSON.stringify(report, null, 2));
if (!quiet) for (const [k, v] of Object.entries(report)) console.log(`${k.padEnd(26)} ${v}`);
