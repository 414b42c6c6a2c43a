// What the browser build of the engine leaves as unresolved imports — one list for scripts/build-browser.mjs and the
// browser contract test (test/browser/contract.test.ts), which bundles the same code and must leave out the same.
/** Worker-only: import/sftp's SSH client and TCP sockets (src/stores/sftp loads them with import() when a task runs). */
export const WORKER_ONLY = ["ssh2", "cloudflare:sockets", "*/poly1305.wasm"];
/** Node built-ins the engines' Node paths name (never reached in the browser). */
export const NODE_BUILTINS = [
  "node:*",
  "module",
  "fs",
  "fs/promises",
  "path",
  "url",
  "crypto",
  "worker_threads",
  "os",
  "child_process",
];
