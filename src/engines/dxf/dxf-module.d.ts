// The `dxf` package (5.3.1, MIT) ships no types: the two functions the DXF engine (engine.ts) calls, as far as it
// reads their results. Named imports only: its default import is undefined under wrangler's bundler.
declare module "dxf" {
  /** One entity as the parser leaves it: `type` ("LINE", "INSERT"…) and the fields of its type. */
  export interface DxfEntity {
    type: string;
    layer?: string;
    /** INSERT: the block it draws, and its array (absent: 1 × 1). */
    block?: string;
    rowCount?: number;
    columnCount?: number;
    /** POLYLINE, LWPOLYLINE. */
    vertices?: unknown[];
    /** SPLINE. */
    controlPoints?: unknown[];
  }
  /** A block definition: its name and the entities it holds. */
  export interface DxfBlock {
    name: string;
    entities: DxfEntity[];
  }
  /** What `parseString` answers. */
  export interface DxfParsed {
    header: Record<string, unknown>;
    blocks: DxfBlock[];
    entities: DxfEntity[];
    tables: unknown;
  }
  /** Parses DXF text (ASCII DXF: group code and value lines). Throws on some malformed files (TypeError). */
  export function parseString(text: string): DxfParsed;
  /** The drawing as one SVG string: viewBox = the drawn entities' extent, width/height 100%, Y flipped. */
  export function toSVG(parsed: DxfParsed): string;
}
