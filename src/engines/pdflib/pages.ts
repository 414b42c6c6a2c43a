/**
 * Page operations on pdf-lib documents: building a new document from pages of a source (split,
 * extract) with its document structure (structure.ts) and document info (info.ts), and turning
 * pages (rotate).
 */
import { degrees, type PDFDocument } from "@cantoo/pdf-lib";
import { resolvePageSet } from "../kinds/pdf-pages";
import { copyInfo } from "./info";
import { DocumentBuilder, type AddOptions, type StructureReport } from "./structure";
import type { SourceIndex } from "./structure-source";

/**
 * A new document of pages `pages` (1-based, in that order) of `src`, carrying its document info and
 * the structure of those pages; `dropped` says what could not be kept (structure.ts).
 */
export async function copyToNew(
  src: SourceIndex,
  pages: number[],
  opts?: AddOptions,
): Promise<{ doc: PDFDocument; dropped: StructureReport }> {
  const builder = await DocumentBuilder.create();
  builder.addPages(src, pages, opts);
  const doc = builder.finish();
  copyInfo(src.doc, doc);
  return { doc, dropped: builder.dropped };
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
