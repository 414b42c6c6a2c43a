/**
 * The engines of a browser page: pdf-lib (pure JavaScript) and PDFium from a served pdfium.wasm.
 * The image and metadata engines join when the browser bundle gives them loaders (issue 19);
 * until then their work ends with ENGINE_UNAVAILABLE in a browser, never with a wrong result.
 */
import { createPdfLibEngine } from "../../engines/pdflib/engine";
import type { EngineInstances } from "../../engines/registry";
import { browserPdfiumEngine } from "./pdfium";

/** Where the page serves the engines' assets. */
export interface BrowserAssets {
  /** URL of pdfium.wasm. */
  pdfiumWasm: string | URL;
}

/** In-page engines. */
export function browserEngines(assets: BrowserAssets): EngineInstances {
  return { cloudflare: {}, pdflib: createPdfLibEngine(), pdfium: browserPdfiumEngine(assets.pdfiumWasm) };
}
