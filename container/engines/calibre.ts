/**
 * E-books (issue 33): calibre's ebook-convert (Debian 12's calibre 6.13) from the formats it reads to
 * the ones it writes (native-protocol/ebook.ts), with the options CloudConvert users send that calibre
 * has: PDF paper size, page size and margins, base font size, cover, title and authors.
 *
 * Headless and offline: Qt's offscreen platform; calibre's PDF output renders in QtWebEngine, whose
 * Chromium sandbox cannot start as root nor without user namespaces in a container, so it runs with
 * QTWEBENGINE_DISABLE_SANDBOX — calibre loads the book through its own URL scheme with scripts off and
 * remote requests refused (test/native/native-hostile-books.test.ts counts them: none). Chromium reserves
 * a terabyte of address space, so the memory limit is RLIMIT_DATA (what the process writes) rather than
 * run.ts's RLIMIT_AS; the time limit is the call's. calibre starts in ~1–3 s; a 377-page book to PDF
 * took 29 s on the development machine.
 */
import { mkdir, readdir, stat } from "node:fs/promises";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { POPPLER_MAX_MS } from "./poppler.ts";
import { EBOOK_PAIRS, type EbookOptions, type EbookRequest } from "../../native-protocol/ebook.ts";
import { UNO_PYTHON, which } from "../tools.ts";
import {
  NativeError,
  check,
  fileOf,
  head,
  localFile,
  localName,
  place,
  put,
  run,
  tool,
  why,
  type NativeCall,
  type NativeEngineDef,
} from "./common.ts";
import { checkZipBudget } from "./zip-guard.ts";
import { officeFailure, officePool } from "./libreoffice.ts";

/** Inputs that are zips calibre unpacks whole, and the most they may unpack to (bytes, members). */
const ZIPPED = new Set(["epub", "cbz", "cbc", "htmlz", "txtz", "docx", "odt", "pages"]);
const MAX_UNPACKED = 1024 * 1024 * 1024;
const MAX_MEMBERS = 20_000;
/** calibre's own paper sizes (--paper-size); the others of EBOOK_PAGE_FORMATS become a custom size, inches. */
const CALIBRE_PAPER = new Set(["letter", "legal", "a0", "a1", "a2", "a3", "a4", "a5", "a6"]);
const CUSTOM_PAPER: Record<string, string> = { tabloid: "11x17", ledger: "17x11" };
/** Output formats written under another name: AZW and PRC are MOBI files. */
const WRITTEN_AS: Record<string, string> = { azw: "mobi", prc: "mobi" };
const PT_PER_MM = 72 / 25.4;
/** ebook-convert with calibre 6.13's CHM input fixed (calibre/chm_convert.py), run by calibre-debug. */
const CHM_CONVERT = fileURLToPath(new URL("./calibre/chm_convert.py", import.meta.url));
/** ebook-convert to PDF with a shorter settle time and more pages at once (calibre/pdf_render.py), run by calibre-debug. */
const PDF_RENDER = fileURLToPath(new URL("./calibre/pdf_render.py", import.meta.url));

/** ebook-convert's options for `o` (output `format`); PDF page options only for PDF output. */
export function calibreOptions(o: EbookOptions, format: string): string[] {
  const args: string[] = [];
  if (o.base_font_size !== undefined) args.push(`--base-font-size=${o.base_font_size}`);
  if (o.title) args.push(`--title=${o.title}`);
  if (o.author) args.push(`--authors=${o.author}`);
  if (format !== "pdf") return args;
  if (o.page_width !== undefined && o.page_height !== undefined)
    args.push(`--custom-size=${o.page_width}x${o.page_height}`, "--unit=centimeter");
  else if (o.page_format && CALIBRE_PAPER.has(o.page_format)) args.push(`--paper-size=${o.page_format}`);
  else if (o.page_format && CUSTOM_PAPER[o.page_format])
    args.push(`--custom-size=${CUSTOM_PAPER[o.page_format]}`, "--unit=inch");
  for (const side of ["top", "bottom", "left", "right"] as const) {
    const mm = o[`margin_${side}`];
    if (mm !== undefined) args.push(`--pdf-page-margin-${side}=${(mm * PT_PER_MM).toFixed(2)}`);
  }
  return args;
}

/** Maps ebook-convert's failure (its traceback) to a code. */
function calibreFailure(text: string, filename: string): NativeError {
  if (/DRMError/.test(text))
    return new NativeError(
      "UNSUPPORTED",
      `${filename} is protected by DRM (digital rights management); it cannot be converted. Convert a DRM-free copy.`,
    );
  if (
    /Not a ZIP file|BadZipfile|Unknown book type|MobiError|not a valid|Invalid|XMLSyntaxError|Could not find|No such file|corrupt|unpack requires|struct\.error|is not a|Failed to|no OPF|ValueError/i.test(
      text,
    )
  )
    return new NativeError("OPEN_FAILED", `calibre could not read ${filename}: ${why(text, /Error|error:/)}`);
  return new NativeError("CONVERSION_FAILED", `calibre could not convert ${filename}: ${why(text, /Error|error:/)}`);
}

/**
 * Regular expressions (and replacements) calibre applies to the book's HTML (its --search-replace file:
 * alternating lines) before PDF output: calibre renders PDF in QtWebEngine with JavaScript on (for its
 * own pagination and MathJax), so the book's scripts, event-handler attributes (onload, onerror, …),
 * srcdoc frames and javascript: URLs go first — calibre never runs a book's scripts.
 */
export const STRIP_SCRIPTS = [
  ["<(?:\\w+:)?script\\b[^>]*/>", ""],
  ["<(?:\\w+:)?script\\b[\\s\\S]*?</(?:\\w+:)?script\\s*>", ""],
  ["\\s[oO][nN][a-zA-Z]+\\s*=\\s*(?:\"[^\"]*\"|'[^']*'|[^\\s>]+)", " "],
  ["\\s[sS][rR][cC][dD][oO][cC]\\s*=\\s*(?:\"[^\"]*\"|'[^']*'|[^\\s>]+)", " "],
  ["(?i)(\\s(?:href|src|action|data|xlink:href)\\s*=\\s*[\"'])\\s*javascript\\s*:", "\\1about:blank#"],
]
  .flat()
  .join("\n");

/** Zips the folder `dir` (calibre's OEB output) into `zip`, names relative to the folder. */
async function zipFolder(call: NativeCall, dir: string, zip: string): Promise<void> {
  const py = [
    "import os, sys, zipfile",
    "root, out = sys.argv[1], sys.argv[2]",
    "with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:",
    "    for d, _, fs in sorted(os.walk(root)):",
    "        for f in sorted(fs):",
    "            p = os.path.join(d, f)",
    "            z.write(p, os.path.relpath(p, root))",
  ].join("\n");
  const r = await run(call, UNO_PYTHON, ["-c", py, dir, zip]);
  check(r, "zip", (t) => new NativeError("CONVERSION_FAILED", `Could not zip the OEB output: ${why(t)}`));
}

/**
 * A CBR (a RAR of comic pages) repacked as a CBZ by libarchive's bsdtar, which reads RAR 4 and 5: Debian's
 * calibre has no RAR reader (no unrardll). The listing is budgeted first (the sizes bsdtar reports,
 * as for zips); members keep their names, so calibre orders the pages as in the RAR.
 * @throws NativeError OPEN_FAILED (not a RAR bsdtar reads) | OVER_BUDGET | ENGINE_UNAVAILABLE (no bsdtar)
 */
async function cbrAsCbz(call: NativeCall, cbr: string, filename: string): Promise<string> {
  const bsdtar = which("bsdtar");
  if (!bsdtar)
    throw new NativeError(
      "ENGINE_UNAVAILABLE",
      "CBR needs bsdtar in the native engine (apt-get install libarchive-tools).",
    );
  const listed = await run(call, bsdtar, ["-tvf", cbr]);
  check(
    listed,
    "bsdtar",
    (t) => new NativeError("OPEN_FAILED", `${filename} is not a RAR comic bsdtar reads: ${why(t)}`),
  );
  const rows = listed.stdout.split("\n").filter(Boolean);
  const bytes = rows.reduce((n, l) => n + (Number(l.trim().split(/\s+/)[4]) || 0), 0);
  if (bytes > MAX_UNPACKED || rows.length > MAX_MEMBERS)
    throw new NativeError(
      "OVER_BUDGET",
      `${filename} unpacks to ${(bytes / 1024 / 1024).toFixed(0)} MiB in ${rows.length} files; the e-book engine unpacks at most ${MAX_UNPACKED / 1024 / 1024} MiB and ${MAX_MEMBERS} files.`,
    );
  const cbz = join(call.work, "in-repacked.cbz");
  const packed = await run(call, bsdtar, ["-cf", cbz, "--format", "zip", `@${cbr}`]);
  check(packed, "bsdtar", (t) => new NativeError("OPEN_FAILED", `${filename} could not be unpacked: ${why(t)}`));
  return cbz;
}

/**
 * An Apple Pages document as DOCX, written by LibreOffice's warm pool (its libetonyek import): calibre has no Pages
 * reader. @throws NativeError ENGINE_UNAVAILABLE (no LibreOffice) | OPEN_FAILED | CONVERSION_FAILED | TIMEOUT
 */
async function pagesAsDocx(call: NativeCall, pages: string, filename: string): Promise<string> {
  tool(call, "libreoffice");
  const docx = join(call.work, "in-pages.docx");
  try {
    await officePool(call.root).convert({ input: pages, output: docx, format: "docx", timeoutMs: call.timeoutMs });
  } catch (err) {
    throw officeFailure(err, filename);
  }
  return docx;
}

/**
 * Converts one book (bytes, or issue 49 a file a framed call wrote to the call's folder) to `req.format`; the output is
 * answered as a file (streamed back on a framed call), so a large book is held by neither side.
 * @throws NativeError INVALID_CONVERSION_TYPE | INVALID_PASSWORD (an encrypted OOXML) | OVER_BUDGET (a zip bomb) |
 *   OPEN_FAILED | UNSUPPORTED (DRM) | CONVERSION_FAILED | TIMEOUT
 */
async function convert(req: EbookRequest, call: NativeCall) {
  const inFormat = req.input.format.toLowerCase();
  if (!EBOOK_PAIRS.some((p) => p.input === inFormat && p.output === req.format))
    throw new NativeError("INVALID_CONVERSION_TYPE", `calibre does not convert ${inFormat} to ${req.format} here.`);
  // an encrypted OOXML document is an OLE container, not a zip: calibre takes no password
  const data = fileOf(req.input.data, req.input.filename);
  const magic = await head(data, 4);
  if (["docx", "pages"].includes(inFormat) && [0xd0, 0xcf, 0x11, 0xe0].every((b, i) => magic[i] === b))
    throw new NativeError(
      "INVALID_PASSWORD",
      `${req.input.filename} is encrypted; e-book conversion takes no password. Convert it to docx with its password first.`,
    );
  if (ZIPPED.has(inFormat)) await checkZipBudget(data, req.input.filename, MAX_UNPACKED, MAX_MEMBERS);
  let input = await place(call, `in.${inFormat}`, data);
  if (inFormat === "cbr") input = await cbrAsCbz(call, input, req.input.filename);
  if (inFormat === "pages") input = await pagesAsDocx(call, input, req.input.filename);
  const written = WRITTEN_AS[req.format] ?? req.format;
  const output = join(call.work, `out.${written}`);
  const config = join(call.work, "calibre-config");
  await mkdir(config, { recursive: true });
  const env = {
    QT_QPA_PLATFORM: "offscreen",
    QTWEBENGINE_DISABLE_SANDBOX: "1",
    CALIBRE_CONFIG_DIRECTORY: config,
    CALIBRE_TEMP_DIR: call.work,
    CALIBRE_NO_NATIVE_FILEDIALOGS: "1",
  };
  const ebookConvert = tool(call, "calibre").path;
  const prlimit = which("prlimit");
  // a PDF input is parsed by calibre's pdftohtml, which spends minutes on a content-stream bomb: capped as poppler's
  // own runs are (POPPLER_MAX_MS), so it ends TIMEOUT instead of holding a native slot for the task's whole timeout
  const timeoutMs = inFormat === "pdf" ? Math.min(call.timeoutMs, POPPLER_MAX_MS) : call.timeoutMs;
  // a CHM is read through calibre-debug and chm_convert.py: calibre 6.13's own CHM input fails on every file; a PDF is
  // written through pdf_render.py: calibre waits 1 s after each chapter's load, most of a book's wall time
  const calibreDebug = join(dirname(ebookConvert), "calibre-debug");
  const program = (args: string[]): [string, string[]] => {
    if (!existsSync(calibreDebug)) return [ebookConvert, args];
    if (inFormat === "chm" && args[0] === input) return [calibreDebug, ["-e", CHM_CONVERT, "--", ...args]];
    if (args[1] === output && req.format === "pdf") return [calibreDebug, ["-e", PDF_RENDER, "--", ...args]];
    return [ebookConvert, args];
  };
  const calibreRun = (args: string[]) => {
    const [bin, argv] = program(args);
    return prlimit
      ? run(call, prlimit, [`--data=${call.memoryBytes}`, "--", bin, ...argv], { memoryBytes: 0, env, timeoutMs })
      : run(call, bin, argv, { env, timeoutMs });
  };
  let source = input;
  if (req.format === "pdf") {
    // PDF: the book becomes an EPUB first, whose HTML loses its scripts on the way to the renderer
    const staged = join(call.work, "staged.epub");
    const first = await calibreRun([input, staged, "--no-default-epub-cover"]);
    check(first, "calibre", (text) => calibreFailure(text, req.input.filename));
    source = staged;
  }
  const args = [source, output, ...calibreOptions(req.options ?? {}, req.format)];
  // HTML: the page alone, no linked file pulled in (calibre already refuses files outside the input's folder)
  if (inFormat === "html" && source === input) args.push("--max-levels=0");
  // no generated cover page image: calibre's default cover fails on books without a title (IndexError in
  // default_cover) and adds a 40–60 KB JPEG of title and author to every EPUB
  if (req.format === "epub") args.push("--no-default-epub-cover");
  if (req.format === "pdf")
    args.push(
      `--search-replace=${await put(call, "strip-scripts.txt", new TextEncoder().encode(STRIP_SCRIPTS + "\n"))}`,
    );
  if (req.cover)
    args.push(
      `--cover=${await place(call, localName("cover", req.cover.filename), fileOf(req.cover.data, req.cover.filename))}`,
    );
  const r = await calibreRun(args);
  check(r, "calibre", (text) => calibreFailure(text, req.input.filename));
  if (req.format === "oeb") {
    await zipFolder(call, output, join(call.work, "out.zip"));
    return { data: await localFile(call, "out.zip") };
  }
  const made = await stat(output).catch(() => null);
  if (!made?.isFile())
    throw new NativeError(
      "CONVERSION_FAILED",
      `calibre wrote no ${req.format} for ${req.input.filename} (${(await readdir(call.work)).length} files in its folder).`,
    );
  return { data: await localFile(call, `out.${written}`) };
}

/**
 * The calibre engine (kind ebook: convert). It takes files (issue 49): a framed call's book reaches it as a LocalFile in
 * the call's folder, and its output goes back as a file.
 */
export const calibre = { kind: "ebook", methods: { convert }, files: true } satisfies NativeEngineDef<"ebook">;

export default calibre;
