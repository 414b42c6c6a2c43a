/**
 * LibreOffice: office documents → PDF and → the editable formats of their kind (issue 32: doc, docx, odt,
 * rtf, txt, html; xls, xlsx, ods, csv; ppt, pptx, odp; svg/emf/wmf per slide) through the warm pool
 * (container/office/pool.ts): several soffice processes, each with its own hardened profile, reused
 * across documents. Outputs LibreOffice does not write for a kind (txt/html of a presentation, eps,
 * ps, xps) are made from its PDF by poppler or Ghostscript; PDF inputs become docx/doc/odt/rtf through
 * pdftohtml's HTML, and emf/wmf pages through Draw's PDF import. Reports the fonts the document asked for that this host does
 * not have, with the face fontconfig substituted (issue 12: "so a user sees why a layout moved").
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, rename } from "node:fs/promises";
import { basename, join } from "node:path";
import { delimitedImport } from "../office/delimited.ts";
import { OfficeError, OfficePool, type OfficeFormat, type OfficeRequest as PoolRequest } from "../office/pool.ts";
import {
  OFFICE_MAX_BYTES,
  type OfficePart,
  type OfficeRequest,
  type TextEncoding,
} from "../../native-protocol/office.ts";
import {
  NativeError,
  check,
  fileOf,
  get,
  localFile,
  localName,
  place,
  run,
  tool,
  why,
  type NativeCall,
  type NativeEngineDef,
} from "./common.ts";
import { fromPdf, isPostScript } from "./poppler.ts";
import { distillArgs } from "./postscript.ts";
import { slidesToSwf } from "./slides-swf.ts";
import { ZipUnreadable, withFileSource, zipMembers, type ZipSource } from "../lib/zip-edit.ts";
import type { LocalFile } from "../../native-protocol/frame.ts";
import { SNIFF_BYTES } from "../../native-protocol/delimited.ts";

let pool: OfficePool | undefined;

/**
 * The pool, started on first use. Size from NATIVE_OFFICE_POOL (default 2); each soffice's address-space limit
 * (RLIMIT_AS) from NATIVE_OFFICE_MEMORY_MB (default the pool's 3 GiB). Not NATIVE_MEMORY_MB, the other tools' limit:
 * LibreOffice loads the whole document into its own memory and needs ~130 MB only to start (measured, issue 49: the
 * pool's soffice opened and exported a 209 MB docx of 30 pictures under 1536 MiB, not under 1024 MiB, peaking at
 * ~740 MB resident; test/slow/large-docx.test.ts).
 */
export function officePool(workRoot: string): OfficePool {
  const mb = Number(process.env.NATIVE_OFFICE_MEMORY_MB);
  pool ??= new OfficePool({
    workRoot: join(workRoot, "office"),
    size: Number(process.env.NATIVE_OFFICE_POOL ?? 2) || 2,
    ...(mb > 0 ? { memoryBytes: mb * 1024 * 1024 } : {}),
  });
  return pool;
}

/** Stops the pool's processes (server shutdown). */
export async function closeOfficePool(): Promise<void> {
  await pool?.close();
  pool = undefined;
}

const matches = new Map<string, string>();

/** The family fontconfig gives for `family` (cached). */
function fcMatch(family: string): Promise<string> {
  const hit = matches.get(family);
  if (hit !== undefined) return Promise.resolve(hit);
  return new Promise((ok) =>
    execFile("fc-match", ["-f", "%{family}", family], { timeout: 5000 }, (e, out) => {
      const used = e ? "" : String(out).split(",")[0]!.trim();
      matches.set(family, used);
      ok(used);
    }),
  );
}

/** Fonts asked for but not installed, with what was used instead. */
async function substitutions(requested: string[]): Promise<{ requested: string; used: string }[]> {
  const out = [];
  for (const family of [...new Set(requested)].filter(Boolean)) {
    const used = await fcMatch(family);
    if (used && used.toLowerCase() !== family.toLowerCase()) out.push({ requested: family, used });
  }
  return out;
}

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const startsWith = (b: Uint8Array, sig: number[]) => sig.every((x, i) => b[i] === x);
/** Signatures by extension: OOXML and ODF are ZIP (an encrypted OOXML is an OLE container), Office 97 is OLE, RTF is text. */
const SIGNATURES: Record<string, (b: Uint8Array) => boolean> = {
  ...Object.fromEntries(
    ["docx", "docm", "dotx", "xlsx", "xlsm", "xltx", "pptx", "pptm", "ppsx", "potx"].map((e) => [
      e,
      (b: Uint8Array) => startsWith(b, ZIP) || startsWith(b, OLE),
    ]),
  ),
  ...Object.fromEntries(
    // pages, numbers, key: Apple iWork 2013+ packages are ZIP files (issue 32)
    ["odt", "ott", "ods", "ots", "odp", "otp", "odg", "pages", "numbers", "key"].map((e) => [
      e,
      (b: Uint8Array) => startsWith(b, ZIP),
    ]),
  ),
  ...Object.fromEntries(
    // et, dps: WPS Office's spreadsheet and presentation are Excel 97 and PowerPoint 97 files; sdw, sdc, sda:
    // StarOffice 3–5 documents are OLE compound files too (issue 32)
    ["doc", "dot", "xls", "xlt", "ppt", "pps", "pot", "et", "dps", "sdw", "sdc", "sda"].map((e) => [
      e,
      (b: Uint8Array) => startsWith(b, OLE),
    ]),
  ),
  rtf: (b) => new TextDecoder().decode(b.subarray(0, 5)) === "{\\rtf",
  zabw: (b) => startsWith(b, [0x1f, 0x8b]),
};

/**
 * Refuses a file whose bytes are not of the format its name says: LibreOffice would otherwise
 * import unknown bytes as plain text and "convert" garbage into a PDF.
 * @throws NativeError OPEN_FAILED
 */
function sniff(filename: string, data: Uint8Array): void {
  const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase() ?? "";
  const ok = SIGNATURES[ext];
  if (ok && !ok(data))
    throw new NativeError(
      "OPEN_FAILED",
      `${filename} is not a ${ext.toUpperCase()} document (its bytes do not start like one).`,
    );
}

/**
 * Outputs made from LibreOffice's PDF of the document by poppler (pdftotext/pdftohtml/pdftocairo), Ghostscript (xps)
 * or pdftoppm and ffmpeg (swf of presentations, slides-swf.ts).
 */
const VIA_PDF = new Set(["eps", "ps", "xps", "swf"]);
/** Outputs LibreOffice writes for some document kinds only; for the others (txt of a presentation) through its PDF. */
const VIA_PDF_WHEN_NO_FILTER = new Set(["txt", "html"]);
/** PDF input: editable text outputs, through pdftohtml's HTML loaded into Writer (measured better than writer_pdf_import, issue 32). */
const FROM_PDF_TEXT = new Set(["docx", "doc", "odt", "rtf"]);
/** PDF input: per-page metafiles, through Draw's PDF import. */
const FROM_PDF_DRAW = new Set(["emf", "wmf"]);

/** LibreOffice's names of TEXT_ENCODINGS: the "Text (encoded)" filter's charset and the csv filter's encoding number. */
const LO_ENCODING: Record<TextEncoding, { text: string; csv: number }> = {
  "utf-8": { text: "UTF8", csv: 76 },
  "utf-16": { text: "UCS2", csv: 65535 },
  "windows-1252": { text: "MS_1252", csv: 1 },
  "iso-8859-1": { text: "ISO_8859_1", csv: 12 },
  ascii: { text: "ASCII_US", csv: 11 },
};

/**
 * The export filter's FilterOptions of a request: csv — field separator (character code), text
 * delimiter `"`, encoding, first line 1, cell format standard, quote all text cells false, detect
 * special numbers true, save cell contents as shown true, export formulas false, remove space
 * false, sheet (1-based, -1 = every sheet as its own file); txt — the charset, LF line ends; html — images
 * inside the page as data: URLs (EmbedImages), not files beside it.
 */
export function filterOptions(req: OfficeRequest): string | undefined {
  const enc = LO_ENCODING[req.text?.encoding ?? "utf-8"];
  if (req.format === "csv") {
    const sep = (req.csv?.delimiter ?? ",").codePointAt(0)!;
    const sheet = req.csv?.sheet === 0 ? -1 : (req.csv?.sheet ?? 1);
    return `${sep},34,${enc.csv},1,,0,false,true,true,false,false,${sheet}`;
  }
  if (req.format === "txt") return `${enc.text},LF,,,`;
  if (req.format === "html") return "EmbedImages";
  return undefined;
}

/** CloudConvert's office → pdf options as the pool's PDF export options (issue 32). */
function pdfExportOptions(
  req: OfficeRequest,
): Pick<PoolRequest, "bookmarks" | "markup" | "hiddenSlides" | "notesPages"> {
  const p = req.pdf ?? {};
  return {
    ...(p.bookmarks !== undefined ? { bookmarks: p.bookmarks } : {}),
    ...(p.markup !== undefined ? { markup: p.markup } : {}),
    ...(p.hiddenSlides !== undefined ? { hiddenSlides: p.hiddenSlides } : {}),
    ...(p.notesPages !== undefined ? { notesPages: p.notesPages } : {}),
  };
}

/** Maps the pool's failures to the task error vocabulary (a NativeError naming `filename`; other errors unchanged). */
export function officeFailure(err: unknown, filename: string): unknown {
  if (!(err instanceof OfficeError)) return err;
  const code =
    err.code === "CONVERT_FAILED" || err.code === "ENGINE_CRASHED" || err.code === "NO_FILTER"
      ? "CONVERSION_FAILED"
      : err.code;
  return new NativeError(code, `${filename}: ${err.message}`);
}

/** Reads the per-sheet csv files the csv filter wrote for sheet -1 (`out-<sheet name>.csv`), in sheet order by name. */
async function sheetParts(call: NativeCall): Promise<OfficePart<LocalFile>[]> {
  const names = (await readdir(call.work)).filter((n) => /^out-.+\.csv$/.test(n));
  return Promise.all(names.map(async (n) => ({ label: n.slice(4, -4), data: await localFile(call, n) })));
}

/**
 * The most a ZIP-based document (OOXML, ODF, iWork) may expand to, bytes: past it the input is a zip bomb to us. The
 * office row's input limit too (native-protocol/office.ts OFFICE_MAX_BYTES): pictures are stored, not deflated, so a
 * larger document would expand past it anyway.
 */
export const MAX_EXPANDED_BYTES = OFFICE_MAX_BYTES;

/**
 * The total uncompressed size a ZIP's central directory declares (Infinity for a zip64 archive: such a file is refused
 * rather than inflated), or null when `src` is not a ZIP or its central directory does not parse (a truncated file:
 * LibreOffice, which reads packages through the same directory, refuses it as damaged). Reads the directory alone,
 * never the members (zip-edit.ts), so a 1 GB document is not held.
 */
export async function zipExpandedBytes(src: ZipSource): Promise<number | null> {
  if (!startsWith(await src.read(0, 4), ZIP)) return null;
  try {
    return (await zipMembers(src)).reduce((n, m) => n + m.size, 0);
  } catch (err) {
    if (err instanceof ZipUnreadable) return err.zip64 ? Infinity : null;
    throw err;
  }
}

/**
 * Refuses a ZIP-based document declaring more than MAX_EXPANDED_BYTES (a zip bomb), read from its directory.
 * @throws NativeError OVER_BUDGET
 */
export async function refuseZipBomb(src: ZipSource, what: string): Promise<number | null> {
  const expanded = await zipExpandedBytes(src);
  if (expanded !== null && expanded > MAX_EXPANDED_BYTES)
    throw new NativeError(
      "OVER_BUDGET",
      `${what} would expand to ${expanded === Infinity ? "an undeclared size" : `${Math.round(expanded / 2 ** 20)} MiB`}; ` +
        `documents may expand to at most ${MAX_EXPANDED_BYTES / 2 ** 20} MiB (a zip bomb is refused unopened).`,
    );
  return expanded;
}

/** The first `n` bytes of the file at `path` (fewer when it is shorter). */
async function headOf(path: string, n: number): Promise<Uint8Array> {
  return withFileSource(path, (src) => src.read(0, n));
}

/**
 * Puts the request's document in the call's folder as `name` (bytes written; a framed call's file, already there,
 * moved: issue 49) and answers its path.
 * @throws NativeError UNSUPPORTED for a stream (the server hands a method files or bytes only)
 */
async function placed(call: NativeCall, req: OfficeRequest, name: string): Promise<string> {
  return place(call, name, fileOf(req.input.data, req.input.filename));
}

async function convert(req: OfficeRequest, call: NativeCall) {
  tool(call, "libreoffice");
  let path = await placed(call, req, localName("in", req.input.filename));
  // issue 49: the document is read from its file, its first bytes and its zip directory only
  await withFileSource(path, (src) => refuseZipBomb(src, req.input.filename));
  const head = await headOf(path, SNIFF_BYTES + 1);
  const format = req.format ?? "pdf";
  if (isPostScript(head)) return postScriptToSlides(req, call, format, path);
  const isPdf = new TextDecoder().decode(head.subarray(0, 1024)).includes("%PDF-");
  if (!isPdf) sniff(req.input.filename, head);
  const pool = officePool(call.root);
  const password = req.input.password;
  // delimited text (csv, tsv) needs Calc's CSV import with options, or it never loads (issue 44); its charset and
  // separator are judged from the first SNIFF_BYTES, which `head` holds (one byte more tells a longer file)
  const base = { password, timeoutMs: call.timeoutMs, ...delimitedImport(req.input.filename, head) };
  try {
    if (isPdf) {
      if (basename(path) !== "in.pdf") await rename(path, (path = join(call.work, "in.pdf")));
      const input = path;
      if (FROM_PDF_TEXT.has(format)) {
        // pdftohtml keeps every page's text in reading order and the images (as data: URLs); Writer lays it out again
        const html = await fromPdf(call, input, "html", { filename: req.input.filename, password });
        // issue 49: pdftohtml's file is moved, not read (its images inline, it may be larger than the PDF)
        await rename(html.data.path, join(call.work, "in.html"));
        const r = await pool.convert({
          ...base,
          password: undefined,
          input: join(call.work, "in.html"),
          output: join(call.work, `out.${format}`),
          format: format as OfficeFormat,
        });
        return { data: await localFile(call, `out.${format}`), pages: r.pages, fontsSubstituted: [] };
      }
      if (FROM_PDF_DRAW.has(format)) {
        const r = await pool.convert({
          ...base,
          input,
          output: join(call.work, `out.${format}`),
          format: format as OfficeFormat,
          importFilter: "draw_pdf_import",
        });
        const parts = await Promise.all(
          (r.files ?? []).map(async (f, i) => ({ label: String(i + 1), data: await localFile(call, basename(f)) })),
        );
        if (!parts.length)
          throw new NativeError("CONVERSION_FAILED", `${req.input.filename}: LibreOffice Draw found no pages.`);
        return { data: parts[0]!.data, parts, pages: parts.length, fontsSubstituted: [] };
      }
      if (format === "odd") {
        // odd: CloudConvert's name for an OpenDocument drawing (.odg) — every page a Draw page, text and shapes editable
        const r = await pool.convert({
          ...base,
          input,
          output: join(call.work, "out.odg"),
          format: "odg",
          importFilter: "draw_pdf_import",
        });
        return { data: await localFile(call, "out.odg"), pages: r.pages, fontsSubstituted: [] };
      }
      throw new NativeError("INVALID_CONVERSION_TYPE", `LibreOffice does not convert PDF to ${format} here.`);
    }
    const input = path;
    const viaPdf = async () => {
      const pdf = join(call.work, "via.pdf");
      const r = await pool.convert({
        ...base,
        input,
        output: pdf,
        format: "pdf",
        ...(req.pdf?.pages ? { pages: req.pdf.pages } : {}),
      });
      if (format === "xps") return { ...(await toXps(call, pdf, req.input.filename)), fonts: r.fontsRequested };
      if (format === "swf") return { ...(await slidesToSwf(call, pdf, req.input.filename)), fonts: r.fontsRequested };
      const out = await fromPdf(call, pdf, format, {
        filename: req.input.filename,
        encoding: req.text?.encoding,
        layout: req.text?.layout,
      });
      return { ...out, fonts: r.fontsRequested };
    };
    if (VIA_PDF.has(format)) {
      const r = await viaPdf();
      return {
        data: r.data,
        pages: r.pages,
        fontsSubstituted: await substitutions(r.fonts),
        ...("parts" in r && r.parts ? { parts: r.parts } : {}),
      };
    }
    const output = join(call.work, `out.${format}`);
    let r;
    try {
      r = await pool.convert({
        ...base,
        input,
        output,
        format: format as OfficeFormat,
        ...(format === "pdf" && req.pdf?.pages ? { pages: req.pdf.pages } : {}),
        ...(format === "pdf" && req.pdf?.pdfa ? { pdfa: req.pdf.pdfa } : {}),
        ...(format === "pdf" ? pdfExportOptions(req) : {}),
        ...(filterOptions(req) ? { filterOptions: filterOptions(req) } : {}),
      });
    } catch (err) {
      if (err instanceof OfficeError && err.code === "NO_FILTER" && VIA_PDF_WHEN_NO_FILTER.has(format)) {
        const v = await viaPdf();
        return { data: v.data, pages: v.pages, fontsSubstituted: await substitutions(v.fonts) };
      }
      throw err;
    }
    const fontsSubstituted = await substitutions(r.fontsRequested);
    if (format === "csv" && req.csv?.sheet === 0) {
      const parts = await sheetParts(call);
      if (!parts.length) throw new NativeError("CONVERSION_FAILED", `${req.input.filename}: no sheet was written.`);
      return { data: parts[0]!.data, parts, pages: parts.length, fontsSubstituted };
    }
    if (r.files) {
      const parts = await Promise.all(
        r.files.map(async (f, i) => ({ label: String(i + 1), data: await localFile(call, basename(f)) })),
      );
      return { data: parts[0]!.data, parts, pages: parts.length, fontsSubstituted };
    }
    if (format === "csv") {
      // with a sheet number the csv filter writes out-<sheet name>.csv, not out.csv
      const parts = existsSync(output) ? [] : await sheetParts(call);
      if (parts.length === 1) return { data: parts[0]!.data, pages: 1, fontsSubstituted };
    }
    return { data: await localFile(call, `out.${format}`), pages: r.pages, fontsSubstituted };
  } catch (err) {
    throw officeFailure(err, req.input.filename);
  }
}

/**
 * XPS of a PDF by Ghostscript's xpswrite device.
 * @throws NativeError ENGINE_UNAVAILABLE (no Ghostscript) | CONVERSION_FAILED | TIMEOUT
 */
/** Presentation formats PostScript becomes, one slide per page (issue 34: the catalogue's ps → odp, ppt, pptx). */
export const PS_SLIDE_OUTPUTS = new Set(["odp", "ppt", "pptx"]);

/**
 * PostScript → odp/ppt/pptx: Ghostscript's pdfwrite (-dSAFER) makes a PDF, which Impress's PDF import
 * (impress_pdf_import: one slide per page, text kept as text boxes) loads and the presentation's export writes.
 */
async function postScriptToSlides(req: OfficeRequest, call: NativeCall, format: string, path: string) {
  if (!PS_SLIDE_OUTPUTS.has(format))
    throw new NativeError("INVALID_CONVERSION_TYPE", `LibreOffice does not convert PostScript to ${format} here.`);
  if (basename(path) !== "in.ps") await rename(path, join(call.work, "in.ps"));
  const g = await run(call, tool(call, "ghostscript").path, distillArgs("in.ps", "in.pdf"));
  check(
    g,
    "Ghostscript",
    (t) => new NativeError("OPEN_FAILED", `Ghostscript could not read ${req.input.filename}: ${why(t)}`),
  );
  try {
    const r = await officePool(call.root).convert({
      input: join(call.work, "in.pdf"),
      output: join(call.work, `out.${format}`),
      format: format as OfficeFormat,
      importFilter: "impress_pdf_import",
      timeoutMs: call.timeoutMs,
    });
    return { data: await localFile(call, `out.${format}`), pages: r.pages, fontsSubstituted: [] };
  } catch (err) {
    throw officeFailure(err, req.input.filename);
  }
}

async function toXps(
  call: NativeCall,
  pdf: string,
  filename: string,
): Promise<{ data: LocalFile; pages: number | null }> {
  const gs = tool(call, "ghostscript").path;
  const r = await run(call, gs, [
    "-dSAFER",
    "-dBATCH",
    "-dNOPAUSE",
    "-dQUIET",
    "-sDEVICE=xpswrite",
    "-sOutputFile=out.xps",
    pdf,
  ]);
  check(
    r,
    "Ghostscript (xpswrite)",
    (t) => new NativeError("CONVERSION_FAILED", `${filename}: xpswrite failed: ${why(t)}`),
  );
  return { data: await localFile(call, "out.xps"), pages: null };
}

/**
 * The LibreOffice engine (kind office: convert). It takes files (issue 49): a framed call's document reaches it as a
 * LocalFile in the call's folder, and its outputs go back as files, so a 200 MB docx and its PDF are held whole by
 * neither the Worker nor this server (LibreOffice itself loads the document: its own memory is soffice's).
 */
export const libreoffice = { kind: "office", methods: { convert }, files: true } satisfies NativeEngineDef<"office">;

export default libreoffice;
