/**
 * Geometry of a watermark on one PDF page, in points. The watermark is laid out in the page's
 * *displayed* frame (after /Rotate, inside the CropBox) so "top right" means what a viewer shows,
 * then mapped back to user space with one matrix.
 */
import type { WatermarkPlacement } from "../../../native-protocol/placement";

/** A 2-D affine matrix [a b c d e f] as in the PDF `cm` operator. */
export type Matrix = [number, number, number, number, number, number];

/** The page as displayed: its size and the matrix from displayed coordinates to user space. */
export interface DisplayFrame {
  width: number;
  height: number;
  toUser: Matrix;
}

/**
 * The displayed frame of a page with crop box (x, y, w, h) and /Rotate `rotation` (clockwise,
 * 0/90/180/270; ISO 32000-1 §7.7.3.3). For /Rotate 90 the displayed point (dx, dy) is the user
 * point (x + w - dy, y + dx), and so on.
 */
export function displayFrame(
  box: { x: number; y: number; width: number; height: number },
  rotation: number,
): DisplayFrame {
  const { x, y, width: w, height: h } = box;
  switch ((((Math.round(rotation / 90) * 90) % 360) + 360) % 360) {
    case 90:
      return { width: h, height: w, toUser: [0, 1, -1, 0, x + w, y] };
    case 180:
      return { width: w, height: h, toUser: [-1, 0, 0, -1, x + w, y + h] };
    case 270:
      return { width: h, height: w, toUser: [0, -1, 1, 0, x, y + h] };
    default:
      return { width: w, height: h, toUser: [1, 0, 0, 1, x, y] };
  }
}

/** Placement parameters (native-protocol/placement.ts), in points. */
export type Placement = WatermarkPlacement;

/**
 * The matrix that places a w × h box, centred on its own origin, on the displayed page: rotated by
 * `rotation` about its centre, its rotated bounding box kept inside the margins at the requested
 * position (default centre/centre, margins 25 pt).
 */
export function placeBox(frame: DisplayFrame, w: number, h: number, p: Placement): Matrix {
  const theta = (-(p.rotation ?? 0) * Math.PI) / 180; // PDF angles are counter-clockwise
  const cos = Math.cos(theta);
  const sin = Math.sin(theta);
  const bw = Math.abs(w * cos) + Math.abs(h * sin);
  const bh = Math.abs(w * sin) + Math.abs(h * cos);
  const mh = p.margin_horizontal ?? 25;
  const mv = p.margin_vertical ?? 25;
  const hpos = p.position_horizontal ?? "center";
  const vpos = p.position_vertical ?? "center";
  const cx = hpos === "left" ? mh + bw / 2 : hpos === "right" ? frame.width - mh - bw / 2 : frame.width / 2;
  const cy = vpos === "bottom" ? mv + bh / 2 : vpos === "top" ? frame.height - mv - bh / 2 : frame.height / 2;
  return multiply([cos, sin, -sin, cos, cx, cy], frame.toUser);
}

/** m1 then m2 (PDF order: a point p maps to p·m1·m2). */
export function multiply(m1: Matrix, m2: Matrix): Matrix {
  const [a, b, c, d, e, f] = m1;
  const [A, B, C, D, E, F] = m2;
  return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
}
