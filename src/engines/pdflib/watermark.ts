/**
 * Watermarks on PDF pages with pdf-lib: text (standard PDF fonts, WinAnsi characters) and/or an
 * image (JPEG/PNG), on the pages of `pages`, above or below the page content, with opacity,
 * rotation, position and margins (geometry in watermark-layout.ts). "below" draws under the page
 * content, so it is hidden where the page paints an opaque background (typical of scans). Text
 * stays extractable (pdftotext finds it).
 */
import { type PDFDocument, type PDFFont, type PDFImage, type PDFPage, concatTransformationMatrix, popGraphicsState, pushGraphicsState, rgb, PDFArray, PDFName, StandardFonts } from "@cantoo/pdf-lib";
import { TaskError } from "../errors";
import { resolvePageSet } from "../pdf/pages";
import type { PdfWatermark } from "../pdf/types";
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
    Helvetica: [StandardFonts.Helvetica, StandardFonts.HelveticaBold, StandardFonts.HelveticaOblique, StandardFonts.HelveticaBoldOblique],
    Times: [StandardFonts.TimesRoman, StandardFonts.TimesRomanBold, StandardFonts.TimesRomanItalic, StandardFonts.TimesRomanBoldItalic],
    Courier: [StandardFonts.Courier, StandardFonts.CourierBold, StandardFonts.CourierOblique, StandardFonts.CourierBoldOblique],
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
    page.drawText(line, { x: x - w / 2, y: y - h / 2, size, font, color: rgb(r, g, b), opacity: (p.opacity ?? 100) / 100 });
  });
}

/** Size of the image watermark in points: image_width/height (aspect kept when one is given), image_width_percent, else pixels as points. */
function imageSize(img: PDFImage, p: PdfWatermark, pageWidth: number): [number, number] {
  const aspect = img.height / img.width;
  if (p.image_width_percent) return [(p.image_width_percent / 100) * pageWidth, (p.image_width_percent / 100) * pageWidth * aspect];
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
    throw new TaskError("UNSUPPORTED", `text: the standard PDF fonts cannot draw ${missing.slice(0, 5).map((c) => JSON.stringify(c)).join(", ")}; use Latin-1 (WinAnsi) text.`);
  }
  const lines = p.text!.split(/\r?\n/);
  const widest = Math.max(...lines.map((l) => font.widthOfTextAtSize(l, 1)), 1e-6);
  const size = p.font_width_percent ? ((p.font_width_percent / 100) * pageWidth) / widest : (p.font_size ?? 40);
  return [widest * size, font.heightAtSize(size) * lines.length];
}

/** Watermarks one page: each element in its own q…Q with the placement matrix; moved first for layer "below". */
function watermarkPage(page: PDFPage, p: PdfWatermark, font: PDFFont | undefined, image: PDFImage | undefined): void {
  const frame = displayFrame(page.getCropBox(), page.getRotation().angle);
  const draw = (w: number, h: number, paint: () => void) => {
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...placeBox(frame, w, h, p)));
    paint();
    page.pushOperators(popGraphicsState());
  };
  if (image) {
    const [w, h] = imageSize(image, p, frame.width);
    draw(w, h, () => page.drawImage(image, { x: -w / 2, y: -h / 2, width: w, height: h, opacity: (p.opacity ?? 100) / 100 }));
  }
  if (font && p.text) {
    const [w, h] = textSize(font, p, frame.width);
    draw(w, h, () => drawText(page, font, p, frame.width));
  }
  if (p.layer === "below") moveLastContentFirst(page);
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
 * Draws the watermark `p` on the pages of `doc` it selects.
 * @throws TaskError INVALID_PAGES | UNSUPPORTED (characters outside WinAnsi) | OPEN_FAILED/OVER_BUDGET (image)
 */
export async function watermarkDoc(doc: PDFDocument, p: PdfWatermark, filename: string, imageBytes?: { filename: string; data: Uint8Array }): Promise<void> {
  const font = p.text ? await doc.embedFont(standardFont(p.font_name)) : undefined;
  const image = imageBytes ? await embedImage(doc, imageBytes.data, imageBytes.filename) : undefined;
  const pages = doc.getPages();
  for (const n of resolvePageSet(p.pages, pages.length, filename)) watermarkPage(pages[n - 1], p, font, image);
}
