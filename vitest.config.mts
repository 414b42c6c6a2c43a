// Three test projects (DESIGN.md layout): unit (Node), worker (workerd via @cloudflare/vitest-plugin), e2e (wrangler dev + the official SDK).
// The worker project runs the real engine Workers (ImageMagick, ExifTool, ffmpeg, 7-Zip, tesseract) and the fonts Worker as auxiliary Workers behind their service
// bindings: each is bundled once here with `wrangler deploy --dry-run` (the same bundle production gets).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { defineConfig } from "vitest/config";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { DEFAULT_XDG_CACHE_HOME, setupBrowser } from "./scripts/setup-browser.mjs";

const ROOT = import.meta.dirname;
// The BROWSER binding (Browser Rendering) drives Debian's Chromium offline: miniflare finds the wrapper seeded under the
// project's XDG cache folder (scripts/setup-browser.mjs) and downloads nothing; $HOME stays untouched.
process.env.XDG_CACHE_HOME = DEFAULT_XDG_CACHE_HOME;
setupBrowser({ xdgCacheHome: DEFAULT_XDG_CACHE_HOME });
// the browser build (dist/browser/): the api Worker serves it as static assets, so it exists before any Worker starts
execFileSync(process.execPath, [join(ROOT, "scripts", "build-browser.mjs"), "--quiet"], { stdio: "inherit" });
const ENGINES = [
  { name: "edge-convert-fonts", config: "wasm/fonts/wrangler.toml", dir: join(ROOT, ".cache", "engine-fonts") },
  { name: "edge-convert-imagemagick", config: "wasm/imagemagick/wrangler.toml", dir: join(ROOT, ".cache", "engine-imagemagick"), serviceBindings: { FONTS: "edge-convert-fonts" } },
  { name: "edge-convert-exiftool", config: "wasm/exiftool/wrangler.toml", dir: join(ROOT, ".cache", "engine-exiftool") },
  { name: "edge-convert-ffmpeg", config: "wasm/ffmpeg/wrangler.toml", dir: join(ROOT, ".cache", "engine-ffmpeg") },
  { name: "edge-convert-7z", config: "wasm/7z/wrangler.toml", dir: join(ROOT, ".cache", "engine-7z") },
  { name: "edge-convert-tesseract", config: "wasm/tesseract/wrangler.toml", dir: join(ROOT, ".cache", "engine-tesseract") },
];
// Bundling takes seconds: only when the worker project can run (not for `--project unit|e2e` alone).
const needWorkers = !process.argv.some((a) => a === "unit" || a === "e2e") || process.argv.includes("worker");

/** Bundles one engine Worker and lists its modules: worker.js first, then .wasm (compiled) and data files. */
function engineWorker(e: (typeof ENGINES)[number]) {
  if (needWorkers) {
    mkdirSync(e.dir, { recursive: true });
    execFileSync(process.execPath, [join("node_modules", "wrangler", "bin", "wrangler.js"), "deploy", "--dry-run", "--outdir", e.dir, "-c", e.config], {
      cwd: ROOT,
      stdio: "ignore",
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", XDG_CONFIG_HOME: join(ROOT, ".cache", "config") },
    });
  }
  const main = join(e.dir, "worker.js");
  if (!existsSync(main)) return null;
  // compiled modules end in ".wasm", or "-wasm" when imported by a package export without the extension (@ffmpeg/core/wasm)
  const extra = readdirSync(e.dir).filter((f) => /[.-]wasm$|\.(ttf|otf|traineddata\.gz)$/.test(f));
  return {
    name: e.name,
    modulesRoot: e.dir,
    compatibilityDate: "2026-11-01",
    ...("serviceBindings" in e ? { serviceBindings: e.serviceBindings } : {}),
    modules: [
      { type: "ESModule" as const, path: main },
      ...extra.map((f) => ({ type: /[.-]wasm$/.test(f) ? ("CompiledWasm" as const) : ("Data" as const), path: join(e.dir, f) })),
    ],
  };
}

const engineWorkers = ENGINES.map(engineWorker).filter((w) => w !== null);

export default defineConfig({
  test: {
    projects: [
      { test: { name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node", testTimeout: 60_000 } },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: { API_KEYS: "test-key-a:alice,test-key-b:bob,test-key-c:carol", MAX_OPEN_JOBS: "20", RETENTION_SECONDS: "600", URL_SIGNING_SECRET: "test-signing-secret", ALLOW_PRIVATE_IMPORTS: "false", NATIVE_ENGINE: "off" },
              workers: engineWorkers,
            },
          }),
        ],
        test: { name: "worker", include: ["test/worker/**/*.test.ts"], testTimeout: 60_000 },
      },
      { test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], environment: "node", testTimeout: 180_000, hookTimeout: 180_000, fileParallelism: false } },
      // the browser build in Debian's headless Chromium (issue 19): also `npm run test:browser`
      { test: { name: "browser", include: ["test/browser/**/*.test.ts"], environment: "node", testTimeout: 180_000, hookTimeout: 180_000, fileParallelism: false } },
    ],
  },
});
