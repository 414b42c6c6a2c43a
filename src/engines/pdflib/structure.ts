/**
 * Building a PDF from pages of one or more source PDFs while keeping their document structure
 * (issue 16): for the pages kept, the link and other annotations (a link to a page that is not in
 * the output is removed), the AcroForm fields with their values (the field tree pruned to the
 * widgets kept; root names that collide on merge renamed "name+1" as qpdf does), the outline items
 * pointing at kept pages (re-targeted; an item whose page is gone stays as a heading when it has
 * kept children), named destinations that still resolve, embedded files (merge and extract; not on
 * split, where every part would carry them), the XMP metadata, optional content and viewer
 * preferences of the first source. What it cannot keep is counted in {@link DocumentBuilder.dropped}.
 *
 * Why not pdf-lib's copyPages alone: it copies a page's annotations deeply, so a link or a form
 * widget drags in the pages it refers to (whole orphan page trees in every split part), while the
 * catalog's outlines, AcroForm and names are not copied at all. Here one PDFObjectCopier per
 * source is seeded with the new references of the kept pages (and of the pruned field nodes), and
 * the references of every other page map to null, so nothing outside the selection is copied.
 * References: ISO 32000-1 §12.3.2 (destinations), §12.3.3 (outlines), §12.7 (interactive forms),
 * §7.9.6 (name trees).
 */
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFObjectCopier,
  PDFPage,
  PDFRef,
  PDFString,
  type PDFObject,
} from "@cantoo/pdf-lib";
import { get, MAX_TREE_DEPTH, nameTreeEntries, SourceIndex, textOf } from "./structure-source";

/**
 * What an output could not keep, by kind → count (absent = nothing lost): `links` to pages not in
 * the output, `outline_items` pointing at such pages, `named_destinations` likewise, `attachments`
 * (split), `xfa` (the XFA form packet: the AcroForm fields are kept, the XFA layout is not),
 * `structure_tree` (tagged-PDF structure), `javascript` (document-level scripts), `page_labels`,
 * `article_threads`, `signatures_invalidated` (signed fields kept, their signatures no longer
 * cover the document).
 */
export type StructureReport = Partial<Record<DropKind, number>>;

type DropKind =
  | "links"
  | "outline_items"
  | "named_destinations"
  | "attachments"
  | "xfa"
  | "structure_tree"
  | "javascript"
  | "page_labels"
  | "article_threads"
  | "signatures_invalidated";

/** Options of {@link DocumentBuilder.addPages}. */
export interface AddOptions {
  /** Copy the source's embedded files (default true). */
  attachments?: boolean;
}

interface OutlineNode {
  title: PDFObject;
  dest?: PDFObject;
  action?: PDFObject;
  open: boolean;
  color?: PDFObject;
  flags?: PDFObject;
  kids: OutlineNode[];
}

/** Catalog entries copied from the first source as they are. */
const CATALOG_KEYS = ["Metadata", "OCProperties", "ViewerPreferences", "PageLayout", "PageMode", "Lang", "Extensions"];

/** Builds one output document; `addPages` once per source (merge) or once (split part, extract), then `finish`. */
export class DocumentBuilder {
  readonly dropped: StructureReport = {};
  private readonly outline: OutlineNode[] = [];
  private readonly fields: PDFRef[] = [];
  private readonly fieldNames = new Set<string>();
  private acroForm?: PDFDict;
  private readonly dests = new Map<string, PDFObject>();
  private readonly files = new Map<string, PDFObject>();
  private catalogTaken = false;

  private constructor(readonly out: PDFDocument) {}

  /** A builder over a new empty document (no metadata rewritten by pdf-lib). */
  static async create(): Promise<DocumentBuilder> {
    return new DocumentBuilder(await PDFDocument.create({ updateMetadata: false }));
  }

  private drop(kind: DropKind, n = 1): void {
    if (n > 0) this.dropped[kind] = (this.dropped[kind] ?? 0) + n;
  }

  /** Appends pages `pages` (1-based, in this order; a page may repeat) of `src`, with the structure that belongs to them. */
  addPages(src: SourceIndex, pages: number[], opts: AddOptions = {}): void {
    const { doc } = src;
    const ctx = this.out.context;
    const copier = PDFObjectCopier.for(doc.context, ctx);
    // The copier's memo (private in pdf-lib's typings): seeded so kept pages map to the refs given here and others to null.
    const memo = (copier as unknown as { traversedObjects: Map<PDFObject, PDFObject> }).traversedObjects;
    const kept = new Map<number, PDFRef>();
    for (const p of pages) {
      if (kept.has(p - 1)) continue;
      const ref = ctx.nextRef();
      kept.set(p - 1, ref);
      memo.set(src.pageRefs[p - 1], ref);
    }
    src.pageRefs.forEach((ref, i) => kept.has(i) || memo.set(ref, PDFNull));

    const rewritten: [PDFRef, PDFDict][] = [];
    const widgets: PDFRef[] = [];
    const annots = new Map<number, PDFArray | undefined>();
    const srcPages = doc.getPages();
    for (const i of kept.keys())
      annots.set(i, this.keptAnnotations(src, srcPages[i].node, kept, memo, rewritten, widgets));
    const fieldNodes = seedFieldNodes(doc, widgets, memo, ctx);

    const firstUse = new Set<number>();
    for (const p of pages) {
      const node = srcPages[p - 1].node.clone();
      const list = annots.get(p - 1);
      if (list && list.size() > 0) node.set(PDFName.of("Annots"), list);
      else node.delete(PDFName.of("Annots"));
      const copied = copier.copy(node);
      let ref = kept.get(p - 1)!;
      if (firstUse.has(p - 1)) ref = ctx.register(copied);
      else ctx.assign(ref, copied);
      firstUse.add(p - 1);
      this.out.addPage(PDFPage.of(copied, ref, this.out));
    }
    for (const [ref, dict] of rewritten) ctx.assign(memo.get(ref) as PDFRef, copier.copy(dict));
    this.copyFields(src, fieldNodes, widgets, memo, copier);
    this.outline.push(...this.readOutline(src, get(get(doc.catalog, "Outlines"), "First"), kept, copier, 0));
    this.copyNames(src, kept, copier, opts.attachments ?? true);
    this.copyCatalog(src, kept, copier);
  }

  /** The annotations of `page` to keep, as a new array in the source's context; links to pages not kept are left out. */
  private keptAnnotations(
    src: SourceIndex,
    page: PDFDict,
    kept: Map<number, PDFRef>,
    memo: Map<PDFObject, PDFObject>,
    rewritten: [PDFRef, PDFDict][],
    widgets: PDFRef[],
  ): PDFArray | undefined {
    const list = get(page, "Annots");
    if (!(list instanceof PDFArray)) return undefined;
    const keep: PDFObject[] = [];
    for (let k = 0; k < list.size(); k++) {
      const raw = list.get(k);
      const dict = raw instanceof PDFRef ? src.doc.context.lookup(raw) : raw;
      if (!(dict instanceof PDFDict)) continue;
      if (get(dict, "Subtype") === PDFName.of("Widget") && raw instanceof PDFRef) widgets.push(raw);
      const dest = SourceIndex.destOf(dict);
      const target = dest === undefined ? undefined : src.resolve(dest);
      if (!target) {
        keep.push(raw); // no destination, another action, or one that named no page even in the source: as it was
        continue;
      }
      if (!kept.has(target.page)) {
        this.drop("links");
        continue;
      }
      if (dest instanceof PDFArray) {
        keep.push(raw);
        continue;
      }
      // A named or action destination becomes the explicit array, so it resolves whatever names the output keeps.
      const copy = dict.clone();
      copy.set(PDFName.of("Dest"), target.array);
      copy.delete(PDFName.of("A"));
      if (raw instanceof PDFRef) {
        memo.set(raw, this.out.context.nextRef());
        rewritten.push([raw, copy]);
        keep.push(raw);
      } else keep.push(copy);
    }
    return src.doc.context.obj(keep);
  }

  /** Copies the pruned field tree of the kept widgets and gathers its roots and the AcroForm entries. */
  private copyFields(
    src: SourceIndex,
    nodes: Map<PDFRef, Set<PDFRef>>,
    widgets: PDFRef[],
    memo: Map<PDFObject, PDFObject>,
    copier: PDFObjectCopier,
  ): void {
    if (widgets.length === 0) return;
    const ctx = this.out.context;
    for (const [ref, kids] of nodes) {
      const dict = src.doc.context.lookup(ref);
      if (!(dict instanceof PDFDict)) continue;
      const copy = dict.clone();
      const all = get(dict, "Kids");
      const order =
        all instanceof PDFArray
          ? all.asArray().filter((k): k is PDFRef => k instanceof PDFRef && kids.has(k))
          : [...kids];
      copy.set(PDFName.of("Kids"), src.doc.context.obj(order));
      ctx.assign(memo.get(ref) as PDFRef, copier.copy(copy));
    }
    // Roots: nodes without a parent, in the order of the source's /Fields, then any others.
    const form = get(src.doc.catalog, "AcroForm");
    const listed = get(form, "Fields");
    const listedRefs = listed instanceof PDFArray ? listed.asArray() : [];
    // A widget without a parent is a root field when it is one (listed, or it has a field type), not a bare widget.
    const isRoot = (ref: PDFRef) => {
      const d = src.doc.context.lookup(ref) as PDFDict;
      return (
        !d.get(PDFName.of("Parent")) && (nodes.has(ref) || listedRefs.includes(ref) || Boolean(d.get(PDFName.of("FT"))))
      );
    };
    const candidates = new Set<PDFRef>([...nodes.keys(), ...widgets].filter(isRoot));
    const roots = listedRefs.filter((r): r is PDFRef => r instanceof PDFRef && candidates.has(r));
    for (const r of candidates) if (!roots.includes(r)) roots.push(r);
    for (const r of roots) {
      const newRef = memo.get(r);
      if (!(newRef instanceof PDFRef)) continue;
      this.renameOnCollision(ctx.lookup(newRef));
      this.fields.push(newRef);
    }
    let signed = 0;
    for (const ref of [...nodes.keys(), ...widgets]) {
      const d = src.doc.context.lookup(ref);
      if (get(d, "FT") === PDFName.of("Sig") && get(d, "V")) signed++;
    }
    this.drop("signatures_invalidated", signed);
    if (!(form instanceof PDFDict)) {
      this.acroForm ??= ctx.obj({});
      return;
    }
    if (get(form, "XFA")) this.drop("xfa");
    if (!this.acroForm) {
      this.acroForm = ctx.obj({});
      for (const key of ["DA", "DR", "NeedAppearances", "SigFlags", "Q"]) {
        const v = form.get(PDFName.of(key));
        if (v) this.acroForm.set(PDFName.of(key), copier.copy(v));
      }
      return;
    }
    // A later source's default resources: its fonts join the first source's, names already taken are left as they are.
    const fonts = get(get(form, "DR"), "Font");
    let dr = get(this.acroForm, "DR");
    if (!(fonts instanceof PDFDict)) return;
    if (!(dr instanceof PDFDict)) this.acroForm.set(PDFName.of("DR"), (dr = ctx.obj({})));
    let into = get(dr, "Font");
    if (!(into instanceof PDFDict)) (dr as PDFDict).set(PDFName.of("Font"), (into = ctx.obj({})));
    for (const [name, value] of fonts.entries())
      if (!(into as PDFDict).has(name)) (into as PDFDict).set(name, copier.copy(value));
  }

  /** A root field whose name is taken by an earlier source's is renamed "name+1", "name+2" … (qpdf's rule). */
  private renameOnCollision(field: PDFObject | undefined): void {
    if (!(field instanceof PDFDict)) return;
    const name = textOf(get(field, "T"));
    if (name === undefined) return;
    let unique = name;
    for (let n = 1; this.fieldNames.has(unique); n++) unique = `${name}+${n}`;
    if (unique !== name) field.set(PDFName.of("T"), pdfText(unique));
    this.fieldNames.add(unique);
  }

  /** The outline items (siblings from `first`) that point at kept pages, or head kept ones, as new nodes. */
  private readOutline(
    src: SourceIndex,
    first: PDFObject | undefined,
    kept: Map<number, PDFRef>,
    copier: PDFObjectCopier,
    depth: number,
  ): OutlineNode[] {
    const items: OutlineNode[] = [];
    const seen = new Set<PDFObject>();
    for (
      let node = first;
      node instanceof PDFDict && !seen.has(node) && seen.size < 100_000;
      node = get(node, "Next")
    ) {
      seen.add(node);
      const kids = depth < MAX_TREE_DEPTH ? this.readOutline(src, get(node, "First"), kept, copier, depth + 1) : [];
      const dest = SourceIndex.destOf(node);
      const target = dest === undefined ? undefined : src.resolve(dest);
      const action = dest === undefined ? node.get(PDFName.of("A")) : undefined;
      if (dest !== undefined && !(target && kept.has(target.page)) && kids.length === 0) {
        this.drop("outline_items");
        continue;
      }
      const count = get(node, "Count");
      items.push({
        title: copier.copy(node.get(PDFName.of("Title")) ?? PDFString.of("")),
        dest: target && kept.has(target.page) ? copier.copy(target.array) : undefined,
        action: action ? copier.copy(action) : undefined,
        open: count instanceof PDFNumber && count.asNumber() > 0,
        color: node.get(PDFName.of("C")) && copier.copy(node.get(PDFName.of("C"))!),
        flags: node.get(PDFName.of("F")) && copier.copy(node.get(PDFName.of("F"))!),
        kids,
      });
    }
    return items;
  }

  /** Named destinations to kept pages and (when asked) embedded files; later sources' colliding names get "+n". */
  private copyNames(src: SourceIndex, kept: Map<number, PDFRef>, copier: PDFObjectCopier, attachments: boolean): void {
    for (const [name, array] of src.namedDests) {
      const target = src.resolve(array);
      if (target && kept.has(target.page)) this.dests.set(uniqueKey(this.dests, name), copier.copy(array));
      else this.drop("named_destinations");
    }
    const files = nameTreeEntries(get(get(src.doc.catalog, "Names"), "EmbeddedFiles"));
    if (!attachments) this.drop("attachments", files.length);
    else for (const [name, spec] of files) this.files.set(uniqueKey(this.files, name), copier.copy(spec));
  }

  /** The first source's catalog entries (XMP, optional content, viewer settings, an open action to a kept page); what is not carried is counted. */
  private copyCatalog(src: SourceIndex, kept: Map<number, PDFRef>, copier: PDFObjectCopier): void {
    const catalog = src.doc.catalog;
    const names = get(catalog, "Names");
    if (get(catalog, "StructTreeRoot")) this.drop("structure_tree");
    if (get(names, "JavaScript") || get(catalog, "AA")) this.drop("javascript");
    if (get(catalog, "PageLabels")) this.drop("page_labels");
    if (get(catalog, "Threads")) this.drop("article_threads");
    if (this.catalogTaken) return;
    this.catalogTaken = true;
    for (const key of CATALOG_KEYS) {
      const v = catalog.get(PDFName.of(key));
      if (v) this.out.catalog.set(PDFName.of(key), copier.copy(v));
    }
    const open = get(catalog, "OpenAction");
    const target =
      open instanceof PDFArray
        ? src.resolve(open)
        : open instanceof PDFDict
          ? src.resolve(SourceIndex.destOf(open))
          : undefined;
    if (target && kept.has(target.page)) this.out.catalog.set(PDFName.of("OpenAction"), copier.copy(target.array));
    else if (get(open, "S") === PDFName.of("JavaScript")) this.drop("javascript");
  }

  /** Writes the gathered outlines, AcroForm and name trees into the catalog and answers the document. */
  finish(): PDFDocument {
    const ctx = this.out.context;
    const catalog = this.out.catalog;
    if (this.outline.length > 0) {
      const root = ctx.obj({ Type: "Outlines" });
      const rootRef = ctx.register(root);
      const visible = writeOutline(this.out, this.outline, rootRef, root);
      root.set(PDFName.of("Count"), PDFNumber.of(visible));
      catalog.set(PDFName.of("Outlines"), rootRef);
    }
    if (this.fields.length > 0 && this.acroForm) {
      this.acroForm.set(PDFName.of("Fields"), ctx.obj(this.fields));
      catalog.set(PDFName.of("AcroForm"), ctx.register(this.acroForm));
    }
    const names = ctx.obj({});
    if (this.dests.size > 0) names.set(PDFName.of("Dests"), ctx.register(nameTree(this.out, this.dests)));
    if (this.files.size > 0) names.set(PDFName.of("EmbeddedFiles"), ctx.register(nameTree(this.out, this.files)));
    if (names.keys().length > 0) catalog.set(PDFName.of("Names"), ctx.register(names));
    return this.out;
  }
}

/**
 * Marks the ancestors of the kept widgets (via /Parent) as kept field nodes, each with the set of
 * its children to keep, and seeds the copier memo with a new reference for each, so copying a
 * widget never copies its full parent (whose /Kids reach widgets on other pages).
 */
function seedFieldNodes(
  doc: PDFDocument,
  widgets: PDFRef[],
  memo: Map<PDFObject, PDFObject>,
  ctx: PDFDocument["context"],
): Map<PDFRef, Set<PDFRef>> {
  const nodes = new Map<PDFRef, Set<PDFRef>>();
  for (const widget of widgets) {
    let child = widget;
    for (let depth = 0; depth < MAX_TREE_DEPTH; depth++) {
      const parent = (doc.context.lookup(child) as PDFDict | undefined)?.get(PDFName.of("Parent"));
      if (!(parent instanceof PDFRef) || !(doc.context.lookup(parent) instanceof PDFDict)) break;
      const kids = nodes.get(parent);
      if (kids) {
        kids.add(child);
        break; // its ancestors are marked already
      }
      nodes.set(parent, new Set([child]));
      memo.set(parent, ctx.nextRef());
      child = parent;
    }
  }
  return nodes;
}

/** Writes `items` as linked outline dictionaries under `parent`; answers the number of items visible (§12.3.3 /Count). */
function writeOutline(doc: PDFDocument, items: OutlineNode[], parentRef: PDFRef, parent: PDFDict): number {
  const ctx = doc.context;
  const refs = items.map(() => ctx.nextRef());
  let visible = 0;
  items.forEach((item, i) => {
    const dict = ctx.obj({});
    dict.set(PDFName.of("Title"), item.title);
    dict.set(PDFName.of("Parent"), parentRef);
    if (i > 0) dict.set(PDFName.of("Prev"), refs[i - 1]);
    if (i < items.length - 1) dict.set(PDFName.of("Next"), refs[i + 1]);
    if (item.dest) dict.set(PDFName.of("Dest"), item.dest);
    else if (item.action) dict.set(PDFName.of("A"), item.action);
    if (item.color) dict.set(PDFName.of("C"), item.color);
    if (item.flags) dict.set(PDFName.of("F"), item.flags);
    visible += 1;
    if (item.kids.length > 0) {
      const below = writeOutline(doc, item.kids, refs[i], dict);
      dict.set(PDFName.of("Count"), PDFNumber.of(item.open ? below : -below));
      if (item.open) visible += below;
    }
    ctx.assign(refs[i], dict);
  });
  if (refs.length > 0) {
    parent.set(PDFName.of("First"), refs[0]);
    parent.set(PDFName.of("Last"), refs[refs.length - 1]);
  }
  return visible;
}

/** A one-leaf name tree (§7.9.6) of `entries`, keys sorted. */
function nameTree(doc: PDFDocument, entries: Map<string, PDFObject>): PDFDict {
  const flat: PDFObject[] = [];
  for (const key of [...entries.keys()].sort()) flat.push(pdfText(key), entries.get(key)!);
  return doc.context.obj({ Names: doc.context.obj(flat) });
}

/** `name`, or "name+1", "name+2" … when `taken` has it. */
function uniqueKey(taken: Map<string, unknown>, name: string): string {
  let key = name;
  for (let n = 1; taken.has(key); n++) key = `${name}+${n}`;
  return key;
}

/** A PDF text string: literal for printable ASCII, UTF-16BE hex otherwise (§7.9.2.2). */
function pdfText(text: string): PDFString | PDFHexString {
  return /^[\x20-\x7e]*$/.test(text) ? PDFString.of(text.replace(/[\\()]/g, "\\$&")) : PDFHexString.fromText(text);
}
