// The test projects, split by what a file costs (issue 30 part 1; README "Tests"):
//   unit     pure functions, no engine, no tool, no server: milliseconds a file
//   engines  the WebAssembly engines in Node against native oracles (qpdf, pdfinfo, identify, exiftool, 7z…)
//   native   the native engine: container/server.ts, LibreOffice's pool, Debian's ffmpeg/tesseract/ImageMagick
//   corpus   whole-corpus agreement sweeps (every file of ../shared/corpus through an engine and its oracle)
//   worker   the api Worker and its Durable Objects in workerd (@cloudflare/vitest-plugin), with the real engine Workers
//   e2e      `npm start` (wrangler dev + the native engine) driven by the official SDK; servers shared per configuration
//   browser  the browser build in Debian's headless Chromium
// `npm test` runs the fast set a developer runs before every commit; `npm run test:all` (what .ci/run runs) runs every
// project. Nothing heavy happens when this file loads: the engine Worker bundles are made when the worker project
// starts, the browser build in the global setup of the projects that serve it, each only when its sources changed
// (scripts/engine-workers.mjs).
import { defineConfig } from "vitest/config";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { DEFAULT_XDG_CACHE_HOME, setupBrowser } from "./scripts/setup-browser.mjs";
import { ENGINE_WORKERS, buildBrowserIfChanged, bundledEngineWorker } from "./scripts/engine-workers.mjs";

// The BROWSER binding (Browser Rendering) drives Debian's Chromium offline: miniflare finds the wrapper seeded under the
// project's XDG cache folder (scripts/setup-browser.mjs) and downloads nothing; $HOME stays untouched.
process.env.XDG_CACHE_HOME = DEFAULT_XDG_CACHE_HOME;

/** Fails a run at once, naming the Debian packages to install, when a tool the tests or the native engine run is absent. */
const TOOLS = "test/support/tools-check.ts";

/** A Node project of test/<name>/ (files mostly wait on engines and child processes: two at once on 2 cores). */
const nodeProject = (name: string, over: Record<string, unknown> = {}) => ({
  test: {
    name,
    include: [`test/${name}/**/*.test.ts`],
    environment: "node",
    testTimeout: 60_000,
    isolate: false,
    ...over,
  },
});

export default defineConfig({
  test: {
    // vitest's default leaves one worker on 2 cores; the files of engines/native/worker mostly wait on child processes
    maxWorkers: 2,
    projects: [
      nodeProject("unit"),
      nodeProject("engines", { globalSetup: [TOOLS] }),
      nodeProject("native", { hookTimeout: 120_000, globalSetup: [TOOLS] }),
      nodeProject("corpus", { testTimeout: 600_000, globalSetup: [TOOLS] }),
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
          testTimeout: 60_000,
          globalSetup: [TOOLS],
          isolate: false,
        },
      },
      // one server per configuration for the whole run (test/support/servers.ts); files one after another on them
      // (one file at a time: a group of its own, after the others — vitest runs projects of one maxWorkers together)
      nodeProject("e2e", {
        testTimeout: 180_000,
        hookTimeout: 180_000,
        fileParallelism: false,
        sequence: { groupOrder: 1 },
        globalSetup: [TOOLS, "test/support/servers-setup.ts"],
      }),
      // issue 35's 1 GB transfer (import/url → export/s3 and export/url, workerd's memory sampled): `npm run test:slow`,
      // run by .ci/run through test:all, alone and last (it moves ~4 GB through loopback and disk)
      nodeProject("slow", {
        testTimeout: 1_200_000,
        hookTimeout: 600_000,
        fileParallelism: false,
        sequence: { groupOrder: 3 },
        globalSetup: [TOOLS],
      }),
      // the browser build in Debian's headless Chromium (issue 19): also `npm run test:browser`
      nodeProject("browser", {
        testTimeout: 180_000,
        hookTimeout: 180_000,
        fileParallelism: false,
        sequence: { groupOrder: 2 },
        globalSetup: [TOOLS, "test/support/servers-setup.ts"],
      }),
    ],
  },
});
