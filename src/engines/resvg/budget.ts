/**
 * The SVG renderer's budget (issue 33), checked after the SVG is parsed and before anything is drawn:
 * the input's bytes, and the pixels of the picture to draw (resvg draws into one RGBA pixmap, 4 bytes
 * a pixel, inside WebAssembly memory that never shrinks; the PNG encoder copies it once more). 12 MP
 * (48 MB of pixmap) keeps one call well inside a 128 MB isolate with the CJK faces loaded (~25 MB).
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

/** The defaults; the engine table's row reads `maxBytes`. */
export const DEFAULT_SVG_BUDGET: SvgBudget = { maxBytes: 16 * 1024 * 1024, maxPixels: 12_000_000 };

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
