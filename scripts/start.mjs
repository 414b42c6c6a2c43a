#!/usr/bin/env node
// `npm start`: serves the API offline under `wrangler dev` on http://localhost:${PORT:-8787}, with every
// Worker of the project in one dev session (api Worker first, engine Workers as auxiliaries).
// Honoured from the environment: PORT, API_KEYS (default: the local development key "dev-key" for user "dev"),
// ALLOW_PRIVATE_IMPORTS (development only), URL_SIGNING_SECRET, MAX_IMPORT_BYTES, STORE_PART_BYTES, R2_PART_BYTES, R2_SINGLE_PUT_BYTES, NATIVE_STREAM_BYTES, RETENTION_SECONDS, ENGINE_ORDER, MAX_OPEN_JOBS, ACCOUNT_CONCURRENCY, METER (the cost meter), BROWSER_REUSE, WEB_PROFILE, PERSIST_TO,
// NATIVE_ENGINE_URL (use a native engine already running there), NATIVE (=off: none), NATIVE_PORT.
// The native engine (container/server.ts) starts first as a local process on a free loopback port — the same server
// the production Container runs — and wrangler dev reaches it through NATIVE_ENGINE_URL with containers disabled
// (no Docker engine needed; shared/reference/cloudflare-platform.md §6).
// The BROWSER binding (Browser Rendering) drives Debian's Chromium offline: scripts/setup-browser.mjs seeds its wrapper under
// the project's XDG cache folder (.cache/xdg), which wrangler dev gets as XDG_CACHE_HOME, so nothing is downloaded (§5).
// Wrangler's local observability (X_LOCAL_OBSERVABILITY, on by default in wrangler dev) is off unless set: it streams a
// trace of every invocation of every Worker and Durable Object to a collector Worker that writes them to SQLite for the
// local explorer — measured (issue 37, a CPU profile of workerd's isolates at HTML → PDF concurrency 4) as ~1/5 of
// workerd's CPU per job, work that has no counterpart in the deployed service. X_LOCAL_OBSERVABILITY=true turns it on.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_XDG_CACHE_HOME, setupBrowser } from "./setup-browser.mjs";
import { WRANGLER_CONFIGS, buildBrowserIfChanged } from "./engine-workers.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const env = process.env;
const configs = WRANGLER_CONFIGS.filter((c) => existsSync(join(root, c)));
/** A free loopback port that is not `avoid` (the API's own PORT, which wrangler binds only after the native engine is up). */
const freePort = async (avoid) => {
  for (;;) {
    const port = await new Promise((resolve, reject) => {
      const s = createServer();
      s.listen(0, "127.0.0.1", () => {
        const { port } = s.address();
        s.close(() => resolve(port));
      });
      s.on("error", reject);
    });
    if (String(port) !== String(avoid)) return port;
  }
};

/** Starts container/server.ts and waits for GET /health; returns [url, child] or [] when it did not come up. */
async function startNative() {
  const port = env.NATIVE_PORT || String(await freePort(env.PORT || "8787"));
  const native = spawn(process.execPath, [join(root, "container", "server.ts")], {
    cwd: root,
    stdio: "inherit",
    env: { ...env, PORT: port, HOST: "127.0.0.1" },
  });
  const url = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 60_000; Date.now() < until && native.exitCode === null;) {
    try {
      if ((await fetch(`${url}/health`)).ok) return [url, native];
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  console.error("The native engine did not start; pdf/a, pdf/x, office documents and command are unavailable.");
  native.kill("SIGKILL");
  return [];
}

const browser = setupBrowser({ xdgCacheHome: DEFAULT_XDG_CACHE_HOME });
// the browser build (dist/browser/, served at /browser/ as static assets) and the console's script and styles
// (dist/console/, at /console/): wrangler needs the folders to exist. Each rebuilt when its sources changed since its
// last build (a digest check of ~60 ms otherwise).
buildBrowserIfChanged();
if (!browser.chromium)
  console.error(
    "Chromium is missing (apt-get install -y chromium): the BROWSER binding will fail until it is installed.",
  );
const [nativeUrl, nativeChild] = env.NATIVE_ENGINE_URL
  ? [env.NATIVE_ENGINE_URL]
  : env.NATIVE === "off"
    ? []
    : await startNative();
const vars = {
  API_KEYS: env.API_KEYS || "dev-key:dev",
  URL_SIGNING_SECRET: env.URL_SIGNING_SECRET || "local-development-signing-secret",
  ALLOW_PRIVATE_IMPORTS: env.ALLOW_PRIVATE_IMPORTS || "false",
  ...(env.RETENTION_SECONDS ? { RETENTION_SECONDS: env.RETENTION_SECONDS } : {}),
  ...(env.MAX_WAIT_SECONDS ? { MAX_WAIT_SECONDS: env.MAX_WAIT_SECONDS } : {}),
  ...(env.ENGINE_ORDER ? { ENGINE_ORDER: env.ENGINE_ORDER } : {}),
  ...(env.MAX_OPEN_JOBS ? { MAX_OPEN_JOBS: env.MAX_OPEN_JOBS } : {}),
  ...(env.METER ? { METER: env.METER } : {}),
  ...(env.BROWSER_REUSE ? { BROWSER_REUSE: env.BROWSER_REUSE } : {}),
  ...(env.BROWSER_BESIDE ? { BROWSER_BESIDE: env.BROWSER_BESIDE } : {}),
  ...(env.WEB_PROFILE ? { WEB_PROFILE: env.WEB_PROFILE } : {}),
  ...(env.AZURE_BLOB_ENDPOINT ? { AZURE_BLOB_ENDPOINT: env.AZURE_BLOB_ENDPOINT } : {}),
  ...(env.GCS_ENDPOINT ? { GCS_ENDPOINT: env.GCS_ENDPOINT } : {}),
  ...Object.fromEntries(
    [
      "MAX_IMPORT_BYTES",
      "STORE_PART_BYTES",
      "R2_PART_BYTES",
      "R2_SINGLE_PUT_BYTES",
      "NATIVE_STREAM_BYTES",
      "ACCOUNT_CONCURRENCY",
    ]
      .filter((k) => env[k])
      .map((k) => [k, env[k]]),
  ),
  ...(nativeUrl ? { NATIVE_ENGINE_URL: nativeUrl } : { NATIVE_ENGINE: "off" }),
};
const args = [
  "dev",
  ...configs.flatMap((c) => ["-c", c]),
  "--port",
  env.PORT || "8787",
  "--ip",
  env.IP || "127.0.0.1",
  "--show-interactive-dev-session=false",
  "--enable-containers=false",
];
for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
if (env.PERSIST_TO) args.push("--persist-to", env.PERSIST_TO);
const wrangler = join(root, "node_modules", "wrangler", "bin", "wrangler.js");
const child = spawn(process.execPath, [wrangler, ...args], {
  cwd: root,
  stdio: "inherit",
  env: {
    ...env,
    // wrangler.toml's [secrets] required: wrangler dev looks for them in its environment (else it warns they are missing)
    API_KEYS: vars.API_KEYS,
    URL_SIGNING_SECRET: vars.URL_SIGNING_SECRET,
    WRANGLER_SEND_METRICS: "false",
    // off unless asked for: see the header comment
    X_LOCAL_OBSERVABILITY: env.X_LOCAL_OBSERVABILITY ?? "false",
    XDG_CONFIG_HOME: join(root, ".cache", "config"),
    XDG_CACHE_HOME: DEFAULT_XDG_CACHE_HOME,
  },
});
for (const sig of ["SIGINT", "SIGTERM"])
  process.on(sig, () => {
    child.kill(sig);
    nativeChild?.kill(sig);
  });
child.on("exit", (code, signal) => {
  nativeChild?.kill("SIGTERM");
  process.exit(code ?? (signal ? 1 : 0));
});
