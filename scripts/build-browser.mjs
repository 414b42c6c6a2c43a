// npm run build:browser (issue 19): the browser build of the engine into dist/browser/ —
//   edge-convert.js  the entry a web app imports (runJob; a Web Worker client, nothing else)
//   worker.js        the Web Worker: the local job runner, operations, engine code (no .wasm)
//   *.wasm, exiftool-perl.json, fonts/   the engines' assets, fetched only when a task needs them
//   index.html       the page at /browser/ (convert a dropped file entirely in the browser)
// with esbuild (the one wrangler brings). The api Worker serves dist/ as static assets, so all of
// this is at /browser/; the folder works as static files on any server too. Prints the sizes.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = join(ROOT, "dist", "browser");
const require = createRequire(join(ROOT, "package.json"));
const quiet = process.argv.includes("--quiet");

rmSync(OUT, { recursive: true, force: true });
mkdirSync(join(OUT, "fonts"), { recursive: true });

const common = { bundle: true, format: "esm", platform: "browser", target: "es2022", minify: true, sourcemap: false, logLevel: "warning", legalComments: "linked" };
await build({ ...common, entryPoints: { "edge-convert": join(ROOT, "src/browser/index.ts") }, outdir: OUT });
await build({ ...common, entryPoints: { worker: join(ROOT, "src/browser/worker.ts") }, outdir: OUT, external: ["node:*", "module", "fs", "fs/promises", "path", "url", "crypto", "worker_threads", "os", "child_process"] });

const assets = {
  "pdfium.wasm": require.resolve("@embedpdf/pdfium/pdfium.wasm"),
  "magick.wasm": require.resolve("@imagemagick/magick-wasm/magick.wasm"),
  "zeroperl.wasm": require.resolve("@6over3/zeroperl-ts/zeroperl.wasm"),
  "exiftool-perl.json": join(ROOT, "wasm/exiftool/perl-files.json"),
  "7zz.wasm": join(require.resolve("7z-wasm"), "..", "7zz.wasm"),
};
for (const [name, from] of Object.entries(assets)) copyFileSync(from, join(OUT, name));
// the watermark fonts (engines/text/faces.ts FONT_LOCATIONS): DejaVu from wasm/fonts, Noto from their packages
const faces = readFileSync(join(ROOT, "src/engines/text/faces.ts"), "utf8");
for (const [, file, loc] of faces.matchAll(/"([\w-]+\.(?:ttf|otf))": "([^"]+)"/g)) {
  const from = loc === "wasm/fonts" ? join(ROOT, "wasm/fonts", file) : join(dirname(require.resolve(loc)), "..", "fonts", file);
  copyFileSync(from, join(OUT, "fonts", file));
}
copyFileSync(join(ROOT, "src/browser/page/index.html"), join(OUT, "index.html"));
// workerd's static assets need no headers file; other static servers must answer .wasm as application/wasm.

const kb = (f) => (statSync(join(OUT, f)).size / 1024).toFixed(1);
const report = { "edge-convert.js (entry)": `${kb("edge-convert.js")} KB`, "worker.js": `${kb("worker.js")} KB`, ...Object.fromEntries(Object.keys(assets).map((a) => [a, `${(statSync(join(OUT, a)).size / 1048576).toFixed(2)} MiB`])) };
writeFileSync(join(OUT, "sizes.json"), JSON.stringify(report, null, 2));
if (!quiet) for (const [k, v] of Object.entries(report)) console.log(`${k.padEnd(26)} ${v}`);
