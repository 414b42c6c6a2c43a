// Module types of the assets wrangler bundles for the engine Worker (rules in ./wrangler.toml).
declare module "tesseract.js-core/tesseract-core-simd.wasm" {
  const module: WebAssembly.Module; // CompiledWasm: precompiled by wrangler (workerd refuses runtime compilation)
  export default module;
}
declare module "*.traineddata.gz" {
  const data: ArrayBuffer; // Data rule: the gzipped traineddata, inflated by the engine with DecompressionStream
  export default data;
}
