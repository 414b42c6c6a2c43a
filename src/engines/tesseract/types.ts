/**
 * Limits of the WebAssembly tesseract engine (row "tesseract", engine Worker wasm/tesseract), whose
 * isolate has 128 MB in production for the JavaScript heap and every WebAssembly memory together.
 *
 * Measured (tesseract.js-core 7.0.0, full SIMD build, Node 24 on the project's 2-core machine, WebAssembly
 * memory after the call — it never shrinks, so it is the instance's peak): 20 MiB with eng after a
 * 640×480 page; 59 MiB once OSD (osd.traineddata, the legacy classifier) has run; 2550×3300 (8.4 MP,
 * Letter at 300 dpi): 1-bit 36 MiB (71 MiB after OSD in the same instance), 8-bit grey 55 MiB and
 * 66 MiB on a second page in the same instance, 24-bit RGB 84 MiB. shared/reference/wasm-engines.md
 * measured 95 MB and then 128 MB for 300 dpi pages in one instance in workerd. So an instance is
 * dropped (a fresh one made for the next call) once it passes {@link TesseractBudget.resetAboveBytes},
 * and callers should hand pages over in grey (tesseract greys them anyway): an RGB 9 MP page whose
 * orientation must be detected is the worst case (estimated ~115 MiB: 84 plus what OSD added on the 1-bit page, 35). Besides WebAssembly memory, MEMFS
 * holds the traineddata as JavaScript arrays (eng 5.2 MB, fra 1.2 MB, osd 10.6 MB once used).
 */

/** What one call may take, checked on the image's header before anything is decoded. */
export interface TesseractBudget {
  /** Largest image file, bytes (an uncompressed 9 MP RGBA TIFF is 36 MB). */
  maxBytes: number;
  /** Largest width × height, pixels (A4 at 300 dpi is 2480×3508 = 8.7 MP; Letter 2550×3300 = 8.4 MP). */
  maxPixels: number;
  /** Largest side, pixels (Leptonica's own limit is far above; a 1×9,000,000 strip is no page). */
  maxSide: number;
  /** WebAssembly memory above which the instance is replaced after a call, bytes. */
  resetAboveBytes: number;
  /**
   * Mean word confidence (0–100) below which an upright recognition is considered weak and the page's
   * orientation is detected (OSD) and tried; upright text recognises at 85–96, text turned by 90°,
   * 180° or 270° at 28–42 (phototest).
   */
  weakConfidence: number;
}

/**
 * Issue 49: Measured by test/engines-heavy/isolate-memory.test.ts from the isolate's own figures (V8's used heap + external memory: array buffers and WebAssembly memory; README "Large files"): a warm instance with eng and OSD
 * loaded holds ~82 MB; an RGB page whose orientation is detected peaked at 128 MB at 4 MP, 110 MB at 3 MP, 95 MB at
 * 2 MP. So 2 MP (PDFium's page budget: an A4 page at 141 dpi; the pdf/ocr operation picks the dpi so a page fits) and
 * 8 MiB of file; larger pages go to the native tesseract.
 * Before: 40 MiB of image file, 9 MP (every A4 or Letter page at 300 dpi),
 * sides up to 20,000 px, a fresh instance above 80 MiB (a 300 dpi page then still has its ~75 MB of
 * headroom below the 128 MB isolate limit from a fresh 20 MB instance), OSD below mean confidence 60.
 */
export const DEFAULT_TESSERACT_BUDGET: TesseractBudget = {
  maxBytes: 8 * 1024 * 1024,
  maxPixels: 2_000_000,
  maxSide: 20_000,
  resetAboveBytes: 80 * 1024 * 1024,
  weakConfidence: 60,
};
