/**
 * Parsed font faces, loaded on first use and cached for the life of the isolate (per FontSource):
 * a Japanese face is read and parsed once, by the first text that needs it, never at start-up.
 */
import fontkit, { type Font } from "@cantoo/fontkit";
import { TaskError } from "../errors";
import type { FontFile, FontSource } from "./faces";

/** A face ready for shaping: its bytes (for PDF embedding) and the parsed fontkit font. */
export interface LoadedFace {
  file: FontFile;
  bytes: Uint8Array;
  font: Font;
}

const caches = new WeakMap<FontSource, Map<FontFile, Promise<LoadedFace>>>();

/**
 * The face `file` from `source`, parsed with fontkit; concurrent and later calls share one load.
 * A failed load is forgotten (the next call tries again).
 * @throws TaskError INTERNAL_ERROR (retryable) when the source cannot deliver or fontkit cannot parse it
 */
export function loadFace(source: FontSource, file: FontFile): Promise<LoadedFace> {
  let cache = caches.get(source);
  if (!cache) caches.set(source, (cache = new Map()));
  let face = cache.get(file);
  if (!face) {
    face = (async () => {
      let bytes: Uint8Array;
      try {
        bytes = await source(file);
      } catch (err) {
        throw new TaskError(
          "INTERNAL_ERROR",
          `The font ${file} could not be loaded: ${err instanceof Error ? err.message : String(err)}`,
          { cause: err, retryable: true },
        );
      }
      const font = fontkit.create(bytes);
      if (!font || !("layout" in font))
        throw new TaskError("INTERNAL_ERROR", `The font ${file} is not a single font face.`);
      return { file, bytes, font };
    })();
    cache.set(file, face);
    face.catch(() => cache!.delete(file));
  }
  return face;
}
