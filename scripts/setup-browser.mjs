#!/usr/bin/env node
// `npm run setup:browser` (also run by `npm start` and the vitest config before wrangler/miniflare start): makes the local
// Browser Rendering binding (BROWSER) drive Debian's Chromium instead of downloading Chrome for Testing at run time.
// Miniflare launches `${XDG_CACHE_HOME}/.wrangler/chrome/linux-<BROWSER_VERSION>/chrome-linux64/chrome` and downloads nothing
// when that file exists (shared/reference/cloudflare-platform.md §5). For every BROWSER_VERSION of every miniflare installed
// (wrangler's and the vitest plugin's may differ) this seeds there a wrapper that execs /usr/bin/chromium --no-sandbox, plus
// the `.miniflare-install-complete` marker: without it one failed launch makes miniflare delete the folder and re-download.
// The wrapper fails at once (exit 127, a message on stderr) when Chromium is missing. Idempotent and fast (no write when
// up to date). Usage: node scripts/setup-browser.mjs [xdg-cache-dir]   (default: <repo>/.cache/xdg, git-ignored)
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { arch, platform } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The project's XDG cache folder: point XDG_CACHE_HOME here so $HOME stays untouched. */
export const DEFAULT_XDG_CACHE_HOME = join(ROOT, ".cache", "xdg");
const MARKER = ".miniflare-install-complete";

/** The shell wrapper miniflare launches as "Chrome". */
export const WRAPPER = `#!/bin/sh
# Written by scripts/setup-browser.mjs: the local Browser Rendering binding (miniflare) launches this as Chrome for Testing;
# it runs Debian's Chromium instead (apt-get install chromium). --no-sandbox: as root Chromium refuses to start without it.
# setpriv --pdeathsig KILL: the browser dies with the process that launched it (wrangler dev exits on SIGTERM before
# miniflare closes its browsers, and Chromium runs in its own process group, so it would outlive the server).
PD=""; if command -v setpriv >/dev/null 2>&1; then PD="setpriv --pdeathsig KILL"; fi
if [ -x /usr/bin/chromium ]; then exec $PD /usr/bin/chromium --no-sandbox "$@"; fi
if command -v chromium >/dev/null 2>&1; then exec $PD chromium --no-sandbox "$@"; fi
echo "edge-convert: Browser Rendering (BROWSER binding) needs Chromium: /usr/bin/chromium not found and no chromium on PATH. Install it with: apt-get install -y chromium" >&2
exit 127
`;

/** Every miniflare bundle under node_modules: the top-level one and those nested one package deep (wrangler's, plugins'). */
function miniflareBundles(root) {
  const nm = join(root, "node_modules");
  const rel = join("miniflare", "dist", "src", "index.js");
  const found = [join(nm, rel)];
  let entries = [];
  try {
    entries = readdirSync(nm);
  } catch {
    return [];
  }
  for (const e of entries) {
    if (e.startsWith(".")) continue;
    const pkgs = e.startsWith("@") ? safeReaddir(join(nm, e)).map((p) => join(nm, e, p)) : [join(nm, e)];
    for (const p of pkgs) found.push(join(p, "node_modules", rel));
  }
  return found.filter((f) => existsSync(f));
}
const safeReaddir = (d) => {
  try {
    return readdirSync(d);
  } catch {
    return [];
  }
};

/** The distinct BROWSER_VERSION constants of the installed miniflare bundles. */
export function browserVersions(root = ROOT) {
  const versions = new Set();
  for (const f of miniflareBundles(root)) {
    const m = /\bvar BROWSER_VERSION = "([^"]+)"/.exec(readFileSync(f, "utf8"));
    if (m) versions.add(m[1]);
  }
  return [...versions];
}

/** @puppeteer/browsers' platform folder name, or undefined where the wrapper does not apply (not Linux). */
function platformFolder() {
  if (platform() !== "linux") return undefined;
  return arch() === "arm64" ? "linux_arm" : "linux";
}

/**
 * Seeds the wrapper and marker for every installed BROWSER_VERSION under `xdgCacheHome`.
 * Returns what it did; `chromium` is the Chromium the wrapper will run (null: missing, launches will fail fast).
 * @param {{ xdgCacheHome?: string, root?: string }} [opts]
 */
export function setupBrowser({ xdgCacheHome = DEFAULT_XDG_CACHE_HOME, root = ROOT } = {}) {
  const folder = platformFolder();
  const chromium = findChromium();
  if (!folder)
    return {
      seeded: [],
      written: [],
      chromium,
      skipped: `not Linux (${platform()}): miniflare uses its own Chrome for Testing`,
    };
  const seeded = [];
  const written = [];
  for (const version of browserVersions(root)) {
    const installDir = join(resolve(xdgCacheHome), ".wrangler", "chrome", `${folder}-${version}`);
    const exe = join(installDir, "chrome-linux64", "chrome");
    mkdirSync(dirname(exe), { recursive: true });
    let current = null;
    try {
      current = readFileSync(exe, "utf8");
    } catch {
      // not there yet
    }
    if (current !== WRAPPER) {
      // write-then-rename: a concurrent reader (another test run starting) never sees a half-written wrapper
      const tmp = `${exe}.${process.pid}.tmp`;
      writeFileSync(tmp, WRAPPER, { mode: 0o755 });
      renameSync(tmp, exe);
      written.push(exe);
    } else if ((statSync(exe).mode & 0o111) !== 0o111) {
      chmodSync(exe, 0o755);
    }
    if (!existsSync(join(installDir, MARKER))) writeFileSync(join(installDir, MARKER), "");
    seeded.push(exe);
  }
  return { seeded, written, chromium };
}

/** The Chromium the wrapper runs: /usr/bin/chromium, else `chromium` on PATH; null when neither. */
export function findChromium() {
  if (isExecutable("/usr/bin/chromium")) return "/usr/bin/chromium";
  for (const d of (process.env.PATH ?? "").split(":")) {
    if (d && isExecutable(join(d, "chromium"))) return join(d, "chromium");
  }
  return null;
}
function isExecutable(f) {
  try {
    const s = statSync(f);
    return s.isFile() && (s.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const xdgCacheHome = process.argv[2] ? resolve(process.argv[2]) : DEFAULT_XDG_CACHE_HOME;
  const r = setupBrowser({ xdgCacheHome });
  if (r.skipped) console.log(`setup-browser: skipped, ${r.skipped}`);
  else if (r.seeded.length === 0)
    console.log("setup-browser: no miniflare installed (run npm install first); nothing seeded");
  else
    for (const exe of r.seeded)
      console.log(`setup-browser: ${r.written.includes(exe) ? "wrote" : "up to date"} ${exe}`);
  if (!r.chromium)
    console.error(
      "setup-browser: Chromium not found; the BROWSER binding will fail until you run: apt-get install -y chromium",
    );
  else console.log(`setup-browser: the BROWSER binding runs ${r.chromium}; use XDG_CACHE_HOME=${xdgCacheHome}`);
}
