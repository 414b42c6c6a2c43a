/**
 * Where a watermark goes and how it looks (contract §6 `watermark`): the CloudConvert vocabulary
 * shared by the image and PDF engine kinds (image.ts here, src/engines/kinds/pdf.ts). Units are the
 * kind's own: pixels on images, points (1/72 in) on PDFs. Imports nothing.
 */
export interface WatermarkPlacement {
  position_vertical?: "top" | "center" | "bottom";
  position_horizontal?: "left" | "center" | "right";
  margin_vertical?: number;
  margin_horizontal?: number;
  /** 0–100, 100 = opaque (default). */
  opacity?: number;
  /** Degrees, clockwise. */
  rotation?: number;
}
