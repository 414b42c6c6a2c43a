/**
 * The api Worker's bindings and main module for the tests' `env` and `exports` (`cloudflare:test`, `cloudflare:workers`):
 * what `wrangler types` would declare, taken from src/env.ts and src/index.ts.
 */
import type { Env as ApiEnv } from "../../src/env";

declare global {
  namespace Cloudflare {
    interface Env extends ApiEnv {}
    interface GlobalProps {
      mainModule: typeof import("../../src/index");
    }
  }
}
