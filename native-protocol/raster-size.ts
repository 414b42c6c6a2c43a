/**
 * Output size of a rendered page, in pixels, from its displayed size in points (after /Rotate) and
 * the request (contract §6 convert/thumbnail: pixel_density, width, height, fit).
 *  - no width/height: the page at `density` ppi, rounded up as pdftoppm does (595 pt at 150 ppi → 1240);
 *  - max (default): inside width × height keeping the aspect ratio, never larger than at `density`;
 *  - scale: exactly width × height (a missing side follows the aspect ratio);
 *  - crop: covers width × height keeping the aspect ratio, centred, the overflow cut off.
 * Shared by the Worker's PDFium (src/engines/pdfium/render.ts) and the native pdftoppm (container/engines/
 * poppler-raster.ts, issue 49), so a page handed from one to the other comes out the same size.
 */

/** The size fields of a rasterize request (src/engines/kinds/pdf.ts RasterRequest): pixels, pixels per inch. */
export interface RasterSizeRequest {
  density?: number;
  width?: number;
  height?: number;
  fit?: "max" | "crop" | "scale";
}

/** Bitmap size (w × h) and where the page is drawn in it (offset ox/oy, drawn size sw × sh). */
export interface PageRaster {
  w: number;
  h: number;
  sw: number;
  sh: number;
  ox: number;
  oy: number;
}

/** Default pixels per inch: pdftoppm's default (CloudConvert does not document its own). */
export const DEFAULT_DENSITY = 150;

/**
 * The bitmap of a page of `ptW` × `ptH` points (as displayed, after /Rotate) for `req`, by the rules above; every side
 * at least 1 pixel.
 */
export function rasterSize(ptW: number, ptH: number, req: RasterSizeRequest): PageRaster {
  const d = (req.density ?? DEFAULT_DENSITY) / 72;
  const whole = (w: number, h: number): PageRaster => ({ w, h, sw: w, sh: h, ox: 0, oy: 0 });
  if (!req.width && !req.height)
    return whole(Math.max(1, Math.ceil(ptW * d - 1e-6)), Math.max(1, Math.ceil(ptH * d - 1e-6)));
  const sx = req.width ? req.width / ptW : undefined;
  const sy = req.height ? req.height / ptH : undefined;
  const fit = req.fit ?? "max";
  if (fit === "max") {
    const s = Math.min(d, sx ?? Infinity, sy ?? Infinity);
    return whole(Math.max(1, Math.round(ptW * s)), Math.max(1, Math.round(ptH * s)));
  }
  if (fit === "scale" || !sx || !sy) {
    const w = req.width ?? Math.max(1, Math.round(ptW * sy!));
    const h = req.height ?? Math.max(1, Math.round(ptH * sx!));
    return whole(w, h);
  }
  const s = Math.max(sx, sy);
  const sw = Math.max(req.width!, Math.round(ptW * s));
  const sh = Math.max(req.height!, Math.round(ptH * s));
  return {
    w: req.width!,
    h: req.height!,
    sw,
    sh,
    ox: -Math.round((sw - req.width!) / 2),
    oy: -Math.round((sh - req.height!) / 2),
  };
}
