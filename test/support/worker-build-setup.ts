/**
 * Global setup of the worker project (issue 46 item 6): makes what the project's workerd needs — the browser build the
 * api Worker serves as assets, Chromium's wrapper for BROWSER, and each engine Worker's bundle — before vitest starts
 * the project's pool. The pool's own start (vitest's WORKER_START_TIMEOUT, a fixed 90 s) then only starts workerd: on
 * a fresh clone the bundles took most of those 90 s, and on a slower or busy machine the first `npm test` failed with
 * "Timeout starting cloudflare-pool runner". Each build is skipped when its sources are unchanged
 * (scripts/engine-workers.mjs), so the plugin's callback in vitest.config.mts finds them current.
 */
import { DEFAULT_XDG_CACHE_HOME, setupBrowser } from "../../scripts/setup-browser.mjs";
import { ENGINE_WORKERS, buildBrowserIfChanged, bundledEngineWorker } from "../../scripts/engine-workers.mjs";

export default function setup(): void {
  const started = performance.now();
  setupBrowser({ xdgCacheHome: DEFAULT_XDG_CACHE_HOME });
  const built = [buildBrowserIfChanged() ? "browser build" : ""].filter(Boolean);
  for (const w of ENGINE_WORKERS) bundledEngineWorker(w);
  const ms = Math.round(performance.now() - started);
  if (ms > 2000) console.log(`worker project: ${[...built, "engine Worker bundles"].join(", ")} made in ${ms} ms`);
}
