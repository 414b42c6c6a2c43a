// 7z-wasm's ES module factory (the package's own index.d.ts describes the UMD default export).
declare module "7z-wasm/7zz.es6.js" {
  const factory: (opts?: Record<string, unknown>) => Promise<unknown>;
  export default factory;
}
