/**
 * Engine identity for registry rows (OperationHandler.engine / engineVersion), known without
 * loading the 14.8 MB module. test/unit/image-engine.test.ts asserts that `version` equals what the
 * bundled magick-wasm reports (Magick.imageMagickVersion), so a package bump cannot drift silently;
 * each task also reports the version the engine returned at run time.
 */
export const IMAGEMAGICK_ENGINE = { name: "imagemagick", version: "7.1.2-30" } as const;
