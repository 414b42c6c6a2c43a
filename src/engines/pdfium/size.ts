/**
 * A rendered page's size rule (pixel_density, width, height, fit), shared with the native pdftoppm (issue 49):
 * native-protocol/raster-size.ts.
 */
export { DEFAULT_DENSITY, rasterSize, type PageRaster } from "../../../native-protocol/raster-size";
