#!/usr/bin/env node
// `npm start`: serves the API offline under `wrangler dev` on http://localhost:${PORT:-8787}, with every
// Worker of the project in one dev session (api Worker first, engine Workers as auxiliaries).
// Honoured from the environment: PORT, API_KEYS (default: the local development key "dev-key" for user "dev"),
// ALLOW_PRIVATE_IMPORTS (development only), URL_SIGNING_SECRET, RETENTION_SECONDS, ENGINE_ORDER, MAX_OPEN_JOBS, PERSIST_TO.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const env = process.env;
const configs = ["wrangler.toml", ...["wasm/imagemagick/wrangler.toml", "wasm/exiftool/wrangler.toml"].filter((c) => existsSync(join(root, c)))];
const vars = {
  API_KEYS: env.API_KEYS || "dev-key:dev",
  URL_SIGNING_SECRET: env.URL_SIGNING_SECRET || "local-development-signing-secret",
  ALLOW_PRIVATE_IMPORTS: env.ALLOW_PRIVATE_IMPORTS || "false",
  ...(env.RETENTION_SECONDS ? { RETENTION_SECONDS: env.RETENTION_SECONDS } : {}),
  ...(env.MAX_WAIT_SECONDS ? { MAX_WAIT_SECONDS: env.MAX_WAIT_SECONDS } : {}),
  ...(env.ENGINE_ORDER ? { ENGINE_ORDER: env.ENGINE_ORDER } : {}),
  ...(env.MAX_OPEN_JOBS ? { MAX_OPEN_JOBS: env.MAX_OPEN_JOBS } : {}),
};
const args = ["dev", ...configs.flatMap((c) => ["-c", c]), "--port", env.PORT || "8787", "--ip", env.IP || "127.0.0.1", "--show-interactive-dev-session=false"];
for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
if (env.PERSIST_TO) args.push("--persist-to", env.PERSIST_TO);
const wrangler = join(root, "node_modules", "wrangler", "bin", "wrangler.js");
const child = spawn(process.execPath, [wrangler, ...args], { cwd: root, stdio: "inherit", env: { ...env, WRANGLER_SEND_METRICS: "false", XDG_CONFIG_HOME: join(root, ".cache", "config") } });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
