/**
 * The SheetJS engine's bounds (issue 47). SheetJS holds a whole workbook in memory as one JavaScript object per
 * cell (~100–200 bytes each) after holding its XML as strings, inside the api Worker's 128 MB isolate, so work is
 * bounded before parsing: the input's bytes, a zip container's inflated bytes (declared sizes checked, then every
 * entry inflated under a cap, so a size that lies cannot run on), and the cells the sheets' XML declares (xlsx
 * `<c>` elements, ods cells times their repeat counts). After parsing, the cells made and the rectangle that csv
 * and html outputs walk are bounded too. Over any bound the engine answers OVER_BUDGET, which hands the task to
 * LibreOffice (routing.ts HAND_OFF_CODES); in the browser it is the task's error.
 */
export interface SheetJsBudget {
  /** Largest input, bytes. */
  maxBytes: number;
  /** Largest sum of a zip container's inflated entries (xlsx, xlsm, ods, numbers), bytes. */
  maxInflatedBytes: number;
  /** Most cells in a workbook (declared before parsing, made after). */
  maxCells: number;
  /** Most positions (rows × columns of the used range) a csv or html output walks, per sheet. */
  maxGridCells: number;
}

/**
 * The defaults: 1 MiB in, 4 MiB inflated, 25,000 cells, a 1,000,000-position grid. Issue 49, measured in Node under a
 * 128 MB V8 heap (peak resident growth of one call in a fresh process, test/engines-heavy/isolate-memory.test.ts):
 * 1.3–3 KB a cell (50,000 cells of 40 characters: csv → xlsx +113 MB, that xlsx → ods +150 MB; 250,000 cells ran out
 * of heap), so 25,000 cells and 1 MiB keep a call under ~100 MB; larger workbooks end OVER_BUDGET and go to
 * LibreOffice.
 */
export const DEFAULT_SHEETJS_BUDGET: SheetJsBudget = {
  maxBytes: 768 * 1024,
  maxInflatedBytes: 4 * 1024 * 1024,
  maxCells: 16_000,
  maxGridCells: 1_000_000,
};
