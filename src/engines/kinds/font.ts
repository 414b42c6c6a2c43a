/**
 * The font kind (kinds/index.ts): fonts converted between TrueType, OpenType/CFF, WOFF, WOFF2, EOT
 * and SVG fonts, today by fontTools in the native engine (row "fonttools"). Bytes in, bytes out,
 * failures as data ({@link EngineResult}), the request shape that crosses the native engine's seam
 * (native-protocol/font.ts) unchanged.
 */
import type { FontRequest } from "../../../native-protocol/font";
import type { EngineResult } from "../errors";

export type { FontRequest };

/** A font engine. */
export interface FontEngine {
  /**
   * Converts one font, keeping its glyphs, names and metrics. A file that is no font this reads
   * answers OPEN_FAILED; a font it reads but cannot write in `format` (MTX-compressed EOT, variable
   * CFF2 → TrueType) UNSUPPORTED.
   */
  convert(req: FontRequest): Promise<EngineResult<{ data: Uint8Array }>>;
}
