// Three test projects (DESIGN.md layout): unit (Node), worker (workerd via @cloudflare/vitest-plugin), e2e (wrangler dev + the official SDK).
// The worker project runs the real ImageMagick engine Worker as an auxiliary Worker behind the IMAGEMAGICK
// service binding: it is bundled once here with `wrangler deploy --dry-run` (the same bundle production gets).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { defineConfig } from "vitest/config";
import { cloudflareTest } from "@cloudflare/vitest-plugin";

const engineDir = join(import.meta.dirname, ".cache", "engine-imagemagick");

/** Bundles wasm/imagemagick for the worker project (skipped when only other projects run). */
function bundleImageMagickWorker(): string {
  if (!process.argv.some((a) => a === "unit" || a === "e2e") || process.argv.includes("worker")) {
    mkdirSync(engineDir, { recursive: true });
    execFileSync(process.execPath, [join("node_modules", "wrangler", "bin", "wrangler.js"), "deploy", "--dry-run", "--outdir", engineDir, "-c", "wasm/imagemagick/wrangler.toml"], {
      stdio: "ignore",
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", XDG_CONFIG_HOME: join(import.meta.dirname, ".cache", "config") },
    });
  }
  return join(engineDir, "worker.js");
}

const engineScript = bundleImageMagickWorker();

/** The bundle's modules: worker.js first, then its .wasm (compiled) and font (data) files. */
function engineModules() {
  const files = readdirSync(engineDir).filter((f) => /\.(wasm|ttf)$/.test(f));
  return [
    { type: "ESModule" as const, path: engineScript },
    ...files.map((f) => ({ type: f.endsWith(".wasm") ? ("CompiledWasm" as const) : ("Data" as const), path: join(engineDir, f) })),
  ];
}

export default defineConfig({
  test: {
    projects: [
      { test: { name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node", testTimeout: 60_000 } },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: { API_KEYS: "test-key-a:alice,test-key-b:bob", URL_SIGNING_SECRET: "test-signing-secret", ALLOW_PRIVATE_IMPORTS: "false" },
              workers: existsSync(engineScript)
                ? [{
                    name: "edge-convert-imagemagick",
                    modules: engineModules(),
                    modulesRoot: engineDir,
                    compatibilityDate: "2026-11-01",
                  }]
                : [],
            },
          }),
        ],
        test: { name: "worker", include: ["test/worker/**/*.test.ts"], testTimeout: 60_000 },
      },
      { test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], environment: "node", testTimeout: 180_000, hookTimeout: 180_000, fileParallelism: false } },
    ],
  },
});
