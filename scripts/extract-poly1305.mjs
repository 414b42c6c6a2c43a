#!/usr/bin/env node
// Writes src/stores/sftp/poly1305.wasm: the Poly1305 WASM that ssh2's emscripten glue (lib/protocol/crypto/poly1305.js)
// carries as a base64 data URI, so wrangler can precompile it (workerd refuses to compile WASM at run time; see
// src/stores/sftp/load.ts). Run after upgrading ssh2; test/unit/sftp-poly1305.test.ts fails while the file is stale.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(`${ROOT}package.json`);

/** The WASM bytes inside ssh2's poly1305.js. @throws Error when the data URI is not found */
export function poly1305Bytes() {
  const glue = readFileSync(require.resolve("ssh2/lib/protocol/crypto/poly1305.js"), "utf8");
  const m = /data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/.exec(glue);
  if (!m) throw new Error("no base64 WASM in ssh2's poly1305.js");
  return Buffer.from(m[1], "base64");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const bytes = poly1305Bytes();
  writeFileSync(`${ROOT}src/stores/sftp/poly1305.wasm`, bytes);
  console.log(`src/stores/sftp/poly1305.wasm: ${bytes.length} bytes`);
}
