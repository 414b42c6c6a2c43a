/**
 * workerd's way of obtaining pdfium.wasm (the per-platform seam of DESIGN.md "runtime/"): wrangler
 * bundles the imported .wasm as a precompiled WebAssembly.Module (default CompiledWasm rule for
 * **\/*.wasm; workerd refuses to compile WASM from bytes at run time). 4.6 MB, so PDFium can live
 * in the api Worker itself; the engine code is the same as in Node (runtime/node-pdfium.ts).
 */
import pdfiumWasm from "@embedpdf/pdfium/pdfium.wasm";
import { createPdfiumEngine, type PdfiumEngine } from "../../engines/pdfium";

let engine: PdfiumEngine | undefined;

/** The isolate's PDFium engine (created once; the WASM instance itself is created on first use). */
export function workerdPdfiumEngine(): PdfiumEngine {
  engine ??= createPdfiumEngine({ loadWasm: () => pdfiumWasm });
  return engine;
}
