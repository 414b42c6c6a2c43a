/**
 * What the SVG renderer writes (row "resvg", registry.ts): PNG drawn by resvg, and the raster
 * formats its encoder (ImageMagick in WebAssembly) writes from that PNG. Pure data, so the engine
 * table imports it without loading the engine.
 */
import type { ImageFormat } from "../kinds/image";

/** The outputs of convert from SVG (thumbnail: png, jpg, webp of these). */
export const RESVG_OUTPUTS: readonly ImageFormat[] = ["png", "jpg", "webp", "gif", "tiff", "bmp", "ico", "avif", "psd"];
