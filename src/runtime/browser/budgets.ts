/**
 * Budgets of the engines in a browser page (issue 47). A page is not a 128 MB isolate: its WebAssembly memory may grow
 * to the wasm32 limit (4 GiB; magick-wasm's build grows on demand), so the image engine's memory budget, sized for a
 * Worker (engines/imagemagick/budget.ts, 120 MB), would refuse there what the page can do — a camera raw needs ~24
 * bytes a pixel in LibRaw (memory.ts), so only ~3 MP raws pass in a Worker, while a page has nowhere to hand larger
 * ones (no native engine). The page keeps every other bound (bytes, pixels per frame, frames) as the server's.
 */
import type { ImageBudget } from "../../engines/kinds/image";

/** The image engine's budget overrides in a page: 1 GB of engine memory (a 24 MP raw to PNG needs ~780 MB). */
export const BROWSER_IMAGE_BUDGET: Partial<ImageBudget> = { maxMemoryBytes: 1_000_000_000 };
