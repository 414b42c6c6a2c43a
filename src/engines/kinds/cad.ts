/**
 * The cad kind (kinds/index.ts): CAD drawings (DXF) rendered to PDF, SVG, EPS, EMF, WMF and raster images,
 * by Inkscape in the native engine (row "inkscape-cad") and, without text, by the JavaScript `dxf` library (row "dxf",
 * issue 47). Bytes in, bytes out, failures as data ({@link EngineResult}), the request that crosses the native
 * engine's seam (native-protocol/cad.ts) unchanged.
 */
import type { CadRequest } from "../../../native-protocol/cad";
import type { StreamedBytes } from "../../../native-protocol/frame";
import type { EngineResult } from "../errors";

export type { CadRequest };

/**
 * What a CAD engine answers a drawing's data as: bytes, or (issue 49) from the native engine on a streamed call a
 * stream. The JavaScript `dxf` engine answers bytes only (its factory says so: `CadEngine<Uint8Array>`).
 */
export type CadData = Uint8Array | StreamedBytes;

/** What a CAD engine answers for one drawing; `D` is its data's type ({@link CadData}). */
export interface CadAnswer<D extends CadData = CadData> {
  /**
   * The drawing in the format asked for, or in `format` when that is given; a stream when the drawing was sent as one
   * (issue 49: the native row over its `streamOver`) and the answer is large.
   */
  data: D;
  /**
   * Set when `data` is not in the format asked for: "svg", an SVG sized in pixels (its width/height) on a white
   * sheet for the raster asked for, which the operation draws with the image engine (engine "dxf", which writes only
   * SVG). Absent: `data` is the format asked for.
   */
  format?: "svg";
  /** What the engine left out of the drawing (entities it does not draw), for the task's result.warnings. */
  warnings?: string[];
}

/** A CAD engine; `D` is its answers' data type ({@link CadData}). */
export interface CadEngine<D extends CadData = CadData> {
  /**
   * Converts one drawing, cropped to what it draws. A file that is no DXF answers OPEN_FAILED (the native
   * engine) or UNSUPPORTED (engine "dxf", handing it on); a drawing with nothing to draw CONVERSION_FAILED
   * (native) or UNSUPPORTED (dxf); a raster or input over the engine's limits OVER_BUDGET.
   */
  convert(req: CadRequest): Promise<EngineResult<CadAnswer<D>>>;
}
