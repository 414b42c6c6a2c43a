// Three test projects (DESIGN.md layout): unit (Node), worker (workerd via @cloudflare/vitest-plugin), e2e (wrangler dev + the official SDK).
import { defineConfig } from "vitest/config";
import { cloudflareTest } from "@cloudflare/vitest-plugin";

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
            },
          }),
        ],
        test: { name: "worker", include: ["test/worker/**/*.test.ts"], testTimeout: 60_000 },
      },
      { test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], environment: "node", testTimeout: 180_000, hookTimeout: 180_000, fileParallelism: false } },
    ],
  },
});
