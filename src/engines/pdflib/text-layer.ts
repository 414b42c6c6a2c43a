/**
 * The invisible OCR text layer (issue 17), the way OCRmyPDF and tesseract's PDF renderer lay it:
 * each recognised word drawn in text render mode 3 (neither fill nor stroke, ISO 32000-1 §9.3.6)
 * on its box, stretched horizontally (Tz) to the box's width, so viewers can search and select the
 * words where they are seen while the page renders exactly as before. The page's own content is
 * not touched (pdf-lib wraps it in q…Q and appends one content stream).
 *
 * The font is a Type0/Identity-H font without a font program ("GlyphLessFont"): codes are UTF-16
 * code units, /ToUnicode maps each back to itself, so any script is extractable; nothing is ever
 * painted with it (mode 3), so no glyphs are needed. Widths are a constant 500/1000 em.
 */
import type { TextLayerWord } from "../kinds/pdf";
import {
  type PDFArray,
  PDFDict,
  PDFName,
  PDFString,
  type PDFDocument,
  type PDFPage,
  type PDFRef,
} from "@cantoo/pdf-lib";

/** One word in page-display points: origin bottom-left of the page as displayed (after /Rotate and the crop box), y up. */
export type LayerWord = TextLayerWord;

const GLYPH_WIDTH = 500; // 1/1000 em, the /DW of the font

/** The ToUnicode CMap mapping every 2-byte code to the same UTF-16 code unit (bfrange blocks of 256, §9.10.3). */
function identityToUnicode(): string {
  const ranges: string[] = [];
  for (let hi = 0; hi < 256; hi++) {
    const h = hi.toString(16).padStart(2, "0").toUpperCase();
    ranges.push(`<${h}00> <${h}FF> <${h}00>`);
  }
  const blocks: string[] = [];
  for (let i = 0; i < ranges.length; i += 100) {
    const chunk = ranges.slice(i, i + 100);
    blocks.push(`${chunk.length} beginbfrange\n${chunk.join("\n")}\nendbfrange`);
  }
  return [
    "/CIDInit /ProcSet findresource begin",
    "12 dict begin",
    "begincmap",
    "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
    "/CMapName /Adobe-Identity-UCS def",
    "/CMapType 2 def",
    "1 begincodespacerange",
    "<0000> <FFFF>",
    "endcodespacerange",
    ...blocks,
    "endcmap",
    "CMapName currentdict /CMap defineresource pop",
    "end",
    "end",
  ].join("\n");
}

/** Registers the glyph-less Type0 font in `doc` once; answers its reference. */
export function glyphlessFont(doc: PDFDocument): PDFRef {
  const ctx = doc.context;
  const descriptor = ctx.register(
    ctx.obj({
      Type: "FontDescriptor",
      FontName: "GlyphLessFont",
      Flags: 5,
      FontBBox: [0, 0, GLYPH_WIDTH, 1000],
      ItalicAngle: 0,
      Ascent: 1000,
      Descent: 0,
      CapHeight: 1000,
      StemV: 80,
    }),
  );
  const cidFont = ctx.register(
    ctx.obj({
      Type: "Font",
      Subtype: "CIDFontType2",
      BaseFont: "GlyphLessFont",
      CIDSystemInfo: { Supplement: 0 },
      FontDescriptor: descriptor,
      DW: GLYPH_WIDTH,
      CIDToGIDMap: "Identity",
    }),
  );
  // CIDSystemInfo holds strings; ctx.obj would turn JS strings into names
  const info = (ctx.lookup(cidFont) as PDFDict).lookup(PDFName.of("CIDSystemInfo")) as PDFDict;
  info.set(PDFName.of("Registry"), PDFString.of("Adobe"));
  info.set(PDFName.of("Ordering"), PDFString.of("Identity"));
  const toUnicode = ctx.register(ctx.flateStream(identityToUnicode()));
  return ctx.register(
    ctx.obj({
      Type: "Font",
      Subtype: "Type0",
      BaseFont: "GlyphLessFont",
      Encoding: "Identity-H",
      DescendantFonts: ctx.obj([cidFont]) as PDFArray,
      ToUnicode: toUnicode,
    }),
  );
}

/**
 * The matrix taking page-display points (origin bottom-left of the displayed page, y up) to the
 * page's default user space, for /Rotate `rotate` (clockwise, §7.7.3.3) and crop box [llx lly urx ury].
 */
export function displayToUser(
  rotate: number,
  box: [number, number, number, number],
): [number, number, number, number, number, number] {
  const [llx, lly, urx, ury] = box;
  const w = urx - llx;
  const h = ury - lly;
  switch (((rotate % 360) + 360) % 360) {
    case 90:
      return [0, 1, -1, 0, llx + w, lly];
    case 180:
      return [-1, 0, 0, -1, llx + w, lly + h];
    case 270:
      return [0, -1, 1, 0, llx, lly + h];
    default:
      return [1, 0, 0, 1, llx, lly];
  }
}

/** The page's size as displayed, in points: its crop box, sides swapped for /Rotate 90 and 270. */
export function displaySize(page: PDFPage): { width: number; height: number } {
  const box = page.getCropBox();
  const quarter = Math.abs(Math.round(page.getRotation().angle / 90)) % 2 === 1;
  return quarter ? { width: box.height, height: box.width } : { width: box.width, height: box.height };
}

const num = (n: number) => (Math.abs(n) < 1e-6 ? "0" : Number(n.toFixed(3)).toString());

/** The hex string of `text` as 2-byte codes (UTF-16 code units). */
function codes(text: string): string {
  let hex = "";
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, "0");
  return `<${hex}>`;
}

/**
 * Appends the invisible words `words` to `page` with font `font` (from {@link glyphlessFont}).
 * Answers the number of words written (empty or whitespace-only words are skipped).
 */
export function addTextLayer(page: PDFPage, font: PDFRef, words: LayerWord[]): number {
  const usable = words.filter((w) => w.text.trim() !== "" && w.x1 > w.x0 && w.y1 > w.y0);
  if (usable.length === 0) return 0;
  page.node.normalize(); // wraps the page's own content in q…Q, so its graphics state cannot leak into the layer
  const name = page.node.newFontDictionary("GlyphLessFont", font);
  const box = page.getCropBox();
  const m = displayToUser(page.getRotation().angle, [box.x, box.y, box.x + box.width, box.y + box.height]);
  const ops: string[] = ["q", `${m.map(num).join(" ")} cm`, "BT", "3 Tr"];
  for (const w of usable) {
    const text = w.text.trim();
    const angle = ((w.angle ?? 0) * Math.PI) / 180;
    const vertical = Math.abs(Math.sin(angle)) > 0.5;
    // font size = the box's extent across the baseline; Tz stretches the constant-width glyphs along it
    const across = vertical ? w.x1 - w.x0 : w.y1 - w.y0;
    const along = vertical ? w.y1 - w.y0 : w.x1 - w.x0;
    const size = Math.max(across, 1);
    const natural = (text.length * GLYPH_WIDTH * size) / 1000;
    const scale = (100 * along) / natural;
    const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
    // the baseline origin: the box corner the text starts from, a fifth of the height above the bottom (descenders)
    const [ox, oy] =
      Math.abs(sin) < 0.5
        ? cos > 0
          ? [w.x0, w.y0 + across / 5]
          : [w.x1, w.y1 - across / 5]
        : sin > 0
          ? [w.x1 - across / 5, w.y0]
          : [w.x0 + across / 5, w.y1];
    ops.push(
      `/${name.asString().slice(1)} ${num(size)} Tf`,
      `${num(scale)} Tz`,
      `${num(cos)} ${num(sin)} ${num(-sin)} ${num(cos)} ${num(ox)} ${num(oy)} Tm`,
      `${codes(text)} Tj`,
    );
  }
  ops.push("ET", "Q");
  const stream = page.doc.context.flateStream(ops.join("\n"));
  page.node.addContentStream(page.doc.context.register(stream));
  return usable.length;
}

/** True when the page's resources (or those of its form XObjects, three levels deep) name a font: it likely carries text. */
export function pageHasFonts(page: PDFPage): boolean {
  const seen = new Set<PDFDict>();
  const visit = (resources: unknown, depth: number): boolean => {
    if (!(resources instanceof PDFDict) || seen.has(resources) || depth > 3) return false;
    seen.add(resources);
    const fonts = resources.lookup(PDFName.of("Font"));
    if (fonts instanceof PDFDict && fonts.keys().length > 0) return true;
    const xobjects = resources.lookup(PDFName.of("XObject"));
    if (!(xobjects instanceof PDFDict)) return false;
    for (const key of xobjects.keys()) {
      const x = xobjects.lookup(key);
      const dict = x && "dict" in (x as object) ? (x as unknown as { dict: PDFDict }).dict : undefined;
      if (
        dict?.lookup(PDFName.of("Subtype")) === PDFName.of("Form") &&
        visit(dict.lookup(PDFName.of("Resources")), depth + 1)
      )
        return true;
    }
    return false;
  };
  return visit(page.node.Resources(), 0);
}
