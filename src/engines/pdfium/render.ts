/**
 * Rendering the pages of one PDF with a PDFium instance: open (passwords), resolve pages, check
 * every budget before the first bitmap, then render page by page to PNG (png.ts). Pages are drawn
 * with annotations (FPDF_ANNOT) and form widgets (the form-fill layer, FPDF_FFLDraw), on white, in R,G,B byte order.
 * @throws TaskError OVER_BUDGET | OPEN_FAILED | INVALID_PASSWORD | INVALID_PAGES
 */
import { TaskError } from "../errors";
import { checkBytes, checkPages } from "../pdflib/budget";
import { passwordCandidates } from "../pdflib/password";
import { resolvePageSet } from "../kinds/pdf-pages";
import type { Pdfium } from "./instance";
import { encodePng, filterRows } from "./png";
import { DEFAULT_DENSITY, rasterSize, type PageRaster } from "./size";
import type { RasterBudget, RasterPage, RasterRequest } from "./types";

const FPDF_ANNOT = 0x01;
const FPDF_REVERSE_BYTE_ORDER = 0x10;
const FPDF_ERR_PASSWORD = 4;
const PAGEOBJ_IMAGE = 3;
const PAGEOBJ_FORM = 5;

/** Opens the document in `pdfium`; the input stays in the WASM heap at `data` until closed. */
function openDoc(pdfium: Pdfium, data: number, size: number, req: RasterRequest): number {
  let err = 0;
  for (const password of passwordCandidates(req.password)) {
    const doc = pdfium.FPDF_LoadMemDocument(data, size, password);
    if (doc) return doc;
    err = pdfium.FPDF_GetLastError();
    if (err !== FPDF_ERR_PASSWORD) break;
  }
  if (err === FPDF_ERR_PASSWORD) {
    throw new TaskError(
      "INVALID_PASSWORD",
      req.password === undefined
        ? `${req.filename} is encrypted and needs a password: give it in the task's \`password\` parameter.`
        : `${req.filename}: the password is wrong.`,
    );
  }
  throw new TaskError("OPEN_FAILED", `${req.filename} could not be read as a PDF (PDFium error ${err}).`);
}

/** Sum of the pixels of the images a page (and its form XObjects, 4 levels deep) declares. */
function imagePixels(pdfium: Pdfium, holder: number, isForm: boolean, scratch: number, depth = 0): number {
  const count = isForm ? pdfium.FPDFFormObj_CountObjects(holder) : pdfium.FPDFPage_CountObjects(holder);
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const obj = isForm ? pdfium.FPDFFormObj_GetObject(holder, i) : pdfium.FPDFPage_GetObject(holder, i);
    const type = pdfium.FPDFPageObj_GetType(obj);
    if (type === PAGEOBJ_IMAGE && pdfium.FPDFImageObj_GetImagePixelSize(obj, scratch, scratch + 4)) {
      sum += (pdfium.pdfium.getValue(scratch, "i32") >>> 0) * (pdfium.pdfium.getValue(scratch + 4, "i32") >>> 0);
    } else if (type === PAGEOBJ_FORM && depth < 4) {
      sum += imagePixels(pdfium, obj, true, scratch, depth + 1);
    }
  }
  return sum;
}

/** Plans every selected page's bitmap and checks the pixel budgets before anything is drawn. */
function plan(
  pdfium: Pdfium,
  doc: number,
  pages: number[],
  req: RasterRequest,
  budget: RasterBudget,
  scratch: number,
): (PageRaster & { density?: number })[] {
  let total = 0;
  return pages.map((n) => {
    const page = pdfium.FPDF_LoadPage(doc, n - 1);
    if (!page) throw new TaskError("OPEN_FAILED", `${req.filename}: page ${n} could not be read.`);
    try {
      const [ptW, ptH] = [pdfium.FPDF_GetPageWidthF(page), pdfium.FPDF_GetPageHeightF(page)];
      let r: PageRaster & { density?: number } = rasterSize(ptW, ptH, req);
      if (r.w * r.h > budget.maxPagePixels && req.fitPageBudget && !req.density && !req.width && !req.height) {
        // drawn at the density that fits the page budget (fitPageBudget: no engine to hand the page to)
        const pixelsAt = (density: number) => {
          const s = rasterSize(ptW, ptH, { density });
          return s.w * s.h;
        };
        let density = Math.floor(DEFAULT_DENSITY * Math.sqrt(budget.maxPagePixels / (r.w * r.h)));
        while (density > 1 && pixelsAt(density) > budget.maxPagePixels) density--;
        r = { ...rasterSize(ptW, ptH, { density }), density };
      }
      const px = r.w * r.h;
      total += px;
      if (px > budget.maxPagePixels) {
        throw new TaskError(
          "OVER_BUDGET",
          `${req.filename}: page ${n} would be ${r.w} × ${r.h} pixels; at most ${budget.maxPagePixels / 1e6} megapixels per page. Lower pixel_density or set width/height.`,
        );
      }
      if (total > budget.maxTotalPixels) {
        throw new TaskError(
          "OVER_BUDGET",
          `${req.filename}: the selected pages add up to more than ${budget.maxTotalPixels / 1e6} megapixels. Select fewer pages or lower pixel_density.`,
        );
      }
      const images = imagePixels(pdfium, page, false, scratch);
      if (images > budget.maxImagePixels) {
        throw new TaskError(
          "OVER_BUDGET",
          `${req.filename}: page ${n} holds images of ${Math.round(images / 1e6)} megapixels; at most ${budget.maxImagePixels / 1e6} are decoded per page.`,
        );
      }
      return r;
    } finally {
      pdfium.FPDF_ClosePage(page);
    }
  });
}

/** Renders one page to PNG. */
async function renderPage(
  pdfium: Pdfium,
  doc: number,
  form: number,
  n: number,
  r: PageRaster & { density?: number },
  density: number | undefined,
): Promise<RasterPage> {
  const page = pdfium.FPDF_LoadPage(doc, n - 1);
  if (form) pdfium.FORM_OnAfterLoadPage(page, form);
  const bitmap = pdfium.FPDFBitmap_Create(r.w, r.h, 0);
  if (!bitmap) {
    pdfium.FPDF_ClosePage(page);
    throw new TaskError("OVER_BUDGET", `page ${n}: no memory for a ${r.w} × ${r.h} bitmap.`);
  }
  let filtered;
  try {
    pdfium.FPDFBitmap_FillRect(bitmap, 0, 0, r.w, r.h, 0xffffffff);
    pdfium.FPDF_RenderPageBitmap(bitmap, page, r.ox, r.oy, r.sw, r.sh, 0, FPDF_ANNOT | FPDF_REVERSE_BYTE_ORDER);
    // Form widgets: in a document with an AcroForm, PDFium leaves widget annotations to the form layer
    // (FPDF_FFLDraw draws their appearance streams, as viewers do); without it field values are blank.
    if (form) pdfium.FPDF_FFLDraw(form, bitmap, page, r.ox, r.oy, r.sw, r.sh, 0, FPDF_ANNOT | FPDF_REVERSE_BYTE_ORDER);
    filtered = filterRows(
      pdfium.pdfium.HEAPU8,
      pdfium.FPDFBitmap_GetBuffer(bitmap),
      r.w,
      r.h,
      pdfium.FPDFBitmap_GetStride(bitmap),
    );
  } finally {
    pdfium.FPDFBitmap_Destroy(bitmap);
    if (form) pdfium.FORM_OnBeforeClosePage(page, form);
    pdfium.FPDF_ClosePage(page);
  }
  const png = await encodePng(filtered, r.density ?? density);
  return { page: n, width: r.w, height: r.h, png, ...(r.density ? { fittedDensity: r.density } : {}) };
}

/** Renders the requested pages of `req.input`; see the module comment for errors. */
export async function renderPages(
  pdfium: Pdfium,
  req: RasterRequest,
  budget: RasterBudget,
): Promise<{ pages: RasterPage[]; pageCount: number }> {
  const input = req.input;
  // a stream is a PDF too large to hold here (issue 49): the native pdftoppm takes it
  if (!(input instanceof Uint8Array))
    throw new TaskError("OVER_BUDGET", `${req.filename} is streamed; PDFium renders only PDFs it holds in memory.`);
  checkBytes(input.byteLength, req.filename, budget);
  const heap = pdfium.pdfium;
  const data = heap.wasmExports.malloc(input.byteLength);
  const scratch = heap.wasmExports.malloc(8);
  if (!data || !scratch) throw new TaskError("OVER_BUDGET", `${req.filename}: no memory to load it.`);
  heap.HEAPU8.set(input, data);
  let doc = 0;
  let formInfo = 0;
  let form = 0;
  try {
    doc = openDoc(pdfium, data, input.byteLength, req);
    const pageCount = pdfium.FPDF_GetPageCount(doc);
    if (pageCount < 1) throw new TaskError("OPEN_FAILED", `${req.filename} has no pages.`);
    checkPages(pageCount, req.filename, budget);
    const spec = req.pages?.map((r) => `${r.from}-${r.to ?? ""}`).join(",");
    const selected = resolvePageSet(spec, pageCount, req.filename).slice(0, req.limit ?? Infinity);
    const rasters = plan(pdfium, doc, selected, req, budget, scratch);
    const pages: RasterPage[] = [];
    const density = req.width || req.height ? undefined : (req.density ?? DEFAULT_DENSITY); // pHYs only when the density holds
    // The form-fill environment draws widget appearances (no JavaScript runs: the build has no V8/XFA).
    formInfo = pdfium.PDFiumExt_OpenFormFillInfo();
    form = formInfo ? pdfium.PDFiumExt_InitFormFillEnvironment(doc, formInfo) : 0;
    for (const [i, n] of selected.entries()) pages.push(await renderPage(pdfium, doc, form, n, rasters[i], density));
    return { pages, pageCount };
  } finally {
    if (form) pdfium.PDFiumExt_ExitFormFillEnvironment(form);
    if (formInfo) pdfium.PDFiumExt_CloseFormFillInfo(formInfo);
    if (doc) pdfium.FPDF_CloseDocument(doc);
    heap.wasmExports.free(scratch);
    heap.wasmExports.free(data);
  }
}
