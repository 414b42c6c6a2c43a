/**
 * Document information (the trailer's /Info dictionary: Title, Author, Producer …) kept intact
 * through every page operation (issue 4). pdf-lib would otherwise rewrite Producer/ModDate on load
 * and create new documents without any of it.
 */
import { PDFDict, PDFName, type PDFDocument, type PDFObject } from "@cantoo/pdf-lib";

/** The /Info keys carried over (ISO 32000-1 §14.3.3, Table 317). */
const INFO_KEYS = [
  "Title",
  "Author",
  "Subject",
  "Keywords",
  "Creator",
  "Producer",
  "CreationDate",
  "ModDate",
  "Trapped",
];

/** The /Info dictionary of `doc`, or undefined when the document has none. */
function infoDict(doc: PDFDocument): PDFDict | undefined {
  const ref = doc.context.trailerInfo.Info;
  if (!ref) return undefined;
  const dict = doc.context.lookup(ref);
  return dict instanceof PDFDict ? dict : undefined;
}

/**
 * Copies the document information entries of `from` into `to` (same values, same string encoding),
 * creating `to`'s /Info dictionary when needed. Entries absent from `from` are left untouched.
 */
export function copyInfo(from: PDFDocument, to: PDFDocument): void {
  const src = infoDict(from);
  if (!src) return;
  const entries: [PDFName, PDFObject][] = [];
  for (const key of INFO_KEYS) {
    const value = src.lookup(PDFName.of(key));
    if (value !== undefined && !(value instanceof PDFDict)) entries.push([PDFName.of(key), value.clone(to.context)]);
  }
  if (entries.length === 0) return;
  let dst = infoDict(to);
  if (!dst) {
    dst = to.context.obj({});
    to.context.trailerInfo.Info = to.context.register(dst);
  }
  for (const [k, v] of entries) dst.set(k, v);
}
