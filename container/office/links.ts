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
import { open, type FileHandle } from "node:fs/promises";
import { basename } from "node:path";
import {
  ZipMemberTooLarge,
  ZipUnreadable,
  bytesSource,
  editZipText,
  withFileSource,
  type ZipSource,
} from "../lib/zip-edit.ts";

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
 * The largest text document (RTF, flat ODF, HTML) whose links are cut, bytes: its references are found in its whole
 * text, so it is read whole (a zipped document is not: only its XML members are). Under V8's longest string (2^29 - 24
 * characters), with room for the edited copy beside it.
 */
export const MAX_TEXT_LINK_BYTES = 256 * 1024 * 1024;

/** A document whose links could not be checked, so it must not be opened: `code` says why (task error vocabulary). */
export class LinksUnchecked extends Error {
  readonly code: "OPEN_FAILED" | "OVER_BUDGET";
  constructor(code: "OPEN_FAILED" | "OVER_BUDGET", message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * Writes to `sink` the document in `src` (named `filename`) with its outside references cut (see the file's comment),
 * or nothing when there was nothing to cut; answers how many references were cut. A zip is read by its directory and
 * its XML members only (zip-edit.ts), every other member copied a chunk at a time; a text document is read whole.
 * @throws LinksUnchecked OPEN_FAILED (a zip whose directory does not parse, zip64 included) | OVER_BUDGET (a text
 *   document over MAX_TEXT_LINK_BYTES, an XML member over zip-edit's limit) | whatever `sink` throws
 */
async function cutFrom(filename: string, src: ZipSource, sink: (chunk: Uint8Array) => Promise<void>): Promise<number> {
  const first = await src.read(0, 4096);
  if (ZIP.every((b, i) => first[i] === b)) {
    let cut = 0;
    try {
      await editZipText(
        src,
        sink,
        (name) => /\.(xml|rels)$/i.test(name) && !/^META-INF\/manifest\.xml$/i.test(name),
        (name, text) => {
          const r = /\.rels$/i.test(name) ? cutOoxmlLinks(text) : cutOdfLinks(text);
          cut += r.cut;
          return r.text;
        },
      );
    } catch (err) {
      if (err instanceof ZipUnreadable)
        throw new LinksUnchecked(
          "OPEN_FAILED",
          `${filename} is a zip whose directory could not be read (${err.message}), so its links to outside files could not be checked.`,
        );
      if (err instanceof ZipMemberTooLarge) throw new LinksUnchecked("OVER_BUDGET", `${filename}: ${err.message}.`);
      throw err;
    }
    return cut;
  }
  const head = asText(first);
  const kind = /^\s*\{\\rtf/.test(head)
    ? cutRtfLinks
    : /<office:document\b/.test(head) || /\.fod[tsgp]$/i.test(filename)
      ? cutOdfLinks
      : /\.x?html?$/i.test(filename) || /<(!doctype html|html)\b/i.test(head)
        ? cutHtmlLinks
        : null;
  if (!kind) return 0;
  if (src.size > MAX_TEXT_LINK_BYTES)
    throw new LinksUnchecked(
      "OVER_BUDGET",
      `${filename} is ${src.size} bytes; a text document (RTF, flat ODF, HTML) is read whole to cut its links to ` +
        `outside files, up to ${MAX_TEXT_LINK_BYTES} bytes.`,
    );
  const r = kind(asText(await src.read(0, src.size)));
  if (r.cut) await sink(asBytes(r.text));
  return r.cut;
}

/**
 * `data` (a document named `filename`) with its outside references cut (see the file's comment); `data: null` when
 * there was nothing to cut.
 * @throws LinksUnchecked (see {@link cutExternalLinksInFile})
 */
export async function cutExternalLinks(filename: string, data: Uint8Array): Promise<CutLinks> {
  const chunks: Uint8Array[] = [];
  const cut = await cutFrom(filename, bytesSource(data), async (c) => void chunks.push(c.slice()));
  return { data: cut ? new Uint8Array(Buffer.concat(chunks)) : null, cut };
}

/**
 * The document at `path` with its outside references cut, written to `out` (created only when something was cut);
 * answers how many were cut (0: `out` was not written). Neither file is held whole unless it is a text document
 * (RTF, flat ODF, HTML, up to MAX_TEXT_LINK_BYTES): a zipped one is read by its directory and XML members and copied
 * a chunk at a time (issue 49).
 * @throws LinksUnchecked OPEN_FAILED (a zip whose directory does not parse) | OVER_BUDGET (a text document over
 *   MAX_TEXT_LINK_BYTES; an XML member over zip-edit's limit) | the file system's errors reading `path`, writing `out`
 */
export async function cutExternalLinksInFile(path: string, out: string): Promise<number> {
  let fh: FileHandle | undefined;
  try {
    return await withFileSource(path, (src) =>
      cutFrom(basename(path), src, async (chunk) => {
        fh ??= await open(out, "w");
        await fh.writeFile(chunk);
      }),
    );
  } finally {
    await fh?.close();
  }
}
