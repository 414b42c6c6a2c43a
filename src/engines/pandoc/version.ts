/** pandoc in WebAssembly (issue 47): pandoc-wasm 1.1.0, the official pandoc.wasm of pandoc 3.10 (GPL-2.0-or-later). */
export const PANDOC_WASM_ENGINE = { name: "pandoc-wasm", version: "3.10" } as const;
