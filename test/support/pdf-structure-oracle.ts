/**
 * qpdf as the oracle of a PDF's document structure (issue 16): outlines with the page each one
 * points at, AcroForm fields with their values and pages, annotations by page and subtype, named
 * destinations, embedded files and the catalog's XMP — all read from `qpdf --json` (JSON v2,
 * qpdf 11), never from our own code.
 */
import { spawnSync } from "node:child_process";

/** One outline item: `page` is its destination page (1-based; named destinations resolved through the file's own name tables), null when it points at no page of this file. */
export interface OutlineItem {
  title: string;
  page: number | null;
  depth: number;
}

/** What qpdf reports about one file. */
export interface PdfStructure {
  pages: number;
  /** Pre-order walk of the outline tree. */
  outlines: OutlineItem[];
  /** AcroForm fields by fully qualified name → [field type, value (as qpdf prints it), 1-based page]. */
  fields: { name: string; type: string; value: unknown; page: number }[];
  /** Annotation subtypes per page, e.g. [["/Link", "/Widget"], []]. */
  annotations: string[][];
  /** Link annotations whose destination is a page of this file, by [from page, to page]. */
  links: [number, number][];
  /** Link annotations whose destination is not a page of this file (dangling) — a defect when > 0. */
  danglingLinks: number;
  /** Names of the embedded files (attachments). */
  attachments: string[];
  /** Named destinations → 1-based page, null when the name resolves to no page. */
  namedDests: Record<string, number | null>;
  /** Whether the catalog has an XMP /Metadata stream. */
  xmp: boolean;
  /** Number of page objects in the file, counted over all objects (orphan pages show up as pages < pageObjects). */
  pageObjects: number;
}

/** A PDF dictionary as `qpdf --json` writes it: "/Key" → a value ("N 0 R" references unresolved). */
type PdfDict = Record<string, unknown>;

/** One outline item of `qpdf --json`: its object, title and children. */
interface QpdfOutline {
  object: string;
  title: string;
  kids: QpdfOutline[];
}

/** The parts of `qpdf --json` (JSON v2) read here. */
interface QpdfJson {
  qpdf: [unknown, Record<string, { value?: unknown; stream?: { dict: PdfDict } }>];
  pages: { object: string }[];
  outlines: QpdfOutline[];
  acroform?: { fields: { fullname: string; fieldtype: string; value: unknown; pageposfrom1: number }[] };
  attachments?: Record<string, unknown>;
}

/** Runs `qpdf --json` on `file` (with `password` for an encrypted one); qpdf's exit 3 (warnings) still answers. */
export function qpdfJson(file: string, password?: string): QpdfJson {
  const r = spawnSync("qpdf", ["--json", ...(password ? [`--password=${password}`] : []), file], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0 && r.status !== 3) throw new Error(`qpdf --json ${file}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** The structure of `file` as qpdf sees it. */
export function pdfStructure(file: string, password?: string): PdfStructure {
  const json = qpdfJson(file, password);
  const objects = json.qpdf[1];
  const lookup = (v: unknown): unknown => {
    if (typeof v === "string" && / R$/.test(v)) {
      const o = objects[`obj:${v}`];
      return o ? (o.value ?? o.stream?.dict) : null;
    }
    return v;
  };
  /** `lookup`'s answer when it is a dictionary (or a stream's), else null. */
  const dictOf = (v: unknown): PdfDict | null => {
    const d = lookup(v);
    return d && typeof d === "object" && !Array.isArray(d) ? (d as PdfDict) : null;
  };
  const pageRefs: string[] = json.pages.map((p) => p.object);
  const pageOf = (ref: unknown): number | null => {
    const i = typeof ref === "string" ? pageRefs.indexOf(ref) : -1;
    return i < 0 ? null : i + 1;
  };
  const namedDests: Record<string, number | null> = {};
  const catalog = dictOf((objects["trailer"]!.value as PdfDict)["/Root"]);
  const destArray = (d: unknown): unknown[] | null => {
    const v = lookup(d);
    if (Array.isArray(v)) return v;
    if (v && typeof v === "object" && "/D" in v) return lookup((v as PdfDict)["/D"]) as unknown[] | null;
    return null;
  };
  const collectTree = (node: PdfDict | null, into: (name: string, value: unknown) => void) => {
    if (!node) return;
    const names = lookup(node["/Names"]);
    if (Array.isArray(names))
      for (let i = 0; i + 1 < names.length; i += 2) into(decodeString(names[i]) ?? String(names[i]), names[i + 1]);
    const kids = lookup(node["/Kids"]);
    if (Array.isArray(kids)) for (const k of kids) collectTree(dictOf(k), into);
  };
  const nameDict = dictOf(catalog?.["/Names"]);
  collectTree(dictOf(nameDict?.["/Dests"]), (name, value) => {
    namedDests[name] = pageOf(destArray(value)?.[0]);
  });
  const oldDests = lookup(catalog?.["/Dests"]);
  if (oldDests && typeof oldDests === "object")
    for (const [k, v] of Object.entries(oldDests)) namedDests[k.slice(1)] = pageOf(destArray(v)?.[0]);

  /** The page an outline item or link points at (/Dest, or a GoTo action's /D; named destinations resolved), null for none; undefined when it has no destination. */
  const targetOf = (dict: PdfDict): number | null | undefined => {
    const action = dictOf(dict["/A"]);
    const dest = dict["/Dest"] ?? (action?.["/S"] === "/GoTo" ? action["/D"] : undefined);
    if (dest === undefined) return undefined;
    const named = typeof dest === "string" && !/ R$/.test(dest) ? (decodeString(dest) ?? dest) : undefined;
    return named !== undefined ? (namedDests[named] ?? null) : pageOf(destArray(dest)?.[0]);
  };
  const outlines: OutlineItem[] = [];
  const walk = (items: QpdfOutline[], depth: number) => {
    for (const o of items) {
      const dict = dictOf(o.object) ?? {};
      outlines.push({ title: decodeString(dict["/Title"]) ?? o.title, page: targetOf(dict) ?? null, depth });
      walk(o.kids, depth + 1);
    }
  };
  walk(json.outlines, 0);

  const annotations: string[][] = [];
  const links: [number, number][] = [];
  let danglingLinks = 0;
  json.pages.forEach((p, i) => {
    const kinds: string[] = [];
    const annots = lookup(dictOf(p.object)?.["/Annots"]);
    for (const a of Array.isArray(annots) ? annots : []) {
      const dict = dictOf(a) ?? {};
      kinds.push(dict["/Subtype"] as string);
      if (dict["/Subtype"] !== "/Link") continue;
      const target = targetOf(dict);
      if (target === undefined) continue;
      if (target === null) danglingLinks++;
      else links.push([i + 1, target]);
    }
    annotations.push(kinds);
  });

  const fields = (json.acroform?.fields ?? []).map((f) => ({
    name: f.fullname,
    type: f.fieldtype,
    value: f.value,
    page: f.pageposfrom1,
  }));
  let pageObjects = 0;
  for (const o of Object.values(objects)) {
    const v = (o.value ?? o.stream?.dict) as PdfDict | undefined;
    if (v && typeof v === "object" && v["/Type"] === "/Page") pageObjects++;
  }
  return {
    pages: pageRefs.length,
    outlines,
    fields,
    annotations,
    links,
    danglingLinks,
    attachments: Object.keys(json.attachments ?? {}),
    namedDests,
    xmp: Boolean(catalog?.["/Metadata"]),
    pageObjects,
  };
}

/** qpdf JSON v2 strings: "u:text" (Unicode), "b:hex" (binary), "/Name" for names; answers the text. */
function decodeString(v: unknown): string | undefined {
  if (typeof v !== "string") return undefined;
  if (v.startsWith("u:")) return v.slice(2);
  if (v.startsWith("b:")) return Buffer.from(v.slice(2), "hex").toString("latin1");
  if (v.startsWith("/")) return v.slice(1);
  return v;
}
