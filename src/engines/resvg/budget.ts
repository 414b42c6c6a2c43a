/**
 * The SVG renderer's budget (issue 33), checked after the SVG is parsed and before anything is drawn:
 * the input's bytes, and the pixels of the picture to draw (resvg draws into one RGBA pixmap, 4 bytes
 * a pixel, inside WebAssembly memory that never shrinks; the PNG encoder copies it once more). 6 MP
 * (24 MB of pixmap) keeps one call under ~100 MB of a 128 MB isolate {@link DEFAULT_SVG_BUDGET}.
 * Larger pictures end OVER_BUDGET, which hands the task to the next engine (routing.ts).
 */
import { TaskError } from "../errors";

/** Limits of one render. */
export interface SvgBudget {
  /** Largest SVG in bytes (after gunzip for svgz). */
  maxBytes: number;
  /** Largest picture drawn, width × height in pixels. */
  maxPixels: number;
}

/**
 * The defaults; the engine table's row reads `maxBytes`. Issue 49, measured in Node (peak resident growth of one call
 * in a fresh process, warm instance): a picture costs ~7 bytes a pixel (pixmap and PNG) over ~28 MB, and the parsed
 * document ~15 bytes per byte of SVG (an element-dense file: 16 MiB of rects took +275 MB at 12 MP, 2 MB +86 MB at
 * 4 MP). So 6 MP and 1 MiB, ~90 MB at worst; larger SVGs and pictures end OVER_BUDGET and go to Inkscape.
 */
export const DEFAULT_SVG_BUDGET: SvgBudget = { maxBytes: 1024 * 1024, maxPixels: 6_000_000 };

/** @throws TaskError OVER_BUDGET when a w × h picture (pixels) exceeds the budget */
export function checkPixels(w: number, h: number, budget: SvgBudget, what: string): void {
  if (!(w > 0 && h > 0)) throw new TaskError("OPEN_FAILED", `The SVG has no size to draw (${what} ${w}×${h}).`);
  if (w * h > budget.maxPixels) {
    throw new TaskError(
      "OVER_BUDGET",
      `The SVG would be drawn at ${Math.round(w)} × ${Math.round(h)} pixels (${what}); at most ` +
        `${(budget.maxPixels / 1e6).toFixed(0)} megapixels here. Set a smaller width/height.`,
    );
  }
}
