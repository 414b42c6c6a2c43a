/**
 * Shared glue for emscripten-built engines (ffmpeg, 7-Zip): workerd and Node expose `process`, so an
 * emscripten factory would take its Node branch (`require`, `__dirname`); run it as if in a browser
 * worker instead (shared/reference/wasm-engines.md, "Errors met" 2 and 3).
 */

/** Runs an emscripten factory as if in a browser worker (hides `process`, provides `location` and `self`). */
export async function asBrowser<T>(factory: () => Promise<T>): Promise<T> {
  const g = globalThis as Record<string, unknown>;
  const saved = Object.getOwnPropertyDescriptor(globalThis, "process");
  const added = ["location", "self"].filter((k) => g[k] === undefined);
  if (added.includes("location")) g.location = { href: "https://worker.invalid/" };
  if (added.includes("self")) g.self = globalThis;
  Object.defineProperty(globalThis, "process", { value: undefined, configurable: true, writable: true });
  try {
    return await factory();
  } finally {
    if (saved) Object.defineProperty(globalThis, "process", saved);
    else delete g.process;
    for (const k of added) delete g[k];
  }
}
