/**
 * The raster oracle of SVG renderings (issue 31): librsvg's `rsvg-convert` (librsvg2-bin, fonts by
 * fontconfig: sans-serif → DejaVu Sans, serif → DejaVu Serif, monospace → DejaVu Sans Mono), an
 * independent renderer, never ImageMagick; and the ink comparison both it and test/engines-heavy/pdf-raster.test.ts
 * (PDFium against poppler) use: per pixel the darkest channel, compared with a 1-pixel
 * tolerance, as shares of ink rather than of pixels so that a mostly white image cannot hide a
 * wrong one. Pictures are flattened on white first (SVG renders are transparent where nothing is drawn).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Raster {
  w: number;
  h: number;
  /** RGB, 8 bits a channel, rows top to bottom. */
  px: Uint8Array;
}

const dir = mkdtempSync(join(tmpdir(), "raster-oracle-"));
let n = 0;
const tmp = (data: Uint8Array, ext: string) => {
  const path = join(dir, `${++n}.${ext}`);
  writeFileSync(path, data);
  return path;
};

/** Any image (PNG bytes) as RGB on white, by Debian's `convert`. */
export function rgb(png: Uint8Array): Raster {
  const ppm: Uint8Array = execFileSync(
    "convert",
    [tmp(png, "png"), "-background", "white", "-alpha", "remove", "-alpha", "off", "-depth", "8", "ppm:-"],
    { maxBuffer: 1 << 28 },
  );
  const header = new TextDecoder().decode(ppm.subarray(0, 40)).match(/^P6\s+(\d+)\s+(\d+)\s+255\s/)!;
  return { w: +header[1], h: +header[2], px: ppm.subarray(header[0].length) };
}

/** librsvg's rendering of an SVG (PNG bytes), at `dpi` for absolute units (rsvg's default is 96). */
export function rsvg(svg: Uint8Array | string, dpi = 96): Uint8Array {
  const data = typeof svg === "string" ? new TextEncoder().encode(svg) : svg;
  return new Uint8Array(
    execFileSync("rsvg-convert", ["-d", String(dpi), "-p", String(dpi), tmp(data, "svg")], { maxBuffer: 1 << 28 }),
  );
}

/** Per pixel, the darkest channel: 255 = paper, lower = ink of any colour. */
function ink({ w, h, px }: Raster): Uint8Array {
  const g = new Uint8Array(w * h);
  for (let i = 0; i < g.length; i++) g[i] = Math.min(px[3 * i], px[3 * i + 1], px[3 * i + 2]);
  return g;
}

/** Per pixel, the darkest value of `g` within 1 pixel (3×3 square). */
function darkestNear(g: Uint8Array, w: number, h: number): Uint8Array {
  const rows = new Uint8Array(g.length);
  const out = new Uint8Array(g.length);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      rows[i] = Math.min(g[i], x > 0 ? g[i - 1] : 255, x < w - 1 ? g[i + 1] : 255);
    }
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      out[i] = Math.min(rows[i], y > 0 ? rows[i - w] : 255, y < h - 1 ? rows[i + w] : 255);
    }
  return out;
}

/**
 * `extra`: the share of our ink darker than anything the reference has within 1 px; `missing`: the
 * share of the reference's ink ours lacks within 1 px. 0 = the same picture; a blank one has
 * missing 1. Sizes must agree (compared over the common area otherwise, and reported).
 */
export function inkDiff(ours: Raster, ref: Raster): { extra: number; missing: number } {
  const [a, b] = [ink(ours), ink(ref)];
  const [nearA, nearB] = [darkestNear(a, ours.w, ours.h), darkestNear(b, ref.w, ref.h)];
  let extra = 0,
    missing = 0,
    inkA = 0,
    inkB = 0;
  for (let i = 0; i < a.length; i++) {
    extra += Math.max(0, nearB[i] - a[i]);
    missing += Math.max(0, nearA[i] - b[i]);
    inkA += 255 - a[i];
    inkB += 255 - b[i];
  }
  return { extra: extra / Math.max(inkA, 1), missing: missing / Math.max(inkB, 1) };
}

/** The tolerance, measured on PDFium against poppler (test/engines-heavy/pdf-raster.test.ts): under 0.1 extra and 0.1 missing. */
export const MAX_EXTRA = 0.1;
export const MAX_MISSING = 0.1;

/** Whether `ours` shows what `ref` shows: same size, no ink `ref` lacks, none of its ink missing (beyond `maxMissing`). */
export function matches(ours: Raster, ref: Raster, maxMissing = MAX_MISSING): { ok: boolean; why: string } {
  if (ours.w !== ref.w || ours.h !== ref.h)
    return { ok: false, why: `size ${ours.w}x${ours.h}, expected ${ref.w}x${ref.h}` };
  const d = inkDiff(ours, ref);
  return { ok: d.extra < MAX_EXTRA && d.missing < maxMissing, why: JSON.stringify(d) };
}
