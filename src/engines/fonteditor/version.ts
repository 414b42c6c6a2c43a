/**
 * Engine identity of the JavaScript font engine (row "fonteditor", registry.ts), known without loading
 * it: the npm package `fonteditor-core` (MIT, pure JavaScript; its WOFF2 WebAssembly is not used),
 * whose version this is.
 */
export const FONTEDITOR_ENGINE = { name: "fonteditor", version: "2.6.3" } as const;
