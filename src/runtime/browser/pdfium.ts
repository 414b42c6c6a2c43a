/**
 * The browser's way of obtaining pdfium.wasm (the per-host seam of DESIGN.md "runtime/"): compile
 * it while it downloads from `url` (the web app serves the file; the api Worker serves it under
 * /browser/ once the browser bundle lands, issue 19). The engine code is the same as in Node and
 * workerd.
 */
import { createPdfiumEngine } from "../../engines/pdfium/engine";
import type { PdfiumEngine } from "../../engines/pdfium/types";

/** Compiles pdfium.wasm from `url` (streaming; the server must answer application/wasm). */
export function loadPdfiumWasm(url: string | URL): Promise<WebAssembly.Module> {
  return WebAssembly.compileStreaming(fetch(url));
}

/** The in-page PDFium engine; the module is fetched and compiled on the first call. */
export function browserPdfiumEngine(url: string | URL): PdfiumEngine {
  let compiled: Promise<WebAssembly.Module> | undefined;
  return createPdfiumEngine({ loadWasm: () => (compiled ??= loadPdfiumWasm(url)) });
}
