/**
 * One PDFium WebAssembly instance (@embedpdf/pdfium: PDFium, Apache-2.0/BSD, in an MIT wrapper),
 * created from a precompiled WebAssembly.Module so the same code runs in workerd (which forbids
 * compiling WASM from bytes: the module comes from `import wasm from "….wasm"`), in Node
 * (WebAssembly.compile of the file) and in browsers.
 *
 * The emscripten glue picks its environment from `process`; workerd exposes `process.versions.node`
 * even without nodejs_compat, which sends the glue down its Node path (`import("module")`), so
 * `process` is hidden while the glue starts (synchronously; wasm-engines.md "Errors met" 3).
 */
import { init } from "@embedpdf/pdfium";

/** The emscripten runtime pieces used by this adapter (the package's own types need @types/emscripten). */
export interface PdfiumRuntime {
  HEAPU8: Uint8Array;
  wasmExports: { malloc(size: number): number; free(ptr: number): void };
  getValue(ptr: number, type: "i32"): number;
  setValue(ptr: number, value: number, type: "i32"): void;
}

/** The cwrapped PDFium functions this adapter calls (pointers and handles are numbers). */
export interface Pdfium {
  pdfium: PdfiumRuntime;
  PDFiumExt_Init(): void;
  FPDF_GetLastError(): number;
  FPDF_LoadMemDocument(data: number, size: number, password: string): number;
  FPDF_CloseDocument(doc: number): void;
  FPDF_GetPageCount(doc: number): number;
  FPDF_LoadPage(doc: number, index: number): number;
  FPDF_ClosePage(page: number): void;
  FPDF_GetPageWidthF(page: number): number;
  FPDF_GetPageHeightF(page: number): number;
  FPDFPage_CountObjects(page: number): number;
  FPDFPage_GetObject(page: number, index: number): number;
  FPDFPageObj_GetType(obj: number): number;
  FPDFFormObj_CountObjects(form: number): number;
  FPDFFormObj_GetObject(form: number, index: number): number;
  FPDFImageObj_GetImagePixelSize(image: number, width: number, height: number): boolean;
  FPDFBitmap_Create(width: number, height: number, alpha: number): number;
  /** The form-fill layer (widget appearances): an info struct, the environment of a document, page hooks, drawing. */
  PDFiumExt_OpenFormFillInfo(): number;
  PDFiumExt_CloseFormFillInfo(info: number): void;
  PDFiumExt_InitFormFillEnvironment(doc: number, info: number): number;
  PDFiumExt_ExitFormFillEnvironment(form: number): void;
  FORM_OnAfterLoadPage(page: number, form: number): void;
  FORM_OnBeforeClosePage(page: number, form: number): void;
  /** Draws the form widgets of `page` over `bitmap`: FPDF_RenderPageBitmap's arguments after the form handle. */
  FPDF_FFLDraw(form: number, ...draw: PageDraw): void;
  FPDFBitmap_FillRect(bitmap: number, left: number, top: number, width: number, height: number, color: number): boolean;
  FPDFBitmap_GetBuffer(bitmap: number): number;
  FPDFBitmap_GetStride(bitmap: number): number;
  FPDFBitmap_Destroy(bitmap: number): void;
  FPDF_RenderPageBitmap(...draw: PageDraw): void;
}

/**
 * How PDFium draws a page into a bitmap (FPDF_RenderPageBitmap, and FPDF_FFLDraw after its form handle): the bitmap
 * and page handles, the page's box in the bitmap (pixels), its rotation (0–3 quarter turns) and FPDF_* flags.
 */
type PageDraw = [
  bitmap: number,
  page: number,
  x: number,
  y: number,
  w: number,
  h: number,
  rotate: number,
  flags: number,
];

/** Where the compiled module comes from on this platform (runtime/ seam). */
export type PdfiumWasmSource = () => WebAssembly.Module | Promise<WebAssembly.Module>;

/**
 * Instantiates PDFium from `module`. Logs of the glue are dropped (PDFium warns about every
 * damaged object; failures are reported through return values instead).
 */
export async function instantiatePdfium(module: WebAssembly.Module): Promise<Pdfium> {
  const g = globalThis as { process?: unknown };
  const saved = Object.getOwnPropertyDescriptor(globalThis, "process");
  Object.defineProperty(globalThis, "process", { value: undefined, configurable: true, writable: true });
  let pending: Promise<unknown>;
  let failed: (err: unknown) => void = () => {};
  const failure = new Promise<never>((_, reject) => (failed = reject));
  try {
    pending = init({
      instantiateWasm(
        imports: WebAssembly.Imports,
        done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
      ) {
        WebAssembly.instantiate(module, imports).then((instance) => done(instance, module), failed);
        return {};
      },
      print: () => {},
      printErr: () => {},
    } as never);
  } finally {
    if (saved) Object.defineProperty(globalThis, "process", saved);
    else delete g.process;
  }
  const pdfium = (await Promise.race([pending, failure])) as Pdfium;
  pdfium.PDFiumExt_Init();
  return pdfium;
}
