#!/usr/bin/env node
// `npm run sizes`: `wrangler deploy --dry-run` of every Worker; prints each bundle's total upload size against
// the 64 MiB limit (platform §1). Exits 1 when one is over.
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const LIMIT_KIB = 64 * 1024;
let over = false;
for (const config of ["wrangler.toml", "wasm/imagemagick/wrangler.toml", "wasm/exiftool/wrangler.toml", "wasm/ffmpeg/wrangler.toml"]) {
  const out = execFileSync(process.execPath, [join(ROOT, "node_modules/wrangler/bin/wrangler.js"), "deploy", "--dry-run", "--outdir", mkdtempSync(join(tmpdir(), "bundle-")), "-c", config], { cwd: ROOT, encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false", XDG_CONFIG_HOME: join(ROOT, ".cache", "config") } });
  const m = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(out);
  const kib = m ? Number(m[1]) : NaN;
  over ||= !(kib < LIMIT_KIB);
  console.log(`${config.padEnd(32)} ${(kib / 1024).toFixed(2).padStart(7)} MiB (gzip ${m ? (Number(m[2]) / 1024).toFixed(2) : "?"} MiB) of 64 MiB`);
}
process.exit(over ? 1 : 0);
