// Module types of the assets wrangler bundles for the engine Worker (rules in ./wrangler.toml).
declare module "7z-wasm/7zz.wasm" {
  const module: WebAssembly.Module; // CompiledWasm: precompiled by wrangler (workerd refuses runtime compilation)
  export default module;
}
