/**
 * Poppler (issue 32): PDF (and PostScript, distilled by Ghostscript first: issue 34) to text and markup — pdftotext (txt, `layout`, encodings through iconv),
 * pdftohtml (one html file, images inline as data: URLs), pdftocairo (svg and eps one file per page,
 * ps the whole document); `pages` selects what is converted (svg/eps: those pages' files; txt/html/ps: a PDF of those
 * pages made by qpdf first). Kind office (convert), as the Worker's row "poppler" takes it; the functions
 * below are also the second step of LibreOffice's office → txt/html/eps/ps (libreoffice.ts: the office
 * document is made a PDF first).
 *
 * Issue 49: the engine takes files — a framed call's PDF or PostScript (over NATIVE_MAX_BYTES, up to
 * NATIVE_POPPLER_MAX_BYTES) reaches it as a file in the call's folder, only its first bytes are read here, and every
 * output is answered as a file of the folder (streamed back on a framed call): an html with its images inline or a
 * page's svg is never held by this server.
 */
import type { LocalFile } from "../../native-protocol/frame.ts";
import type { OfficePart, OfficeRequest, TextEncoding } from "../../native-protocol/office.ts";
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
import { distillArgs } from "./postscript.ts";
import { qpdfRange } from "./qpdf.ts";

/** What poppler writes from a PDF. */
export const POPPLER_OUTPUTS = ["txt", "html", "svg", "eps", "ps"] as const;

/** The iconv names of TEXT_ENCODINGS (glibc's iconv, libc-bin: in every Debian system). */
const ICONV: Record<TextEncoding, string> = {
  "utf-8": "UTF-8",
  "utf-16": "UTF-16",
  "windows-1252": "WINDOWS-1252//TRANSLIT",
  "iso-8859-1": "ISO-8859-1//TRANSLIT",
  ascii: "ASCII//TRANSLIT",
};

/** Password arguments of poppler's tools (the same password tried as owner and user password). */
export const pw = (password?: string) => (password ? ["-opw", password, "-upw", password] : []);

/**
 * Maps a poppler tool's failure to a code (exit 1: open error, 3: permissions); a tool out of its address space
 * (qpdf's std::bad_alloc cutting the pages of a large PDF: it holds the objects, ~3× an 80 MB text PDF) is OVER_BUDGET.
 */
export function popplerFailure(text: string, what: string, filename: string): NativeError {
  if (/bad_alloc|out of memory/i.test(text))
    return new NativeError(
      "OVER_BUDGET",
      `${what} ran out of memory on ${filename} (the native engine's memory limit per tool, NATIVE_MEMORY_MB).`,
    );
  if (/incorrect password|password/i.test(text))
    return new NativeError("INVALID_PASSWORD", `${filename} is encrypted and the password given does not open it.`);
  if (/syntax error|couldn't open|may not be a pdf|not a pdf|couldn't read xref/i.test(text))
    return new NativeError("OPEN_FAILED", `${what} could not read ${filename}: ${why(text)}`);
  return new NativeError("CONVERSION_FAILED", `${what} failed on ${filename}: ${why(text)}`);
}

/**
 * The longest one poppler run may take, ms, whatever the task's time: pdftotext spends minutes on a content-stream
 * bomb (corpus broken/pdfjs-bomb_giant.pdf: 450 MB of junk operators, > 2 min) while ordinary documents take seconds
 * (~100 pages/s), so a run past this ends TIMEOUT instead of holding a native slot for the task's whole timeout.
 */
export const POPPLER_MAX_MS = 60_000;

/** `run` within {@link POPPLER_MAX_MS}. */
export const prun = (call: NativeCall, cmd: string, args: string[]) =>
  run(call, cmd, args, { timeoutMs: Math.min(call.timeoutMs, POPPLER_MAX_MS) });

/** Page count of the PDF at `name` (pdfinfo). */
async function pageCount(call: NativeCall, name: string, filename: string, password?: string): Promise<number> {
  const r = await prun(call, "pdfinfo", [...pw(password), name]);
  check(r, "pdfinfo", (t) => popplerFailure(t, "pdfinfo", filename));
  const n = Number(/^Pages:\s+(\d+)/m.exec(r.stdout)?.[1]);
  if (!n) throw new NativeError("OPEN_FAILED", `${filename} has no pages pdfinfo can count.`);
  return n;
}

/**
 * The 1-based pages `spec` names ("1,3,5-7", "5-": to the last), in order, from a document of `count` pages.
 * @throws NativeError INVALID_PAGES for a page past the end or a malformed item (qpdf.ts qpdfRange)
 */
export function selectedPages(spec: string, count: number): number[] {
  return qpdfRange(spec, count)
    .split(",")
    .flatMap((item) => {
      const [from, to] = item.split("-").map(Number) as [number, number?];
      const last = to ?? from;
      const step = last >= from ? 1 : -1;
      return Array.from({ length: Math.abs(last - from) + 1 }, (_, i) => from + i * step);
    });
}

/**
 * The result of one poppler conversion: the output (the first part when there are several), its parts, the page count;
 * every file one of the call's folder (issue 49: answered from disk, never read into this server's memory).
 */
export interface PopplerResult {
  data: LocalFile;
  parts?: OfficePart<LocalFile>[];
  pages: number;
}

/**
 * Converts the PDF `name` (in the call's directory) to `format` (POPPLER_OUTPUTS), written to files of that directory.
 * @throws NativeError INVALID_PASSWORD | OPEN_FAILED | CONVERSION_FAILED | TIMEOUT
 */
export async function fromPdf(
  call: NativeCall,
  name: string,
  format: string,
  opts: { filename: string; password?: string; encoding?: TextEncoding; layout?: boolean; pages?: string },
): Promise<PopplerResult> {
  tool(call, "poppler");
  const fail = (what: string) => (t: string) => popplerFailure(t, what, opts.filename);
  const count = await pageCount(call, name, opts.filename, opts.password);
  const chosen = opts.pages ? selectedPages(opts.pages, count) : null;
  const pages = chosen ? chosen.length : count;
  if (chosen && format !== "svg" && format !== "eps") {
    // a PDF of the chosen pages, decrypted, which the tools below read instead
    const r = await prun(call, tool(call, "qpdf").path, [
      "--no-warn",
      ...(opts.password ? [`--password=${opts.password}`] : []),
      "--decrypt",
      name,
      "--pages",
      ".",
      qpdfRange(opts.pages!, count),
      "--",
      "pages.pdf",
    ]);
    // exit 3: written with warnings
    check({ ...r, code: r.code === 3 ? 0 : r.code }, "qpdf", fail("qpdf"));
    name = "pages.pdf";
    opts = { ...opts, password: undefined };
  }
  if (format === "txt") {
    const r = await prun(call, "pdftotext", [
      ...pw(opts.password),
      "-enc",
      "UTF-8",
      ...(opts.layout ? ["-layout"] : []),
      name,
      "out-utf8.txt",
    ]);
    check(r, "pdftotext", fail("pdftotext"));
    const encoding = opts.encoding ?? "utf-8";
    if (encoding === "utf-8") return { data: await localFile(call, "out-utf8.txt"), pages };
    const c = await run(call, "iconv", ["-f", "UTF-8", "-t", ICONV[encoding], "-o", "out.txt", "out-utf8.txt"]);
    check(c, "iconv", (t) => new NativeError("CONVERSION_FAILED", `iconv to ${encoding}: ${why(t)}`));
    return { data: await localFile(call, "out.txt"), pages };
  }
  if (format === "html") {
    // -s -noframes: one document of every page; -dataurls: images inside it; no JavaScript is written
    const r = await prun(call, "pdftohtml", [
      ...pw(opts.password),
      "-q",
      "-s",
      "-noframes",
      "-dataurls",
      "-nomerge",
      name,
      "out.html",
    ]);
    check(r, "pdftohtml", fail("pdftohtml"));
    return { data: await localFile(call, "out.html"), pages };
  }
  if (format === "ps") {
    const r = await prun(call, "pdftocairo", [...pw(opts.password), "-ps", name, "out.ps"]);
    check(r, "pdftocairo", fail("pdftocairo"));
    return { data: await localFile(call, "out.ps"), pages };
  }
  if (format === "svg" || format === "eps") {
    const parts: OfficePart<LocalFile>[] = [];
    for (const p of chosen ?? Array.from({ length: count }, (_, i) => i + 1)) {
      if (call.signal.aborted) throw new NativeError("CANCELLED", "The task was cancelled.");
      const out = `page-${p}.${format}`;
      const r = await prun(call, "pdftocairo", [
        ...pw(opts.password),
        `-${format}`,
        "-f",
        String(p),
        "-l",
        String(p),
        name,
        out,
      ]);
      check(r, "pdftocairo", fail("pdftocairo"));
      parts.push({ label: String(p), data: await localFile(call, out) });
    }
    return { data: parts[0]!.data, parts, pages };
  }
  throw new NativeError("INVALID_CONVERSION_TYPE", `poppler does not write ${format}.`);
}

/**
 * True when `data` is PostScript: "%!" text, or a DOS EPS binary (C5 D0 D3 C6) around it — issue 34's ps → txt/html,
 * made a PDF by Ghostscript (pdfwrite, -dSAFER) first.
 */
export function isPostScript(data: Uint8Array): boolean {
  return (data[0] === 0x25 && data[1] === 0x21) || (data[0] === 0xc5 && data[1] === 0xd0 && data[2] === 0xd3);
}

/**
 * Converts one PDF or PostScript document (bytes, or issue 49 a file a framed call wrote to the call's folder, which
 * is moved, not copied) to `req.format`; only its first KiB is read here (the signature), the tools read the file.
 * @throws NativeError INVALID_PASSWORD | OPEN_FAILED (neither PDF nor PostScript) | INVALID_PAGES | CONVERSION_FAILED |
 *   TIMEOUT | UNSUPPORTED (a part that is neither bytes nor a file)
 */
async function convert(req: OfficeRequest, call: NativeCall) {
  const format = req.format ?? "txt";
  const data = fileOf(req.input.data, req.input.filename);
  const first = await head(data, 1024);
  let name: string;
  if (isPostScript(first)) {
    await place(call, "in.ps", data);
    const g = await prun(call, tool(call, "ghostscript").path, distillArgs("in.ps", "in.pdf"));
    check(
      g,
      "Ghostscript",
      (t) => new NativeError("OPEN_FAILED", `Ghostscript could not read ${req.input.filename}: ${why(t)}`),
    );
    name = "in.pdf";
  } else if (!new TextDecoder().decode(first).includes("%PDF-"))
    throw new NativeError("OPEN_FAILED", `${req.input.filename} is not a PDF (its bytes do not start like one).`);
  else name = await place(call, "in.pdf", data);
  const r = await fromPdf(call, name, format, {
    filename: req.input.filename,
    password: req.input.password,
    encoding: req.text?.encoding,
    layout: req.text?.layout,
    pages: req.pdf?.pages,
  });
  return { data: r.data, pages: r.pages, fontsSubstituted: [], ...(r.parts ? { parts: r.parts } : {}) };
}

/**
 * The poppler engine (kind office: convert from PDF). It takes files (issue 49): a framed call's document reaches it as
 * a LocalFile in the call's folder, and its outputs go back as files.
 */
export const poppler = { kind: "office", methods: { convert }, files: true } satisfies NativeEngineDef<"office">;

export default poppler;
