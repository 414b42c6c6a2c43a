/**
 * Resize planning for `fit` (contract §6, CloudConvert semantics), as pure arithmetic:
 * - max:   fit inside width × height keeping the aspect ratio, never enlarging (default);
 * - crop:  scale to cover width × height keeping the aspect ratio, then crop the centre;
 * - scale: exactly width × height (aspect ratio not kept).
 * With only one of width/height, the other follows the aspect ratio for every fit.
 */
import type { Fit } from "../kinds/image";

/** What to do to one frame: resize to resize.w × resize.h, then (crop) cut crop.w × crop.h from the centre. */
export interface ResizePlan {
  resize: { w: number; h: number };
  crop?: { w: number; h: number };
}

/**
 * Plans a resize of a srcW × srcH image (pixels). Returns null when nothing changes (no box given,
 * or `max` on an image already inside the box).
 */
export function planResize(
  srcW: number,
  srcH: number,
  box: { width?: number; height?: number; fit?: Fit },
): ResizePlan | null {
  const { width, height } = box;
  const fit = box.fit ?? "max";
  if (!width && !height) return null;
  const round = (v: number) => Math.max(1, Math.round(v));
  if (!width || !height) {
    const scale = width ? width / srcW : height! / srcH;
    if (fit === "max" && scale >= 1) return null;
    return { resize: { w: width ?? round(srcW * scale), h: height ?? round(srcH * scale) } };
  }
  if (fit === "scale") return srcW === width && srcH === height ? null : { resize: { w: width, h: height } };
  if (fit === "crop") {
    const scale = Math.max(width / srcW, height / srcH);
    const w = Math.max(width, round(srcW * scale)),
      h = Math.max(height, round(srcH * scale));
    return { resize: { w, h }, crop: w === width && h === height ? undefined : { w: width, h: height } };
  }
  const scale = Math.min(width / srcW, height / srcH);
  if (scale >= 1) return null;
  return { resize: { w: round(srcW * scale), h: round(srcH * scale) } };
}

/** Size after the plan (the source size when there is no plan). */
export function plannedSize(srcW: number, srcH: number, plan: ResizePlan | null): { w: number; h: number } {
  if (!plan) return { w: srcW, h: srcH };
  return plan.crop ?? plan.resize;
}

/**
 * Top-left offset of a w × h overlay on a W × H canvas for CloudConvert's position_vertical /
 * position_horizontal and margins (pixels from the chosen edge; ignored when centred).
 */
export function placeOverlay(
  W: number,
  H: number,
  w: number,
  h: number,
  p: {
    position_vertical?: "top" | "center" | "bottom";
    position_horizontal?: "left" | "center" | "right";
    margin_vertical?: number;
    margin_horizontal?: number;
  },
): { x: number; y: number } {
  const mh = Math.round(p.margin_horizontal ?? 0),
    mv = Math.round(p.margin_vertical ?? 0);
  const horizontal = p.position_horizontal ?? "center",
    vertical = p.position_vertical ?? "center";
  const x = horizontal === "left" ? mh : horizontal === "right" ? W - w - mh : Math.round((W - w) / 2);
  const y = vertical === "top" ? mv : vertical === "bottom" ? H - h - mv : Math.round((H - h) / 2);
  return { x, y };
}
