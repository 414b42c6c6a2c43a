/// <reference path="./modules.d.ts" />
/**
 * Loads the npm `ssh2` client inside workerd (storage-connectors.md §3.5). At module load ssh2 starts
 * its crypto init, which instantiates the Poly1305 WASM (for chacha20-poly1305) that its emscripten glue
 * carries as bytes — and workerd refuses to compile WASM at run time ("Wasm code generation disallowed
 * by embedder"). So while ssh2 loads, WebAssembly.instantiate on bytes answers the same module precompiled
 * by wrangler: poly1305.wasm, the bytes of ssh2 1.17's lib/protocol/crypto/poly1305.js (base64 data URI)
 * written out by scripts/extract-poly1305.mjs; test/unit/sftp-poly1305.test.ts holds them to the
 * installed ssh2. Loaded once per isolate.
 */
import type { Client } from "ssh2";

let loaded: Promise<typeof Client> | undefined;

/** The ssh2 Client class, loaded once. @throws Error when ssh2 or its crypto cannot be initialised */
export function loadSsh2(): Promise<typeof Client> {
  loaded ??= (async () => {
    const { default: poly1305 } = await import("./poly1305.wasm");
    const instantiate = WebAssembly.instantiate;
    const patched = async (src: unknown, imports?: WebAssembly.Imports) =>
      src instanceof WebAssembly.Module
        ? instantiate(src, imports)
        : { module: poly1305, instance: await instantiate(poly1305, imports) };
    WebAssembly.instantiate = patched as typeof WebAssembly.instantiate;
    try {
      const ssh2 = await import("ssh2");
      const crypto = await import("ssh2/lib/protocol/crypto.js");
      await crypto.init;
      return ssh2.Client;
    } finally {
      WebAssembly.instantiate = instantiate;
    }
  })();
  loaded.catch(() => (loaded = undefined));
  return loaded;
}
