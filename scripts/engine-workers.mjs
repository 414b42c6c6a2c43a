// The one list of this project's Workers besides the api Worker (wrangler.toml): each engine Worker's name, its
// wrangler config and the service bindings it has to other Workers. Read by scripts/start.mjs (wrangler dev runs them
// all), scripts/deploy-check.mjs (each bundle against the 64 MiB limit) and vitest.config.mts (the worker project runs
// them as auxiliary Workers). Adding an engine Worker is one row here.
// Plain JavaScript: runs on any Node ≥ 18 before anything is compiled.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * @typedef {{ name: string, config: string, serviceBindings?: Record<string, string> }} EngineWorker
 * name: the Worker's name as the api Worker's service bindings name it; config: its wrangler.toml, relative to the
 * repository; serviceBindings: binding → Worker name, for Workers that call another (ImageMagick's text → FONTS).
 */
/** @type {readonly EngineWorker[]} fonts first: the Workers that bind to it come after it. */
export const ENGINE_WORKERS = [
  { name: "edge-convert-fonts", config: "wasm/fonts/wrangler.toml" },
  {
    name: "edge-convert-imagemagick",
    config: "wasm/imagemagick/wrangler.toml",
    serviceBindings: { FONTS: "edge-convert-fonts" },
  },
  {
    name: "edge-convert-resvg",
    config: "wasm/resvg/wrangler.toml",
    serviceBindings: { FONTS: "edge-convert-fonts", IMAGEMAGICK: "edge-convert-imagemagick" },
  },
  { name: "edge-convert-exiftool", config: "wasm/exiftool/wrangler.toml" },
  { name: "edge-convert-ffmpeg", config: "wasm/ffmpeg/wrangler.toml" },
  { name: "edge-convert-7z", config: "wasm/7z/wrangler.toml" },
  { name: "edge-convert-tesseract", config: "wasm/tesseract/wrangler.toml" },
  { name: "edge-convert-pandoc", config: "wasm/pandoc/wrangler.toml" },
];

/** Every wrangler config of the project: the api Worker's first, then the engine Workers'. */
export const WRANGLER_CONFIGS = ["wrangler.toml", ...ENGINE_WORKERS.map((w) => w.config)];

/**
 * A digest of the files a build reads: every regular file under `paths` (relative to the repository; folders walked,
 * node_modules and dot-folders skipped) by path and content, plus the lockfile (the packages' versions). Same sources →
 * same digest, so a build whose recorded digest matches is skipped. `except`: paths under `paths` the build never reads.
 * @param {string[]} paths
 * @param {string[]} [except]
 * @returns {string} hex SHA-256
 */
export function sourceDigest(paths, except = []) {
  const h = createHash("sha256");
  const skipped = new Set(except.map((p) => join(ROOT, p)));
  const walk = (p) => {
    if (!existsSync(p) || skipped.has(p)) return;
    if (statSync(p).isDirectory()) {
      for (const e of readdirSync(p).sort()) if (e !== "node_modules" && !e.startsWith(".")) walk(join(p, e));
      return;
    }
    h.update(relative(ROOT, p)).update("\0").update(readFileSync(p)).update("\0");
  };
  for (const p of [...paths, "package-lock.json"]) walk(join(ROOT, p));
  return h.digest("hex");
}

/**
 * Runs `build` unless `stampFile` records the digest of `paths` and every `outputs` path exists; records the digest
 * after a successful build. Returns true when it built.
 * @param {{ stampFile: string, paths: string[], except?: string[], outputs: string[], build: () => void }} o
 */
export function buildIfChanged({ stampFile, paths, except, outputs, build }) {
  const digest = sourceDigest(paths, except);
  const fresh =
    existsSync(stampFile) && readFileSync(stampFile, "utf8") === digest && outputs.every((o) => existsSync(o));
  if (fresh) return false;
  build();
  writeFileSync(stampFile, digest);
  return true;
}

/**
 * The folders a bundle may read: every top-level folder of code (src, wasm, container, durable-objects and any added
 * later), not the tests, benchmarks, scripts or build output.
 */
const CODE_FOLDERS = readdirSync(ROOT).filter(
  (e) =>
    !e.startsWith(".") &&
    !["node_modules", "dist", "test", "bench", "scripts"].includes(e) &&
    statSync(join(ROOT, e)).isDirectory(),
);

/**
 * Bundles `w` with `wrangler deploy --dry-run` (the bundle production gets) into .cache/engine-<name>/ unless its
 * sources are unchanged since the last bundle, and lists its modules for miniflare: worker.js first, then the compiled
 * .wasm (or "-wasm" when a package export imports it without the extension, @ffmpeg/core/wasm) and data files.
 * @param {EngineWorker} w
 * @throws Error when wrangler fails (its output in the message)
 */
export function bundledEngineWorker(w) {
  const dir = join(ROOT, ".cache", `engine-${w.name.replace(/^edge-convert-/, "")}`);
  mkdirSync(dir, { recursive: true });
  const main = join(dir, "worker.js");
  buildIfChanged({
    stampFile: join(dir, ".sources"),
    paths: [...CODE_FOLDERS, w.config],
    outputs: [main],
    build: () =>
      execFileSync(
        process.execPath,
        [
          join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js"),
          "deploy",
          "--dry-run",
          "--outdir",
          dir,
          "-c",
          w.config,
        ],
        {
          cwd: ROOT,
          stdio: "pipe",
          env: { ...process.env, WRANGLER_SEND_METRICS: "false", XDG_CONFIG_HOME: join(ROOT, ".cache", "config") },
        },
      ),
  });
  const extra = readdirSync(dir).filter((f) => /[.-]wasm$|\.(ttf|otf|traineddata\.gz)$/.test(f));
  return {
    name: w.name,
    modulesRoot: dir,
    compatibilityDate: "2026-11-01",
    ...(w.serviceBindings ? { serviceBindings: w.serviceBindings } : {}),
    modules: [
      { type: "ESModule", path: main },
      ...extra.map((f) => ({ type: /[.-]wasm$/.test(f) ? "CompiledWasm" : "Data", path: join(dir, f) })),
    ],
  };
}

/**
 * Builds dist/browser/ (npm run build:browser) and dist/console/ (npm run build:console, the console page's script and
 * styles), the static assets the api Worker serves, each unless its sources are unchanged since its last build.
 * Returns true when either was built.
 */
export function buildBrowserIfChanged() {
  const out = join(ROOT, "dist", "browser");
  const browser = buildIfChanged({
    stampFile: join(ROOT, ".cache", "browser-sources"),
    paths: [...CODE_FOLDERS, "scripts/build-browser.mjs"],
    // the browser build does not read the console (built below)
    except: ["src/console"],
    outputs: [join(out, "sizes.json"), join(out, "worker.js")],
    build: () => {
      mkdirSync(join(ROOT, ".cache"), { recursive: true });
      execFileSync(process.execPath, [join(ROOT, "scripts", "build-browser.mjs"), "--quiet"], { stdio: "inherit" });
    },
  });
  // the console imports only src/console (and types, erased): a change elsewhere does not rebuild it
  const consoleBuilt = buildIfChanged({
    stampFile: join(ROOT, ".cache", "console-sources"),
    paths: ["src/console", "scripts/build-console.mjs"],
    outputs: [join(ROOT, "dist", "console", "console.js"), join(ROOT, "dist", "console", "console.css")],
    build: () => {
      mkdirSync(join(ROOT, ".cache"), { recursive: true });
      execFileSync(process.execPath, [join(ROOT, "scripts", "build-console.mjs")], { stdio: "inherit" });
    },
  });
  return browser || consoleBuilt;
}
