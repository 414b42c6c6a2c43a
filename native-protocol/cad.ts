/**
 * The request of one CAD drawing conversion, as the Worker's cad kind (src/engines/kinds/cad.ts) sends it
 * and the native engine (container/engines/cad.ts: Inkscape's DXF import, then Inkscape's exports)
 * converts it. Imports nothing.
 */

/**
 * CAD formats read: DXF (ASCII, R12 to 2018, as Inkscape 1.2's dxf_input reads it). Not DWG: Debian 12 has
 * no DWG reader (no LibreDWG, LibreCAD and LibreOffice read DXF only).
 */
export const CAD_INPUTS = ["dxf"] as const;
/** Formats a drawing is written to (the catalogue's CAD outputs less cgm and dwg, which no installed tool writes). */
export const CAD_OUTPUTS = ["pdf", "svg", "eps", "emf", "wmf", "png", "jpg", "tiff", "gif", "bmp"] as const;
/** Raster outputs among {@link CAD_OUTPUTS}. */
export const CAD_RASTER_OUTPUTS = ["png", "jpg", "tiff", "gif", "bmp"] as const;

/** One output format of a drawing. */
export type CadFormat = (typeof CAD_OUTPUTS)[number];

/** One drawing conversion: `input` (DXF) → `format`; raster size by `width`/`height` (px) or `pixel_density` (dpi). */
export interface CadRequest {
  input: { data: Uint8Array; filename: string };
  format: CadFormat;
  raster?: { width?: number; height?: number; pixel_density?: number };
}
