/**
 * Shaped text (shape.ts) → an SVG document of filled glyph outlines, for raster engines: the image
 * watermark renders it with ImageMagick's internal SVG renderer (MSVG), so images get the same
 * fonts, shaping and bidi order as PDFs. Coordinates in pixels (1 SVG unit = 1 px at 72 dpi).
 */
import { alignOffset, type ShapedText } from "./shape";

/** How to draw the block. */
export interface SvgTextOptions {
  /** Font size in pixels (= points at 72 dpi). */
  size: number;
  /** Alignment of lines within the block (default centre). */
  align?: "left" | "center" | "right";
  /** `#RRGGBB` or `#RRGGBBAA` (default #000000). */
  color?: string;
  /** Transparent margin around the block, pixels (default size / 4, so antialiasing is not clipped). */
  pad?: number;
}

/** An SVG document and its size in pixels. */
export interface SvgText {
  svg: string;
  width: number;
  height: number;
}

const num = (n: number) => (Math.round(n * 100) / 100).toString();

/**
 * The glyphs of `t` as filled paths, one per line (nonzero rule, as TrueType and CFF outlines
 * expect): MSVG refuses one path of a long multi-line text ("NonconformingDrawingPrimitiveDefinition
 * `path'", issue 44's 25-script watermark), not the same outlines split by line.
 */
export function shapedToSvg(t: ShapedText, o: SvgTextOptions): SvgText {
  const { size } = o;
  const pad = Math.ceil(o.pad ?? size / 4);
  const w = t.width * size;
  const h = t.lineHeight * size * t.lines.length;
  const width = Math.max(1, Math.ceil(w) + 2 * pad);
  const height = Math.max(1, Math.ceil(h) + 2 * pad);
  const lines: string[][] = [];
  t.lines.forEach((line, i) => {
    const parts: string[] = [];
    lines.push(parts);
    let x = pad + alignOffset(t.width, line.advance, o.align) * size;
    const baseline = pad + (t.ascent + i * t.lineHeight) * size;
    for (const run of line.runs) {
      const scale = size / run.face.font.unitsPerEm;
      for (const g of run.glyphs) {
        const glyph = run.face.font.getGlyph(g.id);
        // font units, y up → pixels, y down
        const d = glyph?.path
          .mapPoints((px, py) => [x + g.xOffset * size + px * scale, baseline - g.yOffset * size - py * scale])
          .toSVG();
        if (d) parts.push(d);
        x += g.advance * size;
      }
    }
  });
  const hex = (o.color ?? "#000000").replace(/^#/, "");
  const fill = `#${hex.slice(0, 6)}`;
  const alpha = hex.length === 8 ? parseInt(hex.slice(6, 8), 16) / 255 : 1;
  const paths = lines
    .filter((parts) => parts.length > 0)
    .map((parts) => `<path d="${parts.join(" ").replace(/-?\d+\.\d{3,}/g, (m) => num(Number(m)))}"/>`);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<g fill="${fill}" fill-opacity="${num(alpha)}" fill-rule="nonzero">${paths.join("")}</g></svg>`;
  return { svg, width, height };
}
