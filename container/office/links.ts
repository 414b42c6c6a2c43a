/**
 * Links to files outside a document, cut before LibreOffice opens it (issue 45's sandbox; found 2026-11-29). An ODF
 * picture whose `xlink:href` is an absolute path or a `file:` URL is read and embedded by LibreOffice even with the
 * hardened profile (BlockUntrustedRefererLinks does not cover it): a 200×200 red PNG at a local path came out in the
 * PDF of a four-line .odg, through the native engine. A FIFO — the earlier probe — is not opened (LibreOffice reads
 * regular files only), so the egress sweep could not see it. Any file the engine can read (another call's input in
 * the work folder, the container's own files) could be put into an output that way.
 *
 * So every document LibreOffice opens (office/pool.ts, one place) passes here first, and every reference that would
 * make it load something from outside the document is emptied, the rest of the bytes unchanged:
 * - ODF, zipped or flat (`.fodt`…): `xlink:href` (under whatever prefix the document binds to the XLink namespace) of
 *   any element but a hyperlink (`text:a`, `draw:a`: followed only when clicked), when it names something outside
 *   the package — a URL scheme other than `vnd.sun.star.Package:`, an absolute or drive path, a `..` step, or an
 *   entity reference the check cannot read;
 * - OOXML: relationships with `TargetMode="External"` that are not hyperlinks (linked pictures, attached templates,
 *   sub-documents, external workbooks, OLE links);
 * - HTML: `src`, `href` (of `link`), `data`, `background` and `poster` naming `file:` or an absolute path;
 * - RTF: the path of INCLUDEPICTURE, INCLUDETEXT, IMPORT and LINK fields.
 * What a link showed is then missing from the output, as in a desktop office suite opening the file elsewhere.
 */
import { editZipText } from "../lib/zip-edit.ts";

/** What was cut from a document: the new bytes (null when nothing was) and how many references. */
export interface CutLinks {
  data: Uint8Array | null;
  cut: number;
}

const XLINK = "http://www.w3.org/1999/xlink";
/** Bytes as text one character a byte, and back: the edits touch ASCII only, every other byte is kept as it was. */
const asText = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("latin1");
const asBytes = (t: string) => new Uint8Array(Buffer.from(t, "latin1"));

/** The value of an XML attribute with its predefined and numeric character references read; null if it uses others. */
function xmlValue(raw: string): string | null {
  if (/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i.test(raw)) return null;
  return raw.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, r: string) => {
    const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
    if (named[r.toLowerCase()]) return named[r.toLowerCase()]!;
    const code = r[1] === "x" || r[1] === "X" ? parseInt(r.slice(2), 16) : parseInt(r.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : "";
  });
}

/** Whether a reference (already read) names something outside the document. */
export function isOutside(ref: string | null): boolean {
  if (ref === null) return true;
  const v = ref.trim().replace(/[\u0000-\u001f]/g, "");
  if (/^vnd\.sun\.star\.package:/i.test(v)) return false;
  return (
    /^[a-z][a-z0-9+.-]*:/i.test(v) || // a scheme (file:, http:, smb:, vnd.sun.star.expand:…) or a drive (C:)
    /^[\\/]/.test(v) || // an absolute or UNC path
    /(^|[\\/])\.\.([\\/]|$)/.test(v) // a step out of the package
  );
}

/**
 * ODF XML with every outside `xlink:href` of a non-hyperlink element emptied. Attributes are found in the whole text
 * (a value cannot hold its own quote), and each one's element is the name after the last `<` before it (a raw `<`
 * cannot occur inside an attribute value), so a `>` inside an earlier value does not hide an attribute.
 */
export function cutOdfLinks(xml: string): { text: string; cut: number } {
  const prefixes = new Set(["xlink"]);
  for (const m of xml.matchAll(/xmlns:([\w.-]+)\s*=\s*(["'])(.*?)\2/g)) if (m[3] === XLINK) prefixes.add(m[1]!);
  let cut = 0;
  const text = xml.replace(
    /(\s)([\w.-]+):href(\s*=\s*)(["'])([^"']*?)\4/g,
    (attr, sp: string, prefix: string, eq: string, q: string, value: string, at: number) => {
      if (!prefixes.has(prefix) || !isOutside(xmlValue(value))) return attr;
      const element = /^<([\w.:-]+)/.exec(xml.slice(xml.lastIndexOf("<", at)))?.[1] ?? "";
      if (/(^|:)a$/.test(element)) return attr; // a hyperlink: followed only when clicked
      cut++;
      return `${sp}${prefix}:href${eq}${q}${q}`;
    },
  );
  return { text, cut };
}

/** OOXML relationships with every external target that is not a hyperlink emptied. */
export function cutOoxmlLinks(rels: string): { text: string; cut: number } {
  let cut = 0;
  const text = rels.replace(/<([\w.-]+:)?Relationship\b[^<>]*>/g, (tag) => {
    if (!/\bTargetMode\s*=\s*(["'])External\1/i.test(tag)) return tag;
    if (/\bType\s*=\s*(["'])[^"']*\/hyperlink\1/i.test(tag)) return tag;
    return tag.replace(/\bTarget\s*=\s*(["'])(.*?)\1/, (attr, q: string, value: string) => {
      if (value === "") return attr;
      cut++;
      return `Target=${q}${q}`;
    });
  });
  return { text, cut };
}

/** HTML with every reference that loads a local file emptied. */
export function cutHtmlLinks(html: string): { text: string; cut: number } {
  let cut = 0;
  const text = html.replace(
    /(\s(?:src|data|background|poster|href|srcset)\s*=\s*)(["']?)([^"'\s>]*)\2/gi,
    (attr, name: string, q: string, value: string) => {
      const v = xmlValue(value) ?? value;
      if (!/^\s*file:/i.test(v) && !/^\s*[\\/]/.test(v) && !/^\s*[a-z]:[\\/]/i.test(v)) return attr;
      if (/href/i.test(name) && !/^\s*file:/i.test(v)) return attr; // a link's path is followed only when clicked
      cut++;
      return `${name}${q || '"'}${q || '"'}`;
    },
  );
  return { text, cut };
}

/**
 * RTF with the path of every field instruction that includes another file emptied: the field name within 200
 * characters after a `\fldinst` (groups and formatting words may come between), then its argument. A field name
 * split by RTF's own escapes or groups (`INCLUDE{}PICTURE`) is not recognised here.
 */
export function cutRtfLinks(rtf: string): { text: string; cut: number } {
  let cut = 0;
  const text = rtf.replace(
    /(\\fldinst[^"]{0,200}?)\b(INCLUDEPICTURE|INCLUDETEXT|IMPORT|LINK)(\s+)("[^"]*"|[^\s}]+)/g,
    (_m, before: string, field: string, sp: string) => {
      cut++;
      return `${before}${field}${sp}""`;
    },
  );
  return { text, cut };
}

const ZIP = [0x50, 0x4b, 0x03, 0x04];

/**
 * `data` (a document named `filename`) with its outside references cut (see the file's comment); `data: null` when
 * there was nothing to cut. Never throws: a document it cannot read is LibreOffice's to refuse.
 */
export function cutExternalLinks(filename: string, data: Uint8Array): CutLinks {
  if (ZIP.every((b, i) => data[i] === b)) {
    let cut = 0;
    const out = editZipText(
      data,
      (name) => /\.(xml|rels)$/i.test(name) && !/^META-INF\/manifest\.xml$/i.test(name),
      (name, text) => {
        const r = /\.rels$/i.test(name) ? cutOoxmlLinks(text) : cutOdfLinks(text);
        cut += r.cut;
        return r.text;
      },
    );
    return { data: out, cut };
  }
  const head = asText(data.subarray(0, 4096));
  let r: { text: string; cut: number } | null = null;
  if (/^\s*\{\\rtf/.test(head)) r = cutRtfLinks(asText(data));
  else if (/<office:document\b/.test(head) || /\.fod[tsgp]$/i.test(filename)) r = cutOdfLinks(asText(data));
  else if (/\.x?html?$/i.test(filename) || /<(!doctype html|html)\b/i.test(head)) r = cutHtmlLinks(asText(data));
  if (!r || r.cut === 0) return { data: null, cut: 0 };
  return { data: asBytes(r.text), cut: r.cut };
}
