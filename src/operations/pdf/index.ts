/**
 * The PDF operation family: registry rows for merge, pdf/split-pages, pdf/extract-pages,
 * pdf/rotate-pages, pdf/encrypt, pdf/decrypt and watermark (engine "pdflib": @cantoo/pdf-lib, pure
 * JS), and convert/thumbnail from PDF to png|jpg|webp (engine "pdfium": PDFium WASM, needs
 * `ctx.engines.pdfium`; jpg/webp also `ctx.engines.imagemagick`). The registry lists PDF_HANDLERS
 * explicitly (DESIGN.md principle 1).
 */
import type { OperationHandler } from "../types";
import { decryptPdf } from "./decrypt";
import { encryptPdf } from "./encrypt";
import { extractPages } from "./extract";
import { mergePdf } from "./merge";
import { convertPdfToImage } from "./rasterize";
import { rotatePages } from "./rotate";
import { splitPages } from "./split";
import { pdfThumbnail } from "./thumbnail";
import { watermarkPdf } from "./watermark";

export { convertPdfToImage, decryptPdf, encryptPdf, extractPages, mergePdf, pdfThumbnail, rotatePages, splitPages, watermarkPdf };

/** The PDF rows, in routing priority order within each operation. */
export const PDF_HANDLERS: OperationHandler<any>[] = [mergePdf, splitPages, extractPages, rotatePages, encryptPdf, decryptPdf, watermarkPdf, convertPdfToImage, pdfThumbnail];
