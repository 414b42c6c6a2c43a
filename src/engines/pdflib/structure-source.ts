/**
 * Reading a source PDF's document structure once, for every output built from it (issue 16): its
 * page references, named destinations (the catalog's /Dests dictionary, PDF 1.1, and the /Names
 * /Dests name tree, PDF 1.2+; ISO 32000-1 §12.3.2.3), where a destination points (§12.3.2.2), and
 * small readers for dictionaries and name trees (§7.9.6) that never throw on malformed input.
 * Pure reads: nothing here changes the source, so split can build many parts from one index.
 */
import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRef,
  PDFString,
  type PDFDocument,
  type PDFObject,
} from "@cantoo/pdf-lib";

/** Deepest name tree / outline / field tree walked; deeper structures are treated as ending there (hostile nesting). */
export const MAX_TREE_DEPTH = 64;

/** The value of `key` in `dict`, indirect references resolved; undefined when absent or `dict` is not a dictionary. */
export function get(dict: PDFObject | undefined, key: string): PDFObject | undefined {
  return dict instanceof PDFDict ? dict.lookup(PDFName.of(key)) : undefined;
}

/** The text of a PDF string or name (UTF-16BE/PDFDocEncoding decoded), undefined for anything else. */
export function textOf(obj: PDFObject | undefined): string | undefined {
  if (obj instanceof PDFString || obj instanceof PDFHexString || obj instanceof PDFName) return obj.decodeText();
  return undefined;
}

/** The key → value pairs of a name tree (ISO 32000-1 §7.9.6), leaves in order; values are left unresolved. */
export function nameTreeEntries(root: PDFObject | undefined): [string, PDFObject][] {
  const out: [string, PDFObject][] = [];
  const seen = new Set<PDFObject>();
  const walk = (node: PDFObject | undefined, depth: number) => {
    if (!(node instanceof PDFDict) || seen.has(node) || depth > MAX_TREE_DEPTH) return;
    seen.add(node);
    const names = get(node, "Names");
    if (names instanceof PDFArray) {
      for (let i = 0; i + 1 < names.size(); i += 2) {
        const key = textOf(names.lookup(i));
        if (key !== undefined) out.push([key, names.get(i + 1)]);
      }
    }
    const kids = get(node, "Kids");
    if (kids instanceof PDFArray) for (let i = 0; i < kids.size(); i++) walk(kids.lookup(i), depth + 1);
  };
  walk(root, 0);
  return out;
}

/** A destination resolved to an explicit array: `page` is the 0-based index of the page it shows in this document. */
export interface ResolvedDest {
  array: PDFArray;
  page: number;
}

/** One source document's pages and destinations, indexed once. */
export class SourceIndex {
  /** Page object references in page order. */
  readonly pageRefs: PDFRef[];
  /** Page reference → 0-based index. */
  readonly pageIndex = new Map<PDFRef, number>();
  /** Named destinations by name → the explicit destination array (unresolved page reference inside). */
  readonly namedDests = new Map<string, PDFArray>();

  constructor(readonly doc: PDFDocument) {
    this.pageRefs = doc.getPages().map((p) => p.ref);
    this.pageRefs.forEach((ref, i) => this.pageIndex.set(ref, i));
    const catalog = doc.catalog;
    const oldStyle = get(catalog, "Dests");
    if (oldStyle instanceof PDFDict) {
      for (const [key, value] of oldStyle.entries()) {
        const arr = destArray(doc, value);
        if (arr) this.namedDests.set(key.decodeText(), arr);
      }
    }
    for (const [name, value] of nameTreeEntries(get(get(catalog, "Names"), "Dests"))) {
      const arr = destArray(doc, value);
      if (arr) this.namedDests.set(name, arr);
    }
  }

  /**
   * Where a destination (§12.3.2: explicit array, name, string, or a dictionary with /D) points in
   * this document; undefined when it names no page of it (a remote or broken destination).
   */
  resolve(dest: PDFObject | undefined): ResolvedDest | undefined {
    const obj = dest instanceof PDFRef ? this.doc.context.lookup(dest) : dest;
    const name = textOf(obj);
    const array = name !== undefined ? this.namedDests.get(name) : destArray(this.doc, obj);
    if (!array || array.size() === 0) return undefined;
    const target = array.get(0);
    const page =
      target instanceof PDFRef
        ? this.pageIndex.get(target)
        : target instanceof PDFNumber
          ? target.asNumber()
          : undefined;
    return page !== undefined && page >= 0 && page < this.pageRefs.length ? { array, page } : undefined;
  }

  /** The destination of an outline item or link annotation: /Dest, or /A of type GoTo (§12.6.4.2); undefined for other actions. */
  static destOf(dict: PDFDict): PDFObject | undefined {
    const dest = dict.get(PDFName.of("Dest"));
    if (dest) return dest;
    const action = get(dict, "A");
    return get(action, "S") === PDFName.of("GoTo") ? (action as PDFDict).get(PDFName.of("D")) : undefined;
  }
}

/** An explicit destination array from an array or a dictionary with /D; undefined otherwise. */
function destArray(doc: PDFDocument, value: PDFObject | undefined): PDFArray | undefined {
  const v = value instanceof PDFRef ? doc.context.lookup(value) : value;
  if (v instanceof PDFArray) return v;
  const d = get(v, "D");
  return d instanceof PDFArray ? d : undefined;
}
