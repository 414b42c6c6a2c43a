// The test projects, split by what a file costs (issue 30 part 1; README "Tests"):
//   unit     pure functions, no engine, no tool, no server: milliseconds a file
//   engines  the WebAssembly engines in Node against native oracles (qpdf, pdfinfo, identify, exiftool, 7z…)
//   engines-heavy  the same, for the format-by-format sweeps that take a minute or more each (out of `npm test`)
//   native   the native engine: container/server.ts, LibreOffice's pool, Debian's ffmpeg/tesseract/ImageMagick
//   corpus   whole-corpus agreement sweeps (every file of ../shared/corpus through an engine and its oracle)
//   worker   the api Worker and its Durable Objects in workerd (@cloudflare/vitest-plugin), with the real engine Workers
//   e2e      `npm start` (wrangler dev + the native engine) driven by the official SDK; servers shared per configuration
//   browser  the browser build in Debian's headless Chromium
// `npm test` runs the fast set a developer runs before every commit; `npm run test:all` (what .ci/run runs) runs every
// project. Nothing heavy happens when this file loads: the engine Worker bundles and the browser build are made in the
// global setup of the projects that need them (test/support/worker-build-setup.ts, servers-setup.ts), before any pool
// starts, each only when its sources changed (scripts/engine-workers.mjs).
import { availableParallelism, loadavg } from "node:os";
import { defineConfig } from "vitest/config";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { DEFAULT_XDG_CACHE_HOME, setupBrowser } from "./scripts/setup-browser.mjs";
import { ENGINE_WORKERS, buildBrowserIfChanged, bundledEngineWorker } from "./scripts/engine-workers.mjs";

// The BROWSER binding (Browser Rendering) drives Debian's Chromium offline: miniflare finds the wrapper seeded under the
// project's XDG cache folder (scripts/setup-browser.mjs) and downloads nothing; $HOME stays untouched.
process.env.XDG_CACHE_HOME = DEFAULT_XDG_CACHE_HOME;

/**
 * The factor on every timeout below: × 4/cores (at least 1: twice the room on this 2-core machine, where a heavy case
 * took 72 s against a 60 s limit in CI), and × (1 + the load per core when the run starts, at most 3×) — `stress-ng
 * -c 2` already running beside a run on 2 cores doubles it again. TEST_TIME_SCALE overrides it; the test processes read it there (test/support/time-scale.ts). Timeouts
 * catch hangs; they must not fail a suite that is only slower (issue 46 item 6).
 */
const cores = availableParallelism();
const TIME_SCALE =
  Number(process.env.TEST_TIME_SCALE) || Math.max(1, 4 / cores) * (1 + Math.min(2, loadavg()[0]! / cores));
process.env.TEST_TIME_SCALE = TIME_SCALE.toFixed(2);
const scaled = (ms: number) => Math.round(ms * TIME_SCALE);

/** Fails a run at once, naming the Debian packages to install, when a tool the tests or the native engine run is absent. */
const TOOLS = "test/support/tools-check.ts";

/** A Node project of test/<name>/ (files mostly wait on engines and child processes: two at once on 2 cores). */
const nodeProject = (name: string, over: Record<string, unknown> = {}) => ({
  test: {
    name,
    include: [`test/${name}/**/*.test.ts`],
    environment: "node",
    testTimeout: scaled(60_000),
    isolate: false,
    ...over,
  },
});

export default defineConfig({
  test: {
    // vitest's default leaves one worker on 2 cores; the files of engines/native/worker mostly wait on child processes
    maxWorkers: 2,
    // the global setups' teardown stops up to four `npm start` servers (wrangler, workerd, the native engine): more than
    // vitest's default 10 s on a busy machine, after which it exits and leaves their stragglers behind
    teardownTimeout: scaled(60_000),
    projects: [
      nodeProject("unit"),
      nodeProject("engines", { globalSetup: [TOOLS] }),
      nodeProject("engines-heavy", { testTimeout: scaled(300_000), globalSetup: [TOOLS] }),
      nodeProject("native", { hookTimeout: scaled(120_000), globalSetup: [TOOLS] }),
      nodeProject("corpus", { testTimeout: scaled(600_000), globalSetup: [TOOLS] }),
      {
        plugins: [
          // evaluated when the worker project starts (not for a run of other projects): the browser build the api
          // Worker serves as assets, Chromium's wrapper for BROWSER, and each engine Worker bundled as production gets it
          cloudflareTest(() => {
            setupBrowser({ xdgCacheHome: DEFAULT_XDG_CACHE_HOME });
            buildBrowserIfChanged();
            return {
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: {
                  API_KEYS: "test-key-a:alice,test-key-b:bob,test-key-c:carol,test-key-d:dave",
                  MAX_OPEN_JOBS: "20",
                  RETENTION_SECONDS: "600",
                  URL_SIGNING_SECRET: "test-signing-secret",
                  ALLOW_PRIVATE_IMPORTS: "false",
                  NATIVE_ENGINE: "off",
                },
                workers: ENGINE_WORKERS.map(bundledEngineWorker),
              },
            };
          }),
        ],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          testTimeout: scaled(60_000),
          // the bundles and the browser build made before the pool starts (its start has a fixed 90 s limit)
          globalSetup: [TOOLS, "test/support/worker-build-setup.ts"],
          isolate: false,
        },
      },
      // one server per configuration for the whole run (test/support/servers.ts); files one after another on them
      // (one file at a time: a group of its own, after the others — vitest runs projects of one maxWorkers together)
      nodeProject("e2e", {
        testTimeout: scaled(180_000),
        hookTimeout: scaled(180_000),
        fileParallelism: false,
        sequence: { groupOrder: 1 },
        globalSetup: [TOOLS, "test/support/servers-setup.ts"],
        setupFiles: ["test/support/fetch-retry.ts"],
      }),
      // issue 35's 1 GB transfer (import/url → export/s3 and export/url, workerd's memory sampled): `npm run test:slow`,
      // run by .ci/run through test:all, alone and last (it moves ~4 GB through loopback and disk)
      nodeProject("slow", {
        testTimeout: scaled(1_200_000),
        hookTimeout: scaled(600_000),
        fileParallelism: false,
        sequence: { groupOrder: 3 },
        globalSetup: [TOOLS],
      }),
      // the browser build in Debian's headless Chromium (issue 19): also `npm run test:browser`
      nodeProject("browser", {
        testTimeout: scaled(180_000),
        hookTimeout: scaled(180_000),
        fileParallelism: false,
        sequence: { groupOrder: 2 },
        globalSetup: [TOOLS, "test/support/servers-setup.ts"],
        setupFiles: ["test/support/fetch-retry.ts"],
      }),
    ],
  },
});
