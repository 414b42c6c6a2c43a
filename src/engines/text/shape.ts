/**
 * Watermark text → positioned glyphs, the one text-shaping implementation of the PDF and image
 * watermarks: line breaks split lines; each character gets a face (the named face for WinAnsi
 * text, else the first face of SCRIPT_CHAIN that covers it, neutral characters staying with their
 * neighbours); UAX #9 levels (bidi.ts) split runs further; each run is shaped by fontkit's
 * OpenType layout (GSUB/GPOS: Arabic joining forms, ligatures, kerning, marks), and runs are put
 * in visual order. All lengths are in em (font units / unitsPerEm): multiply by the font size.
 */
import type { Font } from "@cantoo/fontkit";
import { TaskError } from "../errors";
import { lineLevels, mirrorCodePoint, mirrorRtl, reorderRuns } from "./bidi";
import { HAN, HAN_FACES, inRanges, SCRIPT_CHAIN, type FontFile, type FontSource } from "./faces";
import { loadFace, type LoadedFace } from "./fonts";

/** One glyph in visual order: its id in `face`, the characters it stands for, and its advance/offsets (em; y up). */
export interface ShapedGlyph {
  id: number;
  codePoints: number[];
  advance: number;
  xOffset: number;
  yOffset: number;
}

/** A run of glyphs of one face and one direction, glyphs in visual order. */
export interface ShapedRun {
  face: LoadedFace;
  glyphs: ShapedGlyph[];
  /** Sum of the glyph advances, em. */
  advance: number;
  rtl: boolean;
}

/** One line: runs in visual (left-to-right) order. */
export interface ShapedLine {
  runs: ShapedRun[];
  advance: number;
}

/** The shaped text block. Lengths in em; `ascent`/`descent` are the largest of the faces used (descent positive). */
export interface ShapedText {
  lines: ShapedLine[];
  /** Advance of the widest line. */
  width: number;
  ascent: number;
  descent: number;
  /** ascent + descent: the distance between baselines. */
  lineHeight: number;
  /** The faces the text uses, each once. */
  faces: LoadedFace[];
}

/** What to shape with. */
export interface ShapeOptions {
  /** Shape every character in this face (WinAnsi text with a named face); absent: the script chain. */
  named?: FontFile;
  /** Bold faces of the chain. */
  bold?: boolean;
}

type Cls = "letter" | "mark" | "neutral";
const classify = (ch: string): Cls => (/\p{M}/u.test(ch) ? "mark" : /\p{L}/u.test(ch) ? "letter" : "neutral");

const describe = (chars: string[]) =>
  chars
    .slice(0, 5)
    .map((c) => `"${c}" (U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")})`)
    .join(", ") + (chars.length > 5 ? `, and ${chars.length - 5} more` : "");

/** Picks a face per character of `chars` (code points of one line), loading faces only as needed. */
async function assignFaces(
  chars: string[],
  source: FontSource,
  opts: ShapeOptions,
  missing: Set<string>,
): Promise<(LoadedFace | undefined)[]> {
  if (opts.named) {
    const face = await loadFace(source, opts.named);
    return chars.map((c) => (face.font.hasGlyphForCodePoint(c.codePointAt(0)!) ? face : (missing.add(c), undefined)));
  }
  const files = SCRIPT_CHAIN.map((f) => ({ face: f, file: opts.bold ? f.bold : f.regular }));
  const covers = (face: LoadedFace | undefined, c: string) =>
    !!face && face.font.hasGlyphForCodePoint(c.codePointAt(0)!);
  const firstCovering = async (c: string, byRange: boolean) => {
    for (const { face, file } of files) {
      if (byRange && !inRanges(c.codePointAt(0)!, face.ranges)) continue;
      const loaded = await loadFace(source, file);
      if (covers(loaded, c)) return loaded;
    }
    return undefined;
  };
  const out: (LoadedFace | undefined)[] = new Array(chars.length);
  const cls = chars.map(classify);
  // letters first: their script decides the face; a letter of no shipped script loads nothing
  for (let i = 0; i < chars.length; i++) if (cls[i] === "letter") out[i] = await firstCovering(chars[i], true);
  // Han unification: once a letter of the line needs the Korean or simplified Chinese face, the
  // line's other Han ideographs follow it, so that a word is drawn in one design
  const takeover = files
    .filter((f) => HAN_FACES.includes(f.face.name))
    .sort((a, b) => HAN_FACES.indexOf(a.face.name) - HAN_FACES.indexOf(b.face.name))
    .map(({ file }) => out.find((f) => f?.file === file))
    .find((f) => f);
  if (takeover) {
    for (let i = 0; i < chars.length; i++) {
      if (cls[i] === "letter" && inRanges(chars[i].codePointAt(0)!, HAN) && covers(takeover, chars[i]))
        out[i] = takeover;
    }
  }
  // marks follow their base; neutrals (spaces, digits, punctuation) stay with a neighbour that covers them
  for (let i = 0; i < chars.length; i++) {
    if (cls[i] === "letter") continue;
    const prev = out[i - 1];
    let next: LoadedFace | undefined;
    for (let j = i + 1; j < chars.length && !next; j++) if (cls[j] === "letter") next = out[j];
    out[i] = covers(prev, chars[i])
      ? prev
      : cls[i] === "neutral" && covers(next, chars[i])
        ? next
        : await firstCovering(chars[i], false);
  }
  chars.forEach((c, i) => {
    if (!out[i]) missing.add(c);
  });
  return out;
}

/** Shapes one run with fontkit (glyphs come back in visual order for "rtl"). */
function shapeRun(face: LoadedFace, text: string, rtl: boolean): ShapedRun {
  const font: Font = face.font;
  const run = font.layout(text, undefined, undefined, undefined, rtl ? "rtl" : "ltr");
  const em = 1 / font.unitsPerEm;
  const glyphs = run.glyphs.map((g, i) => {
    const p = run.positions?.[i];
    // the characters a glyph stands for are the logical ones (before L4 mirroring), for text extraction
    const codePoints = rtl ? g.codePoints.map(mirrorCodePoint) : g.codePoints;
    return {
      id: g.id,
      codePoints,
      advance: (p?.xAdvance ?? g.advanceWidth) * em,
      xOffset: (p?.xOffset ?? 0) * em,
      yOffset: (p?.yOffset ?? 0) * em,
    };
  });
  return { face, glyphs, advance: glyphs.reduce((s, g) => s + g.advance, 0), rtl };
}

/**
 * Shapes `text` (lines split at \n or \r\n) into visual-order glyph runs.
 * @throws TaskError UNSUPPORTED naming the characters (and code points) no shipped face covers;
 *   INTERNAL_ERROR (retryable) when a font cannot be loaded
 */
export async function shapeText(text: string, source: FontSource, opts: ShapeOptions = {}): Promise<ShapedText> {
  const missing = new Set<string>();
  const lines: ShapedLine[] = [];
  const used = new Map<FontFile, LoadedFace>();
  for (const line of text.split(/\r?\n/)) {
    const chars = [...line];
    const faces = await assignFaces(chars, source, opts, missing);
    if (missing.size) continue; // keep scanning the other lines to name every missing character
    const { levels } = lineLevels(line);
    // logical runs: same face, same level (indices in UTF-16 code units, as bidi levels are)
    const runs: { face: LoadedFace; level: number; start: number; end: number }[] = [];
    let unit = 0;
    chars.forEach((c, i) => {
      const face = faces[i]!;
      const level = levels[unit];
      const last = runs[runs.length - 1];
      if (last && last.face === face && last.level === level) last.end = unit + c.length;
      else runs.push({ face, level, start: unit, end: unit + c.length });
      unit += c.length;
    });
    const shaped = reorderRuns(runs).map((r) => {
      used.set(r.face.file, r.face);
      return shapeRun(r.face, mirrorRtl(line.slice(r.start, r.end), levels, r.start), (r.level & 1) === 1);
    });
    lines.push({ runs: shaped, advance: shaped.reduce((s, r) => s + r.advance, 0) });
  }
  if (missing.size) {
    throw new TaskError(
      "UNSUPPORTED",
      `text: no shipped font has ${describe([...missing])}; the watermark fonts cover Latin, Greek, Cyrillic, Arabic, Hebrew, Japanese, Chinese (simplified), Korean, Devanagari, Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Sinhala, Thai, Lao, Khmer, Myanmar, Georgian, Armenian and Ethiopic.`,
    );
  }
  const faces = [...used.values()];
  if (faces.length === 0 && opts.named) faces.push(await loadFace(source, opts.named));
  if (faces.length === 0)
    faces.push(await loadFace(source, opts.bold ? SCRIPT_CHAIN[0].bold : SCRIPT_CHAIN[0].regular));
  const ascent = Math.max(...faces.map((f) => f.font.ascent / f.font.unitsPerEm));
  const descent = Math.max(...faces.map((f) => -f.font.descent / f.font.unitsPerEm));
  return {
    lines,
    width: Math.max(...lines.map((l) => l.advance), 1e-6),
    ascent,
    descent,
    lineHeight: ascent + descent,
    faces,
  };
}

/** x offset (em) of a line of `advance` inside a block of `width` for `align` (default centre). */
export function alignOffset(width: number, advance: number, align: "left" | "center" | "right" | undefined): number {
  return align === "left" ? 0 : align === "right" ? width - advance : (width - advance) / 2;
}
