/**
 * Budgets of the engines in a browser page (issue 47). A page is not a 128 MB isolate: its WebAssembly memory may grow
 * to the wasm32 limit (4 GiB; magick-wasm's build grows on demand), so the image engine's memory budget, sized for a
 * Worker (engines/imagemagick/budget.ts, 120 MB), would refuse there what the page can do — a camera raw needs ~24
 * bytes a pixel in LibRaw (memory.ts), so only ~3 MP raws pass in a Worker, while a page has nowhere to hand larger
 * ones (no native engine). The page keeps every other bound (bytes, pixels per frame, frames) as the server's.
 */
import type { ImageBudget } from "../../engines/kinds/image";
import type { ScriptEngineBudgets } from "../../engines/lazy";

/** The image engine's budget overrides in a page: 1 GB of engine memory (a 24 MP raw to PNG needs ~780 MB). */
export const BROWSER_IMAGE_BUDGET: Partial<ImageBudget> = { maxMemoryBytes: 1_000_000_000 };

/**
 * The script engines' budgets in a page: those they had before issue 49 sized them for a 128 MB isolate (a page has
 * nowhere to hand a larger file, and no such limit).
 */
export const BROWSER_SCRIPT_BUDGETS: ScriptEngineBudgets = {
  fonteditor: { maxBytes: 8 * 1024 * 1024, maxSfntBytes: 16 * 1024 * 1024, maxGlyphs: 20_000 },
  sheetjs: {
    maxBytes: 16 * 1024 * 1024,
    maxInflatedBytes: 48 * 1024 * 1024,
    maxCells: 1_000_000,
    maxGridCells: 20_000_000,
  },
  dxf: { maxBytes: 2 * 1024 * 1024, maxPoints: 1_000_000 },
};
