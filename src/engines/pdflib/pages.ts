/**
 * Page operations on pdf-lib documents: copying pages into a new document (split, extract) and
 * turning pages (rotate), keeping the document info (info.ts).
 */
import { degrees, PDFDocument } from "@cantoo/pdf-lib";
import { resolvePageSet } from "../pdf/pages";
import { copyInfo } from "./info";

/** Copies pages `pages` (1-based, in that order) of `src` into a new document carrying `src`'s document info. */
export async function copyToNew(src: PDFDocument, pages: number[]): Promise<PDFDocument> {
  const out = await PDFDocument.create({ updateMetadata: false });
  const copied = await out.copyPages(src, pages.map((p) => p - 1));
  for (const page of copied) out.addPage(page);
  copyInfo(src, out);
  return out;
}

/**
 * Turns the pages of `spec` (all when absent) by `delta` degrees clockwise (0/90/180/270), relative
 * to their current /Rotate (ISO 32000-1 §7.7.3.3: /Rotate is clockwise).
 * @throws TaskError INVALID_PAGES for a page that does not exist
 */
export function rotateDoc(doc: PDFDocument, delta: number, spec: string | undefined, filename: string): void {
  const pages = doc.getPages();
  for (const n of resolvePageSet(spec, pages.length, filename)) {
    const page = pages[n - 1];
    // An invalid /Rotate (not a multiple of 90) is read the way viewers do: to the nearest quarter turn.
    const current = (((Math.round(page.getRotation().angle / 90) * 90) % 360) + 360) % 360;
    page.setRotation(degrees((current + delta) % 360));
  }
}
