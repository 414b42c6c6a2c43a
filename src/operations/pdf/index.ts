/**
 * The PDF operation family: registry rows for merge, pdf/split-pages, pdf/extract-pages,
 * pdf/rotate-pages, pdf/encrypt, pdf/decrypt, watermark, pdf/a, pdf/x, optimize, pdf/ocr (OCR engine + PDFium + pdf-lib), and convert/thumbnail from PDF to
 * png|jpg|webp, all run by a PDF-kind engine (engines/kinds/pdf.ts; the engine table says which:
 * pdf-lib for pages, PDFium for rasterizing); jpg/webp pages are re-encoded by the image engine.
 * The registry lists PDF_HANDLERS explicitly (DESIGN.md principle 1).
 */
import type { OperationHandler } from "../types";
import { decryptPdf } from "./decrypt";
import { encryptPdf } from "./encrypt";
import { extractPages } from "./extract";
import { mergePdf } from "./merge";
import { imagePdf, imagePdfOcr, imagePdfStreamed } from "./from-images";
import { ocrPdf } from "./ocr";
import { ocrPdfNative } from "./ocr-native";
import { pdfOptimize } from "./optimize";
import { pdfA } from "./pdfa";
import { pdfX } from "./pdfx";
import { convertPdfToImage } from "./rasterize";
import { pdfResave } from "./resave";
import { rotatePages } from "./rotate";
import { splitPages } from "./split";
import { pdfThumbnail } from "./thumbnail";
import { watermarkPdf } from "./watermark";

export {
  convertPdfToImage,
  decryptPdf,
  encryptPdf,
  extractPages,
  mergePdf,
  pdfThumbnail,
  rotatePages,
  splitPages,
  watermarkPdf,
};

/** The PDF rows. */
export const PDF_HANDLERS: OperationHandler[] = [
  mergePdf,
  splitPages,
  extractPages,
  rotatePages,
  encryptPdf,
  decryptPdf,
  watermarkPdf,
  convertPdfToImage,
  pdfThumbnail,
  // pdf → pdf: a re-save, with pages and pdf_a (issue 31)
  pdfResave,
  // Ghostscript in the native engine (issue 12)
  pdfA,
  pdfX,
  pdfOptimize,
  // tesseract (WebAssembly, native for other languages), issue 17
  ocrPdf,
  // issue 49: whole PDFs the page-by-page OCR cannot hold, by the native OCRmyPDF (a fallback: after ocrPdf's rows)
  ocrPdfNative,
  // image → pdf, searchable with `ocr` (issue 17)
  imagePdf,
  imagePdfOcr,
  imagePdfStreamed,
];
