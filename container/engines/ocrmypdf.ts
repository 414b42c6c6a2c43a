/**
 * OCRmyPDF 14 (Debian's ocrmypdf, MPL-2.0): pdf/ocr of a whole PDF on disk (issue 49), the native twin of the Worker's
 * page-by-page OCR (src/operations/pdf/ocr.ts: PDFium renders, tesseract reads, pdf-lib lays the words) for what that
 * cannot hold — a PDF over pdf-lib's budget (a 300 MB scanned book) or a page over PDFium's 2.2 MP (a 30-inch page).
 * The PDF arrives as a file in the call's folder (`files: true`), OCRmyPDF renders and recognises it one page at a time
 * (`--jobs 1`: one Ghostscript and one tesseract at a time, OMP_THREAD_LIMIT=1) and grafts an invisible text layer on
 * each page, and the searchable PDF goes back as a file streamed from disk.
 *
 * The page content is never rasterized: `--output-type pdf` (no PDF/A conversion by Ghostscript), `--optimize 0` (images
 * kept as they are), and pages that carry text are left alone (`--skip-text`); pdf/ocr's `force_ocr` is `--redo-ocr`,
 * which strips an earlier invisible OCR layer and recognises the page's images again while keeping its visible text and
 * vectors — `--force-ocr` would rasterize every page into an image (OCRmyPDF's own help: "rasterize any text or vector
 * objects on each page"), so it is never used. A page without images (vector art) is left alone too: OCRmyPDF would
 * have to rasterize it. `auto_orient` is `--rotate-pages` (the page's /Rotate changed, its content not re-encoded).
 *
 * Budgets: a page whose images render over {@link NATIVE_OCR_MAX_MEGAPIXELS} (native-protocol/pdf.ts) is left without
 * OCR (`--skip-big`) and reported; an image over {@link MAX_IMAGE_MEGAPIXELS} (Pillow's decompression-bomb guard) ends
 * the call OVER_BUDGET. Each tool runs under the call's time and address-space limits (run.ts); tesseract's own per-page timeout is the call's, so no page is
 * silently left unread (the call ends TIMEOUT instead). Encrypted PDFs are decrypted with qpdf first (the password
 * given, or the empty one); the output is not encrypted, as pdf-lib's path writes none either. OCRmyPDF fetches
 * nothing: it reads the input, runs the local tools, and loads no plugin but its built-in ones.
 */
import { NATIVE_OCR_MAX_MEGAPIXELS, type PdfOcrReport, type PdfOcrRequest } from "../../native-protocol/pdf.ts";
import {
  NativeError,
  check,
  fileOf,
  localFile,
  run,
  tool,
  why,
  type NativeCall,
  type NativeEngineDef,
} from "./common.ts";
import { open, qpdf, qpdfRange } from "./qpdf.ts";
import { installedLanguages, packageOf } from "./tesseract.ts";

/** Largest image OCRmyPDF unpacks, megapixels (its --max-image-mpixels, Pillow's decompression-bomb guard; its default). */
export const MAX_IMAGE_MEGAPIXELS = 250;

/** The clockwise degrees OCRmyPDF's log arrows stand for (_pipeline.py describe_rotation: the correction it applies). */
const TURNS: Record<string, number> = { "⬏": 90, "↻": 180, "⬑": 270 };

/**
 * What OCRmyPDF's log (stderr, INFO level) says it did with each page: lines "<page> <message>". Pages of `selected`
 * not skipped are the OCRed ones. A correction of c degrees sets /Rotate to (rotation − c) mod 360 (_pipeline.py), so
 * the clockwise turn added is 360 − c.
 */
export function reportOf(log: string, selected: number[], pageCount: number): PdfOcrReport {
  const withText = new Set<number>();
  const noImages = new Set<number>();
  const tooLarge = new Set<number>();
  const rotated: Record<number, number> = {};
  for (const line of log.split("\n")) {
    const m = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const page = Number(m[1]);
    const text = m[2]!;
    if (/^page has no images/.test(text)) noImages.add(page);
    else if (/^skipping all processing on this page/.test(text)) withText.add(page);
    else if (/^page too big, skipping OCR/.test(text)) tooLarge.add(page);
    const turn = /will rotate (\S)/.exec(text)?.[1];
    if (turn && TURNS[turn]) rotated[page] = (360 - TURNS[turn]) % 360;
  }
  const skipped = (n: number) => withText.has(n) || noImages.has(n) || tooLarge.has(n);
  const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);
  return {
    pageCount,
    ocred: selected.filter((n) => !skipped(n)),
    skippedWithText: sorted(withText),
    skippedNoImages: sorted(noImages),
    skippedTooLarge: sorted(tooLarge),
    rotated,
  };
}

/** The pages of a qpdf range ("1,3-5") as numbers. */
const pagesOf = (range: string) =>
  range.split(",").flatMap((part) => {
    const [a, b = a] = part.split("-").map(Number);
    return Array.from({ length: b! - a! + 1 }, (_, i) => a! + i);
  });

/** The request's languages, checked against tesseract's. @throws NativeError UNSUPPORTED for a code or language not here */
async function languagesOf(req: PdfOcrRequest, call: NativeCall): Promise<string[]> {
  const langs = [
    ...new Set(
      (req.languages?.length ? req.languages : ["eng"])
        .flatMap((l) => String(l).split("+"))
        .map((l) => l.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  const bad = langs.filter((l) => !/^[a-z]{3}(_[a-z]+)?$/.test(l));
  if (bad.length) throw new NativeError("UNSUPPORTED", `${bad.join(", ")} is not a tesseract language code.`);
  const have = await installedLanguages(tool(call, "tesseract").path);
  const missing = langs.filter((l) => !have.has(l));
  if (missing.length)
    throw new NativeError(
      "UNSUPPORTED",
      `The native OCR engine has no ${missing.join(", ")} (apt-get install ${missing.map(packageOf).join(" ")}).`,
    );
  return langs;
}

/**
 * The telling line of OCRmyPDF's output: the last that is neither a page's progress ("  3 …"), its chatter nor a bare
 * exception name ("InputFileError", printed after the logged reason).
 */
export function reasonOf(text: string): string {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !/^\d+\s/.test(l) && !/^(Opened a file|Postprocessing|Optimize ratio)/.test(l));
  return why(lines.filter((l) => !/^\w+(Error|Exception)$/.test(l)).join("\n") || lines.join("\n"));
}

/** OCRmyPDF's exit code and output as a task error (exceptions.py ExitCode). */
function failure(code: number | null, text: string, filename: string): NativeError {
  if (/decompression bomb/i.test(text))
    return new NativeError(
      "OVER_BUDGET",
      `${filename} holds an image over ${MAX_IMAGE_MEGAPIXELS} megapixels, more than the native OCR engine unpacks.`,
    );
  if (code === 2) return new NativeError("OPEN_FAILED", `OCRmyPDF could not read ${filename}: ${reasonOf(text)}`);
  if (code === 8) return new NativeError("INVALID_PASSWORD", `${filename} is encrypted and could not be opened.`);
  if (code === 3) return new NativeError("UNSUPPORTED", `OCRmyPDF lacks a tool or language: ${reasonOf(text)}`);
  return new NativeError("CONVERSION_FAILED", `OCRmyPDF failed on ${filename}: ${reasonOf(text)}`);
}

/**
 * pdf/ocr of the whole PDF (the pdf kind's `ocr`): qpdf opens it (page count, password) and decrypts it when
 * encrypted, OCRmyPDF writes out.pdf, answered as a LocalFile with the report read from OCRmyPDF's log.
 * @throws NativeError UNSUPPORTED (language) | INVALID_PAGES | INVALID_PASSWORD | OPEN_FAILED | OVER_BUDGET |
 *   CONVERSION_FAILED | TIMEOUT
 */
async function ocr(req: PdfOcrRequest, call: NativeCall) {
  const bin = tool(call, "ocrmypdf").path;
  const langs = await languagesOf(req, call);
  const input = { ...req.input, data: fileOf(req.input.data, req.input.filename) };
  const count = await open(call, input);
  const range = req.pages ? qpdfRange(req.pages, count) : `1-${count}`;
  let src = "in.pdf";
  const encrypted = await run(call, tool(call, "qpdf").path, ["--is-encrypted", "in.pdf"]);
  if (encrypted.code === 0) {
    await qpdf(
      call,
      [`--password=${req.input.password ?? ""}`, "--decrypt", "in.pdf", "plain.pdf"],
      req.input.filename,
    );
    src = "plain.pdf";
  }
  const args = [
    "--output-type",
    "pdf",
    req.redo ? "--redo-ocr" : "--skip-text",
    "--jobs",
    "1",
    "--optimize",
    "0",
    "--skip-big",
    String(NATIVE_OCR_MAX_MEGAPIXELS),
    "--max-image-mpixels",
    String(MAX_IMAGE_MEGAPIXELS),
    // a page tesseract has not read within its own timeout would be copied without OCR and no error (OCRmyPDF's
    // default 180 s): the call's whole time instead, so a page is read or the call ends TIMEOUT
    "--tesseract-timeout",
    String(Math.ceil(call.timeoutMs / 1000)),
    "-l",
    langs.join("+"),
    ...(req.rotatePages ? ["--rotate-pages"] : []),
    ...(req.pages ? ["--pages", range] : []),
    src,
    "out.pdf",
  ];
  // one page's log is a few lines: a 100,000-page book's stays within a few MB
  const r = await run(call, bin, args, { env: { OMP_THREAD_LIMIT: "1" }, maxOutput: 16 * 1024 * 1024 });
  check(r, "OCRmyPDF", (text) => failure(r.code, text, req.input.filename));
  const data = await localFile(call, "out.pdf").catch(() => {
    throw new NativeError("CONVERSION_FAILED", `OCRmyPDF wrote no PDF for ${req.input.filename}.`);
  });
  return { data, report: reportOf(r.stderr, pagesOf(range), count) };
}

/** The native OCRmyPDF (kind pdf: ocr); it takes files (issue 49). */
export const ocrmypdfEngine = { kind: "pdf", methods: { ocr }, files: true } satisfies NativeEngineDef<"pdf">;

export default ocrmypdfEngine;
