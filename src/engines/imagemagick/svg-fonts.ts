/**
 * Fonts for the text of SVG inputs (issue 31). ImageMagick's SVG renderer (MSVG) draws `<text>`
 * with annotate, which finds a face by family in its type map (type.xml) and fails with
 * UnableToReadFont when the map is empty, as magick-wasm's is. The shipped DejaVu faces
 * (wasm/fonts/) are written into magick's in-memory file system (`Magick.addFont` → /fonts/<file>)
 * and a type map names them under the families SVGs ask for: the CSS generic families, the
 * CloudConvert font names of engines/fonts.ts, and fontconfig's names. A family the map does not
 * know falls back, inside annotate, to "Arial", so to DejaVu Sans. Bold is `font-weight` (≥ 600
 * picks the bold face where one is shipped); there is no italic face, and none of the CJK, Arabic
 * or Hebrew faces is used here: letters DejaVu lacks render as its missing-glyph box.
 *
 * The faces come from the engine's FontSource (Node: wasm/fonts on disk; the engine Worker: the
 * fonts Worker over FONTS; the browser build: the assets' fonts/), only when an SVG is to be read,
 * and are written again after an instance is replaced (magick.ts discardInstance).
 */
import { ImageMagick, Magick } from "@imagemagick/magick-wasm";
import { FONT_ALIASES, FONT_FILES, type ShippedFont } from "../fonts";
import type { FontFile, FontSource } from "../text/faces";

/** The faces an SVG's text can be drawn in. */
export const SVG_FONT_FILES: readonly FontFile[] = Object.values(FONT_FILES);

/** Where magick-wasm's addFont puts a file (its /fonts folder). */
const fontPath = (file: FontFile) => `/fonts/${file}`;

/** Families by the upright face they stand for (regular; bold where shipped). */
const FAMILIES: Record<"sans" | "serif" | "mono", { regular: ShippedFont; bold: ShippedFont; names: string[] }> = {
  sans: {
    regular: "DejaVu Sans",
    bold: "DejaVu Sans Bold",
    names: ["sans-serif", "Sans", "system-ui", "cursive", "fantasy", "Bitstream Vera Sans", "Liberation Sans"],
  },
  serif: {
    regular: "DejaVu Serif",
    bold: "DejaVu Serif",
    names: ["serif", "Serif", "Bitstream Vera Serif", "Liberation Serif"],
  },
  mono: {
    regular: "DejaVu Sans Mono",
    bold: "DejaVu Sans Mono",
    names: ["monospace", "Monospace", "Bitstream Vera Sans Mono", "Liberation Mono"],
  },
};

/** Every family name → its group: the lists above and engines/fonts.ts's names without Bold/Italic. */
function familyGroups(): Map<string, keyof typeof FAMILIES> {
  const groups = new Map<string, keyof typeof FAMILIES>();
  for (const [group, f] of Object.entries(FAMILIES) as [keyof typeof FAMILIES, (typeof FAMILIES)["sans"]][]) {
    for (const name of f.names) groups.set(name, group);
  }
  for (const [alias, face] of Object.entries(FONT_ALIASES)) {
    if (/\b(Bold|Italic)$/.test(alias)) continue;
    groups.set(alias, face === "DejaVu Serif" ? "serif" : face === "DejaVu Sans Mono" ? "mono" : "sans");
  }
  return groups;
}

/**
 * ImageMagick's type.xml for the faces of SVG_FONT_FILES (magick.ts adds it to the configuration):
 * per family a normal (400) and a bold (700) entry, whose glyphs are the files addFont writes.
 * "Arial" is among the families, so an unknown family falls back to DejaVu Sans (annotate.c).
 */
export function svgTypeMap(): string {
  const rows: string[] = [];
  let n = 0;
  for (const [family, group] of familyGroups()) {
    for (const [weight, face] of [
      [400, FAMILIES[group].regular],
      [700, FAMILIES[group].bold],
    ] as const) {
      rows.push(
        `  <type name="svg-font-${++n}" fullname="${family} ${weight}" family="${family}" style="Normal"` +
          ` stretch="Normal" weight="${weight}" glyphs="${fontPath(FONT_FILES[face])}"/>`,
      );
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<typemap>\n${rows.join("\n")}\n</typemap>\n`;
}

const loaded = new WeakMap<FontSource, Promise<Map<FontFile, Uint8Array>>>();

/**
 * The SVG faces' bytes from `source`, once per source (≈2.2 MB; later calls share the promise).
 * @throws whatever the source throws (no FONTS binding, a failed fetch); a failure is not kept
 */
export function loadSvgFonts(source: FontSource): Promise<Map<FontFile, Uint8Array>> {
  let p = loaded.get(source);
  if (!p) {
    p = Promise.all(SVG_FONT_FILES.map(async (f) => [f, await source(f)] as const)).then((e) => new Map(e));
    p.catch(() => loaded.delete(source));
    loaded.set(source, p);
  }
  return p;
}

interface MagickFs {
  FS: { analyzePath(path: string): { exists: boolean } };
}

/**
 * Writes the faces into the current instance's file system where they are not yet (a fresh
 * instance after a recycle has none). Synchronous, so that no other call can replace the instance
 * between this and the read that needs the faces. Call after initImageMagick.
 */
export function registerSvgFonts(faces: ReadonlyMap<FontFile, Uint8Array>): void {
  const fs = (ImageMagick as unknown as { _api: MagickFs })._api.FS;
  for (const [file, bytes] of faces) if (!fs.analyzePath(fontPath(file)).exists) Magick.addFont(file, bytes);
}
