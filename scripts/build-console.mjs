// npm run build:console: the console page's script and styles (src/console/main.ts and console.css) into dist/console/
// — console.js (one ES module, esbuild, the one wrangler brings) and console.css — served at /console/ as static
// assets beside the browser build (wrangler.toml [assets]); the page itself (src/console/index.html) is the api
// Worker's text module. scripts/engine-workers.mjs buildBrowserIfChanged runs this when src/console changed.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = join(ROOT, "dist", "console");

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
await build({
  entryPoints: { console: join(ROOT, "src/console/main.ts") },
  outdir: OUT,
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  sourcemap: true,
  logLevel: "warning",
});
copyFileSync(join(ROOT, "src/console/console.css"), join(OUT, "console.css"));
