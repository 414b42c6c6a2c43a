/**
 * watermark on PDFs: text (standard PDF fonts, WinAnsi characters) and/or an image (JPEG/PNG from
 * the task named by `image`), on the pages of `pages`, above or below the page content, with
 * opacity, rotation, position and margins (watermark-params.ts; geometry in watermark-layout.ts).
 * "below" draws under the page content, so it is hidden where the page paints an opaque
 * background (typical of scans). Text stays extractable (pdftotext finds it).
 */
import { type PDFDocument, type PDFFont, type PDFImage, type PDFPage, concatTransformationMatrix, popGraphicsState, pushGraphicsState, rgb, PDFArray, PDFName } from "@cantoo/pdf-lib";
import { TaskError } from "../../engines/errors";
import { savePdf } from "../../engines/pdflib";
import type { OperationContext, OperationHandler, OutputFile } from "../types";
import { pdfFile, readPdf, requirePdfInputs, singleName, throwIfAborted, PDF_TO_PDF } from "./common";
import { embedImage } from "./images";
import { resolvePageSet } from "./pages";
import { checkWatermark, parseColor, standardFont, watermarkParams, type WatermarkParams } from "./watermark-params";
import { displayFrame, placeBox } from "./watermark-layout";

/** Reads the watermark image of task `name` (its first file). */
async function watermarkImage(ctx: OperationContext, name: string): Promise<{ filename: string; bytes: Uint8Array }> {
  const files = await ctx.taskFiles(name);
  if (files.length === 0) throw new TaskError("FILE_NOT_FOUND", `image: task ${name} has no file to use as the watermark image.`);
  return { filename: files[0].filename, bytes: await files[0].bytes() };
}

/** Draws the text block centred on the current origin. @throws TaskError UNSUPPORTED for characters outside WinAnsi. */
function drawText(page: PDFPage, font: PDFFont, p: WatermarkParams, width: number): void {
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
function imageSize(img: PDFImage, p: WatermarkParams, pageWidth: number): [number, number] {
  const aspect = img.height / img.width;
  if (p.image_width_percent) return [(p.image_width_percent / 100) * pageWidth, (p.image_width_percent / 100) * pageWidth * aspect];
  if (p.image_width && p.image_height) return [p.image_width, p.image_height];
  if (p.image_width) return [p.image_width, p.image_width * aspect];
  if (p.image_height) return [p.image_height / aspect, p.image_height];
  return [img.width, img.height];
}

/** Size of the text block at the chosen font size (for placement). @throws TaskError UNSUPPORTED for characters outside WinAnsi. */
function textSize(font: PDFFont, p: WatermarkParams, pageWidth: number): [number, number] {
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
function watermarkPage(page: PDFPage, p: WatermarkParams, font: PDFFont | undefined, image: PDFImage | undefined): void {
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

async function watermarkDoc(doc: PDFDocument, p: WatermarkParams, filename: string, imageBytes?: { filename: string; bytes: Uint8Array }): Promise<void> {
  const font = p.text ? await doc.embedFont(standardFont(p.font_name)) : undefined;
  const image = imageBytes ? await embedImage(doc, imageBytes.bytes, imageBytes.filename) : undefined;
  const pages = doc.getPages();
  for (const n of resolvePageSet(p.pages, pages.length, filename)) watermarkPage(pages[n - 1], p, font, image);
}

export const watermarkPdf: OperationHandler<WatermarkParams> = {
  operation: "watermark",
  ...PDF_TO_PDF,
  params: watermarkParams,
  check: checkWatermark,
  async run(inputs, p, ctx) {
    requirePdfInputs(inputs, "watermark", p.input_format);
    const image = p.image ? await watermarkImage(ctx, p.image) : undefined;
    const files: OutputFile[] = [];
    for (const [i, input] of inputs.entries()) {
      throwIfAborted(ctx.signal);
      const doc = await readPdf(input, ctx);
      await watermarkDoc(doc, p, input.filename, image);
      files.push(pdfFile(singleName(p.filename, input.filename, "pdf", i + 1), await savePdf(doc, input.filename)));
    }
    return { files };
  },
};
