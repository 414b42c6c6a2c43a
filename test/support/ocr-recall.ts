/**
 * Word recall, the OCR tests' measure (issue 17): the share of a ground truth's words (as a
 * multiset: a word twice must be found twice) present in a recognised text, after splitting on
 * white space, stripping outer punctuation and lower-casing both.
 */
import { execFileSync } from "node:child_process";

/** Words of a text for recall: split on white space, outer punctuation stripped, lower case. */
export const tokens = (text: string) =>
  text
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "").toLowerCase())
    .filter(Boolean);

/** Share (0–1) of the ground truth's words found in `text`. */
export function recall(truth: string, text: string): number {
  const have = new Map<string, number>();
  for (const t of tokens(text)) have.set(t, (have.get(t) ?? 0) + 1);
  const want = tokens(truth);
  let found = 0;
  for (const t of want) {
    const n = have.get(t) ?? 0;
    if (n > 0) {
      found++;
      have.set(t, n - 1);
    }
  }
  return found / want.length;
}

/**
 * Debian's `tesseract` (eng, one thread) on page `page` of the PDF at `path` rendered by pdftoppm at
 * `dpi` in grey: the reference words of a page, independent of PDFium and of our engines (issue 31).
 */
export function nativePageText(path: string, page: number, dpi: number): string {
  const png = execFileSync(
    "pdftoppm",
    ["-gray", "-r", String(dpi), "-f", String(page), "-l", String(page), "-singlefile", "-png", path],
    { maxBuffer: 256 * 1024 * 1024 },
  );
  return execFileSync("tesseract", ["stdin", "-", "-l", "eng"], {
    input: png,
    encoding: "utf8",
    env: { ...process.env, OMP_THREAD_LIMIT: "1" },
    stdio: ["pipe", "pipe", "ignore"],
    maxBuffer: 64 * 1024 * 1024,
  });
}

/**
 * The words Debian's tesseract finds on page `page` of the PDF at `path` alike at each of `dpis` (a multiset
 * intersection of {@link nativePageText}'s tokens), space-separated: what it reads reliably, without the words whose
 * reading flips with the resolution (a thin "300" read "ZOO" at one and "GOO" at another).
 */
export function stableNativeWords(path: string, page: number, dpis: number[]): string {
  const [first, ...rest] = [...new Set(dpis)].map((d) => tokens(nativePageText(path, page, d)));
  let keep = first ?? [];
  for (const other of rest) {
    const have = new Map<string, number>();
    for (const t of other) have.set(t, (have.get(t) ?? 0) + 1);
    keep = keep.filter((t) => {
      const n = have.get(t) ?? 0;
      if (n > 0) have.set(t, n - 1);
      return n > 0;
    });
  }
  return keep.join(" ");
}

/** pdftotext's text of page `page` of the PDF at `path`. */
export const pdfPageText = (path: string, page: number): string =>
  execFileSync("pdftotext", ["-f", String(page), "-l", String(page), path, "-"], { encoding: "utf8" });

/**
 * Share of native tesseract's words that pdftotext must find on each OCRed page of OCRmyPDF's multipage.pdf. The
 * reference (test/support/ocr-recall.ts `stableNativeWords`) is what Debian's tesseract reads alike on pdftoppm's
 * renderings of the page at the dpi the task chose and at 150 ppi: page 2's thin 40 pt "9000x9000 … 300 DPI 81"
 * digits come out differently at every resolution (ZOO, GOO, BOO), so only its 4 stable words count there, one of
 * which may be missed; page 3 is a chart whose legend sits among coloured swatches (half its words); the text pages 90 %.
 * The corpus keywords native tesseract finds at 300 ppi (facts.json) must be found too.
 */
export const MULTIPAGE_RECALL: Record<number, number> = { 1: 0.9, 2: 0.75, 3: 0.5, 5: 0.9, 6: 0.9 };
