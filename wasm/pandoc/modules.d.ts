// Module types of the assets wrangler bundles for the engine Worker (rules in ./wrangler.toml).
declare module "*.wasm" {
  const module: WebAssembly.Module; // CompiledWasm: precompiled by wrangler (workerd refuses runtime compilation)
  export default module;
}
