/**
 * Watermarks on PDF pages with pdf-lib: text in any shipped script and/or an image (JPEG/PNG), on
 * the pages of `pages`, above or below the page content, with opacity, rotation, position and
 * margins (geometry in watermark-layout.ts). "below" draws under the page content, so it is hidden
 * where the page paints an opaque background (typical of scans). Text stays extractable (pdftotext
 * finds it: every glyph maps back to its characters through the font's ToUnicode CMap).
 *
 * Two text paths, chosen by the characters:
 * - WinAnsi text (Latin-1 + cp1252) is drawn with one of the 14 standard PDF fonts chosen from the
 *   CloudConvert `font_name`: nothing is embedded (a stamp adds ~1 KB), no font is loaded, and
 *   Times/Courier families stay what the caller asked for;
 * - any other text is shaped by engines/text (bidi, per-run font fallback, OpenType shaping) and
 *   drawn by glyph id with the Noto faces embedded as subsets (one Type0 font per face used, only
 *   the glyphs drawn: a Japanese one-liner adds a few KB, not the 4.5 MB face).
 */
import fontkit from "@cantoo/fontkit";
import {
  PDFDocument,
  type PDFFont,
  type PDFImage,
  type PDFPage,
  beginText,
  concatTransformationMatrix,
  endText,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setFillingRgbColor,
  setFontAndSize,
  setGraphicsState,
  setTextMatrix,
  showText,
  PDFArray,
  PDFHexString,
  PDFName,
  StandardFonts,
} from "@cantoo/pdf-lib";
import { TaskError } from "../errors";
import { resolvePageSet } from "../kinds/pdf-pages";
import type { PdfWatermark } from "../kinds/pdf";
import { isWinAnsi, wantsBold, type FontSource } from "../text/faces";
import { alignOffset, shapeText, type ShapedText } from "../text/shape";
import { embedImage } from "./images";
import { displayFrame, placeBox } from "./watermark-layout";

/**
 * One of the 14 standard PDF fonts for a CloudConvert font name (Arial, Times New Roman, Courier
 * New, … with " Bold"/" Italic"): no font files are bundled, so families map to their metric
 * look-alikes — serif to Times, monospace to Courier, everything else to Helvetica.
 */
export function standardFont(name = "Helvetica"): StandardFonts {
  const n = name.toLowerCase();
  const bold = n.includes("bold") || n.includes("impact");
  const italic = n.includes("italic") || n.includes("oblique");
  const serif = /times|georgia|garamond|serif/.test(n) && !n.includes("sans");
  const family = serif ? "Times" : /courier|mono|consol/.test(n) ? "Courier" : "Helvetica";
  const table: Record<string, StandardFonts[]> = {
    Helvetica: [
      StandardFonts.Helvetica,
      StandardFonts.HelveticaBold,
      StandardFonts.HelveticaOblique,
      StandardFonts.HelveticaBoldOblique,
    ],
    Times: [
      StandardFonts.TimesRoman,
      StandardFonts.TimesRomanBold,
      StandardFonts.TimesRomanItalic,
      StandardFonts.TimesRomanBoldItalic,
    ],
    Courier: [
      StandardFonts.Courier,
      StandardFonts.CourierBold,
      StandardFonts.CourierOblique,
      StandardFonts.CourierBoldOblique,
    ],
  };
  return table[family][(bold ? 1 : 0) + (italic ? 2 : 0)];
}

/** "#RGB" / "#RRGGBB" (with or without #) → [r, g, b] in 0..1. */
export function parseColor(hex = "#000000"): [number, number, number] {
  let h = hex.replace(/^#/, "");
  if (h.length === 3) h = [...h].map((c) => c + c).join("");
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255) as [number, number, number];
}

/** Draws the text block centred on the current origin. */
function drawText(page: PDFPage, font: PDFFont, p: PdfWatermark, width: number): void {
  const lines = p.text!.split(/\r?\n/);
  const widths = lines.map((l) => font.widthOfTextAtSize(l, 1));
  const widest = Math.max(...widths, 1e-6);
  const size = p.font_width_percent ? ((p.font_width_percent / 100) * width) / widest : (p.font_size ?? 40);
  const lineHeight = font.heightAtSize(size);
  const descent = lineHeight - font.heightAtSize(size, { descender: false });
  const w = widest * size;
  const h = lineHeight * lines.length;
  const [r, g, b] = parseColor(p.font_color);
  lines.forEach((line, i) => {
    const lw = widths[i] * size;
    const x = p.font_align === "left" ? 0 : p.font_align === "right" ? w - lw : (w - lw) / 2;
    const y = h - (i + 1) * lineHeight + descent;
    page.drawText(line, {
      x: x - w / 2,
      y: y - h / 2,
      size,
      font,
      color: rgb(r, g, b),
      opacity: (p.opacity ?? 100) / 100,
    });
  });
}

/** Size of the image watermark in points: image_width/height (aspect kept when one is given), image_width_percent, else pixels as points. */
function imageSize(img: PDFImage, p: PdfWatermark, pageWidth: number): [number, number] {
  const aspect = img.height / img.width;
  if (p.image_width_percent)
    return [(p.image_width_percent / 100) * pageWidth, (p.image_width_percent / 100) * pageWidth * aspect];
  if (p.image_width && p.image_height) return [p.image_width, p.image_height];
  if (p.image_width) return [p.image_width, p.image_width * aspect];
  if (p.image_height) return [p.image_height / aspect, p.image_height];
  return [img.width, img.height];
}

/** Size of the text block at the chosen font size (for placement). @throws TaskError UNSUPPORTED for characters outside WinAnsi. */
function textSize(font: PDFFont, p: PdfWatermark, pageWidth: number): [number, number] {
  // pdf-lib silently draws "?" for characters its standard fonts lack: refuse them instead.
  const known = new Set(font.getCharacterSet());
  const missing = [...new Set(p.text!.replace(/\r?\n/g, ""))].filter((c) => !known.has(c.codePointAt(0)!));
  if (missing.length) {
    throw new TaskError(
      "UNSUPPORTED",
      `text: the standard PDF fonts cannot draw ${missing
        .slice(0, 5)
        .map((c) => JSON.stringify(c))
        .join(", ")}; use Latin-1 (WinAnsi) text.`,
    );
  }
  const lines = p.text!.split(/\r?\n/);
  const widest = Math.max(...lines.map((l) => font.widthOfTextAtSize(l, 1)), 1e-6);
  const size = p.font_width_percent ? ((p.font_width_percent / 100) * pageWidth) / widest : (p.font_size ?? 40);
  return [widest * size, font.heightAtSize(size) * lines.length];
}

/** The fields of pdf-lib's CustomFontSubsetEmbedder (2.11) that encoding by glyph id needs. */
interface SubsetEmbedder {
  subset: { includeGlyph(glyph: number): number };
  glyphs: unknown[];
  glyphIdMap: Map<number, number>;
  glyphCache: { invalidate(): void };
}

/** The shaped text's faces embedded as subset Type0 fonts (one per face), by font file. */
type ShapedFonts = Map<string, PDFFont>;

/**
 * Encodes glyph ids of `face` into `font` (a subset embedding of the same bytes): the glyphs join
 * the subset, their widths the /W array and their characters the ToUnicode CMap, as pdf-lib's own
 * `encodeText` does for the glyphs fontkit's layout returns; here the glyphs come from our shaper
 * (bidi-ordered, per-run fallback), which pdf-lib's text API cannot take.
 */
function encodeGlyphs(
  font: PDFFont,
  face: ShapedText["faces"][number],
  glyphs: { id: number; codePoints: number[] }[],
): PDFHexString {
  const e = (font as unknown as { embedder: SubsetEmbedder }).embedder;
  if (!e?.subset || !Array.isArray(e.glyphs) || !(e.glyphIdMap instanceof Map))
    throw new TaskError("INTERNAL_ERROR", "pdf-lib's subset font embedder changed shape; cannot encode shaped glyphs.");
  let hex = "";
  for (const g of glyphs) {
    let sid = e.glyphIdMap.get(g.id);
    if (sid === undefined) {
      sid = e.subset.includeGlyph(g.id);
      e.glyphs[sid - 1] = face.font.getGlyph(g.id, g.codePoints);
      e.glyphIdMap.set(g.id, sid);
    }
    hex += sid.toString(16).padStart(4, "0");
  }
  e.glyphCache.invalidate();
  return PDFHexString.of(hex);
}

/** Size of the shaped block in points: font_width_percent of the page width, else font_size (default 40). */
function shapedSize(t: ShapedText, p: PdfWatermark, pageWidth: number): { size: number; w: number; h: number } {
  const size = p.font_width_percent ? ((p.font_width_percent / 100) * pageWidth) / t.width : (p.font_size ?? 40);
  return { size, w: t.width * size, h: t.lineHeight * size * t.lines.length };
}

/** Draws the shaped block centred on the current origin: one BT…ET, glyphs placed by Tm where shaping moved them. */
function drawShaped(page: PDFPage, t: ShapedText, fonts: ShapedFonts, p: PdfWatermark, pageWidth: number): void {
  const { size, w, h } = shapedSize(t, p, pageWidth);
  const [r, g, b] = parseColor(p.font_color);
  const opacity = Math.max(0, Math.min(1, (p.opacity ?? 100) / 100));
  const ops = [];
  if (opacity < 1) {
    const gs = page.node.newExtGState("GS", page.doc.context.obj({ Type: "ExtGState", ca: opacity, CA: opacity }));
    ops.push(setGraphicsState(gs));
  }
  ops.push(setFillingRgbColor(r, g, b), beginText());
  t.lines.forEach((line, i) => {
    let x = -w / 2 + alignOffset(t.width, line.advance, p.font_align) * size;
    const y = h / 2 - (t.ascent + i * t.lineHeight) * size;
    for (const run of line.runs) {
      const font = fonts.get(run.face.file)!;
      ops.push(setFontAndSize(page.node.newFontDictionary(font.name, font.ref), size));
      for (const glyph of run.glyphs) {
        // one Tm per glyph keeps GPOS placement exact (marks, kerning) at ~25 bytes a glyph
        ops.push(
          setTextMatrix(1, 0, 0, 1, x + glyph.xOffset * size, y + glyph.yOffset * size),
          showText(encodeGlyphs(font, run.face, [glyph])),
        );
        x += glyph.advance * size;
      }
    }
  });
  ops.push(endText());
  page.pushOperators(...ops);
}

/** What one watermark call draws its text with: a standard font, or shaped glyphs and their subset fonts. */
type TextPlan = { kind: "standard"; font: PDFFont } | { kind: "shaped"; text: ShapedText; fonts: ShapedFonts };

/** Watermarks one page: each element in its own q…Q with the placement matrix; moved first for layer "below". */
function watermarkPage(page: PDFPage, p: PdfWatermark, text: TextPlan | undefined, image: PDFImage | undefined): void {
  const frame = displayFrame(page.getCropBox(), page.getRotation().angle);
  const draw = (w: number, h: number, paint: () => void) => {
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...placeBox(frame, w, h, p)));
    paint();
    page.pushOperators(popGraphicsState());
  };
  if (image) {
    const [w, h] = imageSize(image, p, frame.width);
    draw(w, h, () =>
      page.drawImage(image, { x: -w / 2, y: -h / 2, width: w, height: h, opacity: (p.opacity ?? 100) / 100 }),
    );
  }
  if (text?.kind === "standard" && p.text) {
    const [w, h] = textSize(text.font, p, frame.width);
    draw(w, h, () => drawText(page, text.font, p, frame.width));
  }
  if (text?.kind === "shaped") {
    const { w, h } = shapedSize(text.text, p, frame.width);
    draw(w, h, () => drawShaped(page, text.text, text.fonts, p, frame.width));
  }
  if (p.layer === "below") moveLastContentFirst(page);
}

/** Six upper-case letters from `seed` (FNV-1a): the same text and face give the same tag. */
function subsetTag(seed: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193) >>> 0;
  let tag = "";
  for (let i = 0; i < 6; i++, h = Math.floor(h / 26)) tag += String.fromCharCode(65 + (h % 26));
  return tag;
}

/** Shapes non-WinAnsi text and embeds its faces as subsets. @throws TaskError UNSUPPORTED (no fonts here, or characters no face covers) */
async function planShaped(
  doc: PDFDocument,
  text: string,
  fontName: string | undefined,
  fonts: FontSource | undefined,
): Promise<TextPlan> {
  if (!fonts)
    throw new TaskError(
      "UNSUPPORTED",
      "text: this runtime ships no fonts beyond the standard PDF fonts; use Latin-1 (WinAnsi) text.",
    );
  const shaped = await shapeText(text, fonts, { bold: wantsBold(fontName) });
  doc.registerFontkit(fontkit);
  const embedded: ShapedFonts = new Map();
  for (const face of shaped.faces) {
    // a subset font's name starts with a six-letter tag and "+" (ISO 32000-1 §9.6.4), which tells readers (pdffonts "sub") it is partial
    const name = `${subsetTag(face.file + text)}+${face.font.postscriptName ?? face.file.replace(/\.\w+$/, "")}`;
    embedded.set(face.file, await doc.embedFont(face.bytes, { subset: true, customName: name }));
  }
  return { kind: "shaped", text: shaped, fonts: embedded };
}

/** Moves the content stream pdf-lib appended (the watermark) to the front of /Contents. */
function moveLastContentFirst(page: PDFPage): void {
  const contents = page.node.Contents();
  if (!(contents instanceof PDFArray) || contents.size() < 2) return;
  const last = contents.get(contents.size() - 1);
  contents.remove(contents.size() - 1);
  contents.insert(0, last);
  page.node.set(PDFName.of("Contents"), contents);
}

/**
 * Draws the watermark `p` on the pages of `doc` it selects. `fonts` is where this platform gets the
 * script faces (engines/text/faces.ts); without it only WinAnsi text can be drawn.
 * @throws TaskError INVALID_PAGES | UNSUPPORTED (characters no shipped font covers, named with
 *   their code points) | OPEN_FAILED/OVER_BUDGET (image) | INTERNAL_ERROR (a font could not be loaded; retryable)
 */
export async function watermarkDoc(
  doc: PDFDocument,
  p: PdfWatermark,
  filename: string,
  imageBytes?: { filename: string; data: Uint8Array },
  fonts?: FontSource,
): Promise<void> {
  const pages = doc.getPages();
  const selected = resolvePageSet(p.pages, pages.length, filename);
  let text: TextPlan | undefined;
  if (p.text) {
    text = isWinAnsi(p.text)
      ? { kind: "standard", font: await doc.embedFont(standardFont(p.font_name)) }
      : await planShaped(doc, p.text, p.font_name, fonts);
  }
  const image = imageBytes ? await embedImage(doc, imageBytes.data, imageBytes.filename) : undefined;
  for (const n of selected) watermarkPage(pages[n - 1], p, text, image);
}

/**
 * The watermark `p` alone on blank pages, one per frame of `frames` (points, as displayed: no /Rotate), laid out as
 * {@link watermarkDoc} lays it on a page of that frame (`p.pages` is not read: every page gets it): the stamp the
 * native qpdf overlays on a document too large to open here (issue 49, kinds/pdf.ts `stamp`).
 * @throws TaskError as watermarkDoc
 */
export async function stampDoc(
  frames: { width: number; height: number }[],
  p: PdfWatermark,
  imageBytes?: { filename: string; data: Uint8Array },
  fonts?: FontSource,
): Promise<PDFDocument> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (const f of frames) doc.addPage([f.width, f.height]);
  await watermarkDoc(doc, { ...p, pages: undefined, layer: "above" }, "the watermark", imageBytes, fonts);
  return doc;
}
