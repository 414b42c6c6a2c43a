/**
 * Engine identity of 7-Zip in WebAssembly (7z-wasm 1.2.0 = 7-Zip 24.09, its banner line; the
 * archive engine test asserts the two agree, so a package bump cannot drift silently).
 */
export const SEVENZIP_ENGINE = { name: "7z", version: "24.09" } as const;
