/**
 * Node's way of obtaining pdfium.wasm (the per-platform seam of DESIGN.md "runtime/"): read the
 * file from node_modules and compile it. workerd imports it as a module instead
 * (`import pdfiumWasm from "@embedpdf/pdfium/pdfium.wasm"`, a CompiledWasm rule); the engine code is the same.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { createPdfiumEngine, type PdfiumEngine } from "../../engines/pdfium";

let compiled: Promise<WebAssembly.Module> | undefined;

/** Compiles @embedpdf/pdfium's pdfium.wasm (4.6 MB) once per process. */
export function loadPdfiumWasm(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const require = createRequire(import.meta.url);
    return WebAssembly.compile(await readFile(require.resolve("@embedpdf/pdfium/pdfium.wasm")));
  })();
  return compiled;
}

/** The in-process PDFium engine for Node (tests, bench, the local runner). */
export function nodePdfiumEngine(opts: { maxMemoryBytes?: number } = {}): PdfiumEngine {
  return createPdfiumEngine({ loadWasm: loadPdfiumWasm, ...opts });
}
