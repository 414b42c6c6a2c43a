/**
 * A FontSource over a service binding: the api Worker gets the watermark faces from the image
 * engine Worker, which bundles them (wasm/imagemagick/fonts.ts says why they live there), through
 * its RPC method `font(file)`. Each face crosses once per api isolate (engines/text/fonts.ts caches
 * the parsed face), the first time a PDF watermark's text needs it: 4.5 MB for Japanese, under
 * 1 MB for the other scripts.
 */
import type { FontSource } from "./faces";

/** The part of the image engine Worker's RPC surface this needs. */
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
