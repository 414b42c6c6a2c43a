/**
 * The cad kind (kinds/index.ts): CAD drawings (DXF) rendered to PDF, SVG, EPS, EMF, WMF and raster images,
 * today by Inkscape in the native engine (row "inkscape-cad"). Bytes in, bytes out, failures as data
 * ({@link EngineResult}), the request that crosses the native engine's seam (native-protocol/cad.ts) unchanged.
 */
import type { CadRequest } from "../../../native-protocol/cad";
import type { EngineResult } from "../errors";

export type { CadRequest };

/** A CAD engine. */
export interface CadEngine {
  /**
   * Converts one drawing, cropped to what it draws. A file that is no DXF answers OPEN_FAILED; a drawing
   * with nothing to draw CONVERSION_FAILED; a raster over the engine's pixel limit OVER_BUDGET.
   */
  convert(req: CadRequest): Promise<EngineResult<{ data: Uint8Array }>>;
}
