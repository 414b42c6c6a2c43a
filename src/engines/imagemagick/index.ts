/**
 * The ImageMagick engine family (magick-wasm): the engine seam (types.ts), the in-process engine
 * (engine.ts), format facts (formats.ts) and fonts (fonts.ts). Operations should import the pure
 * files (types, formats, fonts, client) directly so their bundle does not pull magick-wasm in.
 */
export * from "./types";
export { createImageMagickEngine, type ImageMagickLoader } from "./engine";
export { initImageMagick, imageMagickVersion, wasmMemoryBytes } from "./magick";
export { READABLE_FORMATS, WRITABLE_FORMATS, canonicalFormat } from "./formats";
export { sniffImage, checkImageBudget } from "./budget";
export { FONT_NAMES, resolveFont } from "./fonts";
