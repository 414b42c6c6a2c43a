/**
 * The request of one vector-drawing conversion (issue 33), as the Worker's vector kind
 * (src/engines/kinds/vector.ts) sends it and the native engine's Inkscape (container/engines/inkscape.ts)
 * converts it. Formats are lower-case extensions; sizes in pixels. Imports types only.
 */
import type { LocalFile, StreamedBytes } from "./frame.ts";

/**
 * Drawings read: Inkscape's own importers (svg, svgz, ai, emf, wmf, cdr, vsd, vsdx), eps/ps through Ghostscript,
 * cgm through LibreOffice Draw, sk/sk1 (Skencil, sK1) through the engine's own reader (container/engines/sketch/).
 */
export const VECTOR_INPUTS = [
  "svg",
  "svgz",
  "ai",
  "eps",
  "ps",
  "emf",
  "wmf",
  "cdr",
  "vsd",
  "vsdx",
  "cgm",
  "sk",
  "sk1",
] as const;

/** Vector outputs Inkscape writes. */
export const VECTOR_OUTPUTS = ["svg", "pdf", "eps", "ps", "emf", "wmf", "dxf"] as const;

/** Raster outputs: png drawn by Inkscape, the others converted from it by the native ImageMagick. */
export const VECTOR_RASTER_OUTPUTS = ["png", "jpg", "webp", "gif", "tiff", "bmp", "ico", "psd"] as const;

/**
 * Drawings also written as `odd` (an OpenDocument Drawing holding the drawing as SVG with a PNG fallback,
 * container/engines/vector-odd.ts): the vector inputs CloudConvert lists odd for.
 */
export const VECTOR_ODD_INPUTS = ["svg", "svgz", "emf"] as const;

export type VectorInput = (typeof VECTOR_INPUTS)[number];
export type VectorOutput = (typeof VECTOR_OUTPUTS)[number] | (typeof VECTOR_RASTER_OUTPUTS)[number] | "odd";

/** CloudConvert's options of a vector convert (contract §6). */
export interface VectorOptions {
  /** Raster outputs: pixels per inch (Inkscape's --export-dpi, default 96). */
  pixel_density?: number;
  /** Vector outputs: text converted to outlines (--export-text-to-path), so no font is needed to show it. */
  text_to_path?: boolean;
  /** Raster outputs: width and/or height in pixels (one alone keeps the aspect ratio). */
  width?: number;
  height?: number;
}

/**
 * One conversion. Issue 49: the Worker sends a drawing over the row's `streamOver` as a stream (StreamedBytes, on the
 * framed wire), which reaches Inkscape as a file in its call's folder (LocalFile).
 */
export interface VectorRequest {
  input: { data: Uint8Array | StreamedBytes | LocalFile; filename: string };
  inputFormat: VectorInput;
  outputFormat: VectorOutput;
  options: VectorOptions;
}
