/**
 * The vector kind (kinds/index.ts): vector drawings converted (issue 33), today by Inkscape in the
 * native engine (row "inkscape"; which formats it reads and writes is its row's, registry.ts). Bytes
 * in, bytes out, failures as data ({@link EngineResult}); the request crosses the native engine's HTTP
 * seam unchanged (native-protocol/vector.ts).
 */
import type { StreamedBytes } from "../../../native-protocol/frame";
import type { VectorRequest } from "../../../native-protocol/vector";
import type { EngineResult } from "../errors";

export type { VectorRequest };
export {
  VECTOR_INPUTS,
  VECTOR_ODD_INPUTS,
  VECTOR_OUTPUTS,
  VECTOR_RASTER_OUTPUTS,
} from "../../../native-protocol/vector";

/** A vector engine. */
export interface VectorEngine {
  /**
   * Converts one drawing; `data` is the output file's bytes, `warnings` what the input's reader left out or
   * approximated (sk/sk1: unknown calls, gradients, external bitmaps), for the task's result.warnings. The drawing may
   * be a stream (issue 49: over the row's `streamOver`), and the answer is then a stream when large.
   */
  convert(req: VectorRequest): Promise<EngineResult<{ data: Uint8Array | StreamedBytes; warnings?: string[] }>>;
}
