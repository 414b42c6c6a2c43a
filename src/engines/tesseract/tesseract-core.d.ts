// tesseract.js-core 7.0.0 ships no types: its emscripten factory (the full SIMD build, legacy + LSTM). The parts of the
// Module the engine uses are typed in core.ts.
declare module "tesseract.js-core/tesseract-core-simd.js" {
  const TesseractCore: (moduleArg: Record<string, unknown>) => Promise<unknown>;
  export default TesseractCore;
}
