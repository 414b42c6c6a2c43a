/**
 * DjVu (issue 32) by DjVuLibre 3.5 (Debian's djvulibre-bin): djvu → pdf (ddjvu -format=pdf, each page an image at the
 * page's own resolution, so page sizes are the DjVu's; the hidden text layer is not carried over), djvu → png/jpg one
 * file per page (ddjvu -format=tiff, then ImageMagick), djvu → djvu a bundled re-save (djvmcvt -b). Kind office
 * (convert), as the Worker's row "djvulibre" takes it.
 *
 * An indirect multi-page DjVu (pages as separate files the document names by path) is UNSUPPORTED, unopened: nothing
 * beside the input is read. Before rendering, djvused lists every page's size: a file that is not a DjVu is OPEN_FAILED, one whose pages
 * declare more than MAX_PAGE_PIXELS (a decompression bomb: a few bytes of JB2 can declare 32767 × 32767) is
 * OVER_BUDGET, unrendered. Every run has the call's time and memory limits (run.ts).
 *
 * Issue 49: the engine takes files — a framed call's DjVu (over NATIVE_MAX_BYTES, up to NATIVE_DJVU_MAX_BYTES) reaches
 * it as a file in the call's folder, of which only the first bytes are read here (the signature and the DIRM flag),
 * and every output (the PDF, each page's image, the re-save) is answered as a file of the folder, streamed back on a
 * framed call.
 */
import { readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { DJVU_OUTPUTS, type OfficeRequest } from "../../native-protocol/office.ts";
import {
  NativeError,
  check,
  fileOf,
  head,
  localFile,
  place,
  run,
  tool,
  why,
  type NativeCall,
  type NativeEngineDef,
} from "./common.ts";

/** The most pixels one page may declare (width × height at its own resolution): 600 dpi A3 is ~70 million. */
export const MAX_PAGE_PIXELS = 150_000_000;
/** The most pages a DjVu may have. */
export const MAX_PAGES = 2000;

/** "AT&TFORM" then DJVU (single page) or DJVM (bundled/indirect document). */
function isDjvu(data: Uint8Array): boolean {
  const head = new TextDecoder("latin1").decode(data.subarray(0, 16));
  return head.startsWith("AT&TFORM") && /^DJV[UM]$/.test(head.slice(12, 16));
}

/**
 * True for an indirect multi-page DjVu: FORM:DJVM whose DIRM chunk (first in the form) has the bundled bit (0x80 of its
 * first byte) clear — its pages are separate files named in the directory, which DjVuLibre would open beside the input
 * (any path the file names). Only bundled documents are read.
 */
export function isIndirectDjvu(data: Uint8Array): boolean {
  const at = (i: number, s: string) => new TextDecoder("latin1").decode(data.subarray(i, i + s.length)) === s;
  return at(12, "DJVM") && at(16, "DIRM") && data.length > 24 && (data[24]! & 0x80) === 0;
}

/** Page sizes djvused reports (`size` of every page), in pixels. */
async function pageSizes(call: NativeCall, djvused: string, input: string, filename: string) {
  const fail = (t: string) => new NativeError("OPEN_FAILED", `DjVuLibre could not read ${filename}: ${why(t)}`);
  const n = await run(call, djvused, ["-e", "n", input]);
  check(n, "djvused", fail);
  const count = Number(n.stdout.trim());
  if (!Number.isInteger(count) || count < 1) throw fail(n.stdout + n.stderr);
  if (count > MAX_PAGES)
    throw new NativeError("OVER_BUDGET", `${filename} has ${count} pages; at most ${MAX_PAGES} are converted.`);
  const script = Array.from({ length: count }, (_, i) => `select ${i + 1}; size`).join("; ");
  const sizes = await run(call, djvused, ["-e", script, input]);
  check(sizes, "djvused", fail);
  const pages = [...sizes.stdout.matchAll(/width=(\d+) height=(\d+)/g)].map((m) => ({ w: +m[1]!, h: +m[2]! }));
  if (pages.length !== count) throw fail(sizes.stdout + sizes.stderr);
  const big = pages.findIndex((p) => p.w * p.h > MAX_PAGE_PIXELS);
  if (big >= 0)
    throw new NativeError(
      "OVER_BUDGET",
      `${filename}: page ${big + 1} declares ${pages[big]!.w} × ${pages[big]!.h} pixels; at most ${MAX_PAGE_PIXELS / 1e6} million are rendered.`,
    );
  return pages;
}

/**
 * Converts one DjVu (bytes, or issue 49 a file of the call's folder, moved, not copied) to `req.format`; its outputs
 * are files of the folder.
 * @throws NativeError INVALID_CONVERSION_TYPE | OPEN_FAILED (not a DjVu) | UNSUPPORTED (an indirect DjVu) |
 *   OVER_BUDGET (pages or declared pixels) | CONVERSION_FAILED | TIMEOUT
 */
async function convert(req: OfficeRequest, call: NativeCall) {
  const ddjvu = tool(call, "djvulibre").path;
  const bin = (name: string) => join(dirname(ddjvu), name);
  const format = req.format ?? "pdf";
  if (!(DJVU_OUTPUTS as readonly string[]).includes(format))
    throw new NativeError("INVALID_CONVERSION_TYPE", `DjVuLibre does not convert djvu to ${format}.`);
  const data = fileOf(req.input.data, req.input.filename);
  const first = await head(data, 32);
  if (!isDjvu(first))
    throw new NativeError("OPEN_FAILED", `${req.input.filename} is not a DjVu file (no AT&TFORM DJVU/DJVM header).`);
  if (isIndirectDjvu(first))
    throw new NativeError(
      "UNSUPPORTED",
      `${req.input.filename} is an indirect DjVu (its pages are separate files it names); only bundled DjVu documents are read. Bundle it with djvmcvt -b first.`,
    );
  const input = await place(call, "in.djvu", data);
  const pages = await pageSizes(call, bin("djvused"), input, req.input.filename);
  const fail = (t: string) =>
    new NativeError("CONVERSION_FAILED", `DjVuLibre could not convert ${req.input.filename}: ${why(t)}`);
  const range = req.pdf?.pages ? [`-page=${req.pdf.pages}`] : [];
  if (format === "djvu") {
    check(await run(call, bin("djvmcvt"), ["-b", input, join(call.work, "out.djvu")]), "djvmcvt", fail);
    return { data: await localFile(call, "out.djvu"), pages: pages.length, fontsSubstituted: [] };
  }
  if (format === "pdf") {
    check(await run(call, ddjvu, ["-format=pdf", "-quality=85", ...range, input, "out.pdf"]), "ddjvu", fail);
    return { data: await localFile(call, "out.pdf"), pages: range.length ? null : pages.length, fontsSubstituted: [] };
  }
  // png/jpg: a TIFF per page at the page's resolution, each written by ImageMagick
  check(await run(call, ddjvu, ["-format=tiff", "-eachpage", ...range, input, "page-%d.tif"]), "ddjvu", fail);
  const tiffs = (await readdir(call.work))
    .map((f) => /^page-(\d+)\.tif$/.exec(f))
    .filter((m): m is RegExpExecArray => !!m)
    .sort((a, b) => +a[1]! - +b[1]!);
  if (!tiffs.length) throw new NativeError("CONVERSION_FAILED", `${req.input.filename}: ddjvu wrote no page.`);
  const convertBin = tool(call, "imagemagick").path;
  const parts = [];
  for (const m of tiffs) {
    const out = `page-${m[1]}.${format}`;
    check(await run(call, convertBin, [m[0], ...(format === "jpg" ? ["-quality", "90"] : []), out]), "convert", fail);
    parts.push({ label: m[1]!, data: await localFile(call, out) });
  }
  return { data: parts[0]!.data, parts, pages: parts.length, fontsSubstituted: [] };
}

/**
 * The DjVuLibre engine (kind office: convert djvu → pdf, png, jpg, djvu). It takes files (issue 49): a framed call's
 * DjVu reaches it as a LocalFile in the call's folder, and its outputs go back as files.
 */
export const djvulibre = { kind: "office", methods: { convert }, files: true } satisfies NativeEngineDef<"office">;

export default djvulibre;
