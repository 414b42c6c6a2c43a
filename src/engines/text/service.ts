/**
 * A FontSource over a service binding: the api Worker (PDF watermarks) and the image engine Worker
 * (image watermarks) get the watermark faces from the fonts Worker, which bundles them
 * (wasm/fonts/worker.ts says why they live there), through its RPC method `font(file)`. Each face
 * crosses once per isolate (engines/text/fonts.ts caches the parsed face), the first time a text
 * needs it: 4.5 MB for Japanese or Korean, 8.4 MB for simplified Chinese, under 1 MB otherwise.
 */
import type { FontSource } from "./faces";

/** The fonts Worker's RPC surface (wasm/fonts/worker.ts). */
export interface FontRpc {
  font(file: string): Promise<Uint8Array>;
}

const sources = new WeakMap<object, FontSource>();

/** The FontSource of `binding` (one per binding, so its faces are cached once per isolate). */
export function serviceFontSource(binding: object): FontSource {
  let source = sources.get(binding);
  if (!source) {
    source = async (file) => {
      const bytes = await (binding as FontRpc).font(file);
      if (!(bytes instanceof Uint8Array)) throw new Error(`the font service answered ${typeof bytes} for ${file}`);
      return bytes;
    };
    sources.set(binding, source);
  }
  return source;
}
