#!/usr/bin/env node
// `npm run sizes`: `wrangler deploy --dry-run` of every Worker; prints each bundle's total upload size against
// the 64 MiB limit (platform §1). Exits 1 when one is over.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { WRANGLER_CONFIGS } from "./engine-workers.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const LIMIT_KIB = 64 * 1024;
let over = false;
/**
 * The config to size: the api Worker's without its [[containers]] block (a dry run with containers
 * needs a Docker CLI to build the image, and the image is not part of the Worker's bundle).
 */
function sizable(config) {
  const text = readFileSync(join(ROOT, config), "utf8");
  if (!text.includes("[[containers]]")) return config;
  const stripped = text.replace(/\[\[containers\]\][\s\S]*?(?=\n\[)/, "");
  // beside the original (its relative paths stay valid), with the .toml ending wrangler parses by; removed after the run
  const copy = join(ROOT, `.sizes-${config.replace(/[^\w.]/g, "_")}`);
  writeFileSync(copy, stripped);
  return copy;
}

for (const config of WRANGLER_CONFIGS) {
  const file = sizable(config);
  let out;
  try {
    out = execFileSync(
      process.execPath,
      [
        join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
        "deploy",
        "--dry-run",
        "--outdir",
        mkdtempSync(join(tmpdir(), "bundle-")),
        "-c",
        file,
      ],
      {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, WRANGLER_SEND_METRICS: "false", XDG_CONFIG_HOME: join(ROOT, ".cache", "config") },
      },
    );
  } finally {
    if (file !== config) rmSync(file, { force: true });
  }
  const m = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(out);
  const kib = m ? Number(m[1]) : NaN;
  over ||= !(kib < LIMIT_KIB);
  console.log(
    `${config.padEnd(32)} ${(kib / 1024).toFixed(2).padStart(7)} MiB (gzip ${m ? (Number(m[2]) / 1024).toFixed(2) : "?"} MiB) of 64 MiB`,
  );
}
process.exit(over ? 1 : 0);
