// Module types of the assets wrangler bundles for the engine Worker (rules in ./wrangler.toml).
declare module "*.wasm" {
  const module: WebAssembly.Module; // CompiledWasm: precompiled by wrangler (workerd refuses runtime compilation)
  export default module;
}
declare module "*.ttf" {
  const data: ArrayBuffer; // Data rule
  export default data;
}
declare module "@ffmpeg/core/wasm" {
  const module: WebAssembly.Module; // the package's "./wasm" export, CompiledWasm
  export default module;
}
