/**
 * Engine identity of the WebAssembly SVG renderer (row "resvg", registry.ts), known without loading
 * its module: resvg (Rust; usvg, fontdb 0.14, rustybuzz 0.7, tiny-skia 0.10) as built by the npm
 * package `@resvg/resvg-wasm`, whose version this is.
 */
export const RESVG_ENGINE = { name: "resvg", version: "2.6.2" } as const;
