/**
 * The Unicode Bidirectional Algorithm (UAX #9) for one line of watermark text: resolved embedding
 * levels from bidi-js (rules P2–I2, with the paragraph direction taken from the first strong
 * character, P2/P3), L1 for trailing white space here, mirroring of paired characters on
 * right-to-left levels (L4, via bidi-js's Bidi_Mirroring_Glyph table), and the visual reordering
 * of runs (L2) for the shaper.
 */
import bidiFactory, { type Bidi } from "bidi-js";

let engine: Bidi | undefined;
/** bidi-js builds its tables on creation (a few ms): once per isolate, on first use. */
const bidi = (): Bidi => (engine ??= bidiFactory());

/** Levels of one line: one entry per UTF-16 code unit (odd = right-to-left), and the paragraph level. */
export interface LineLevels {
  levels: Uint8Array;
  paragraphLevel: number;
}

/**
 * Resolved levels of `line` (no line breaks inside), with L1 applied to trailing white space.
 * `line` "abc שלום" gives 0 0 0 0 1 1 1 1; "سري 2024" gives 1 1 1 1 2 2 2 2.
 */
export function lineLevels(line: string): LineLevels {
  const b = bidi();
  const r = b.getEmbeddingLevels(line, "auto");
  const levels = Uint8Array.from(r.levels);
  const paragraphLevel = r.paragraphs[0]?.level ?? 0;
  // L1: white space (and isolate/format characters) at the end of the line take the paragraph level.
  for (let i = line.length - 1; i >= 0; i--) {
    const t = b.getBidiCharTypeName(line[i]);
    if (t !== "WS" && t !== "S" && t !== "BN" && t !== "LRI" && t !== "RLI" && t !== "FSI" && t !== "PDI") break;
    levels[i] = paragraphLevel;
  }
  return { levels, paragraphLevel };
}

/** `text` with every character on an odd level replaced by its mirror image ("(" ↔ ")"; UAX #9 L4). */
export function mirrorRtl(text: string, levels: Uint8Array, offset: number): string {
  const b = bidi();
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const m = levels[offset + i] & 1 ? b.getMirroredCharacter(text[i]) : null;
    out += m ?? text[i];
  }
  return out;
}

/** The mirror image of code point `cp` (an involution: mirroring twice gives `cp` back), or `cp`. */
export function mirrorCodePoint(cp: number): number {
  const m = bidi().getMirroredCharacter(String.fromCodePoint(cp));
  return m ? m.codePointAt(0)! : cp;
}

/**
 * UAX #9 rule L2 on runs: from the highest level down to the lowest odd level, reverse every
 * maximal sequence of runs at that level or higher. `items` are in logical order; returns a new
 * array in visual (left-to-right) order. Each run's own glyphs are already in visual order.
 */
export function reorderRuns<T extends { level: number }>(items: readonly T[]): T[] {
  const out = [...items];
  if (out.length < 2) return out;
  const max = Math.max(...out.map((r) => r.level));
  const minOdd = Math.min(...out.map((r) => r.level).filter((l) => l & 1), Infinity);
  if (minOdd === Infinity) return out;
  for (let level = max; level >= minOdd; level--) {
    for (let i = 0; i < out.length;) {
      if (out[i].level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < out.length && out[j].level >= level) j++;
      out.splice(i, j - i, ...out.slice(i, j).reverse());
      i = j;
    }
  }
  return out;
}
