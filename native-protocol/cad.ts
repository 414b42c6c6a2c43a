/**
 * The request of one CAD drawing conversion, as the Worker's cad kind (src/engines/kinds/cad.ts) sends it
 * and the native engine (container/engines/cad.ts: Inkscape's DXF import, then Inkscape's exports)
 * converts it. Imports types only.
 */
import type { LocalFile, StreamedBytes } from "./frame.ts";

/**
 * CAD formats read: DXF (ASCII, R12 to 2018, as Inkscape 1.2's dxf_input reads it) and DWG R13 to 2018
 * (AC1012 to AC1032), which LibreDWG (WebAssembly, container/engines/cad/dwg_to_dxf.ts) turns into DXF first.
 */
export const CAD_INPUTS = ["dxf", "dwg"] as const;
/** Formats a drawing is written to (the catalogue's CAD outputs less cgm and dwg, which no installed tool writes). */
export const CAD_OUTPUTS = ["pdf", "svg", "eps", "emf", "wmf", "png", "jpg", "tiff", "gif", "bmp"] as const;
/** Raster outputs among {@link CAD_OUTPUTS}. */
export const CAD_RASTER_OUTPUTS = ["png", "jpg", "tiff", "gif", "bmp"] as const;

/**
 * Outputs of a DWG drawing besides {@link CAD_OUTPUTS}: dxf (LibreDWG's DXF) and dwg (the drawing as it
 * came, once LibreDWG has read it). DXF → DWG is not offered: the LibreDWG build has no DWG writer.
 */
export const DWG_EXTRA_OUTPUTS = ["dxf", "dwg"] as const;
/** Outputs of a DXF drawing besides {@link CAD_OUTPUTS}: dxf, the drawing read and written again by ezdxf. */
export const DXF_EXTRA_OUTPUTS = ["dxf"] as const;

/**
 * The pairs the CAD engine converts: every input to {@link CAD_OUTPUTS}, DWG also to {@link DWG_EXTRA_OUTPUTS},
 * DXF also to {@link DXF_EXTRA_OUTPUTS}.
 */
export const CAD_PAIRS: readonly { input: string; output: string }[] = [
  ...CAD_INPUTS.flatMap((input) => CAD_OUTPUTS.map((output) => ({ input, output }))),
  ...DWG_EXTRA_OUTPUTS.map((output) => ({ input: "dwg", output })),
  ...DXF_EXTRA_OUTPUTS.map((output) => ({ input: "dxf", output })),
];

/** One output format of a drawing. */
export type CadFormat = (typeof CAD_OUTPUTS)[number] | (typeof DWG_EXTRA_OUTPUTS)[number];

/**
 * One drawing conversion: `input` (DXF or DWG, told apart by their first bytes) → `format`; raster size by
 * `width`/`height` (px) or `pixel_density` (dpi). Issue 49: a drawing over the row's `streamOver` travels as a stream
 * (StreamedBytes) and reaches the native engine as a file in its call's folder (LocalFile); the JavaScript `dxf` row
 * takes bytes only.
 */
export interface CadRequest {
  input: { data: Uint8Array | StreamedBytes | LocalFile; filename: string };
  format: CadFormat;
  raster?: { width?: number; height?: number; pixel_density?: number };
}
