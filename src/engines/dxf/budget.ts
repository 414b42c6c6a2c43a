/**
 * The DXF engine's bounds (issue 47). The `dxf` library holds the whole file as lines, then as [code, value] tuples,
 * then as entity objects, and writes the SVG as one string, inside the api Worker's 128 MB isolate (measured in Node on
 * the corpus's FreeCAD drawing repeated: 2 MiB of DXF converts in 0.85 s under a 64 MB V8 heap, 4 MiB in 2.4 s
 * only just under 128 MB); so work is bounded before parsing (the input's bytes, the objects its
 * group-code-0 lines start), before drawing (the points the drawing expands to once every INSERT is resolved, block
 * arrays and nesting included) and after (the SVG's length, the raster's pixels). Over a bound the engine answers
 * OVER_BUDGET, which hands the task on (routing.ts HAND_OFF_CODES); in the browser it is the task's error.
 */
export interface DxfBudget {
  /** Largest input, bytes. */
  maxBytes: number;
  /** Most objects (group code 0 lines: entities, vertices, table and block records) in the file. */
  maxObjects: number;
  /** Most points drawn once INSERTs are expanded (a LINE 2, a polyline its vertices, a circle or arc 1). */
  maxPoints: number;
  /** Largest SVG written, bytes (UTF-8). */
  maxSvgBytes: number;
  /** Largest raster drawn from the SVG, width × height in pixels (the SVG engine's own limit, resvg/budget.ts). */
  maxPixels: number;
  /** Longest raster side, pixels. */
  maxSide: number;
}

/**
 * The defaults: 768 KiB in (the corpus's FreeCAD drawing 4 times: ~4,900 entities), 400,000 objects, 40,000 points, a
 * 16 MiB SVG, a 6-megapixel raster (resvg's, resvg/budget.ts) 30,000 px a side at most. Issue 49, measured in Node under
 * a 128 MB V8 heap (peak resident growth of one call in a fresh process, test/engines-heavy/isolate-memory.test.ts):
 * ~2 KB a point drawn (1 MiB of LINEs, 42,000 points: +92 MB; a block of 1,000 LINEs inserted 39 times, 78,000 points:
 * +141 MB; out of heap at 1,000,000), so 40,000 points and 768 KiB keep a call under ~100 MB.
 */
export const DEFAULT_DXF_BUDGET: DxfBudget = {
  maxBytes: 512 * 1024,
  maxObjects: 400_000,
  maxPoints: 40_000,
  maxSvgBytes: 16 * 1024 * 1024,
  maxPixels: 6_000_000,
  maxSide: 30_000,
};
