/**
 * Engine identity of tesseract in WebAssembly: tesseract.js-core 7.0.0, whose `TessBaseAPI::Version()`
 * answers "5.1.0-288-g2a9c1" (its tesseract fork's `git describe`). The OCR engine test asserts the
 * two agree, so a package bump cannot drift silently.
 */
export const TESSERACT_ENGINE = { name: "tesseract", version: "5.1.0-288-g2a9c1" } as const;
