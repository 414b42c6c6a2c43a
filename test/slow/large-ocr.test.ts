/**
 * Issue 49's scanned book through pdf/ocr (the `slow` project, `npm run test:slow`; never in `npm test`): a generated PDF
 * of LARGE_OCR_PAGES pages (default 125, ~300 MB), each OCRmyPDF's c02-22 scan rendered at 300 ppi with light noise
 * and stored as its own JPEG (the way a scanner's PDF is made; no text), served from loopback, goes import/url →
 * pdf/ocr (pages 1 and the last) → export/url through the running Worker and the native engine. Over pdf-lib's 16 MiB
 * and every OCR row's budget, the task goes straight to the native OCRmyPDF, the PDF streamed to its folder and the
 * searchable PDF streamed back (over 64 MiB: the framed wire both ways).
 *
 * Every native tool runs under a 512 MB address-space limit (NATIVE_MEMORY_MB), below the file's size, so the job
 * finishing shows that OCRmyPDF did not hold the book whole.
 *
 * Oracles: pdfinfo (the page count and sizes kept), pdftotext (the OCRed pages' words, recall against Debian's tesseract
 * on the page image itself; a page not asked for has no text), pdffonts (only the OCRed pages name a font); the resident
 * memory of workerd and of the native server (VmRSS from /proc, every 250 ms), from before the job to the download's end
 * (test/support/slow-job.ts).
 */
import { execFileSync } from "node:child_process";
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { recall } from "../support/ocr-recall";
import { writeScanPdf } from "../support/scan-pdf";
import { growthLine, mb, runSlowJob, secs, slowRig } from "../support/slow-job";

const PAGES = Number(process.env.LARGE_OCR_PAGES ?? 125);
/** The native tools' memory limit, MB (NATIVE_MEMORY_MB: RLIMIT_AS of each run), below the file's size. */
const NATIVE_MEMORY_MB = 512;
/** Most workerd and the native server may grow over their idle size: 40% of the file, the slow project's bound. */
const GROWTH = 0.4;

let source: string;
let jpeg: string;

const rig = slowRig({
  name: "ocr",
  key: "key-ocr",
  user: "ocr",
  nativeMemoryMb: NATIVE_MEMORY_MB,
  generate(dir) {
    source = join(dir, "book.pdf");
    jpeg = join(dir, "page.jpg");
    const png = join(dir, "page");
    execFileSync("pdftoppm", ["-r", "300", "-singlefile", "-png", corpusPath("scans/ocrmypdf-c02-22.pdf"), png]);
    // light Gaussian noise: no two 8×8 blocks alike, so each page's JPEG is ~2.4 MB (measured) and the book ~300 MB
    execFileSync("convert", [`${png}.png`, "-attenuate", "0.3", "+noise", "Gaussian", "-quality", "95", jpeg]);
    rmSync(`${png}.png`);
    const [w, h] = execFileSync("identify", ["-format", "%w %h", jpeg], { encoding: "utf8" }).split(" ").map(Number);
    writeScanPdf(source, jpeg, w!, h!, PAGES);
    return { "/book.pdf": { path: source, type: "application/pdf" } };
  },
});

const pdfinfo = (path: string) => execFileSync("pdfinfo", ["-f", "1", "-l", String(PAGES), path], { encoding: "utf8" });
const pageText = (path: string, page: number) =>
  execFileSync("pdftotext", ["-f", String(page), "-l", String(page), path, "-"], { encoding: "utf8" });
const fontsOn = (path: string, page: number) =>
  execFileSync("pdffonts", ["-f", String(page), "-l", String(page), path], { encoding: "utf8" })
    .trim()
    .split("\n").length - 2;

describe(`a ${PAGES}-page scanned book through pdf/ocr on the native OCRmyPDF`, () => {
  it("import/url → pdf/ocr (first and last page) → export/url: those pages searchable, the book otherwise as it was; neither process grows by the file", async () => {
    const size = statSync(source).size;
    expect(size).toBeGreaterThan(64 * 1024 * 1024);
    const run = await runSlowJob(rig, {
      in: { operation: "import/url", url: `${rig.base}/book.pdf` },
      ocr: { operation: "pdf/ocr", input: "in", language: ["eng"], pages: `1,${PAGES}` },
      out: { operation: "export/url", input: "ocr" },
    });
    const task = run.task("ocr");
    expect(task.engine).toBe("ocrmypdf");
    expect((task.result as { ocr: unknown }).ocr).toMatchObject({ pages: [1, PAGES], skipped_pages_with_text: [] });
    expect(run.files).toHaveLength(1);
    const out = run.files[0]!.path;
    const { workerd, native } = run.memory;
    console.log(
      `large-ocr: ${mb(size)} MB scanned book (${PAGES} pages; generated in ${secs(rig.generateMs)} s) → ` +
        `${mb(statSync(out).size)} MB; job ${secs(run.jobMs)} s, download ${secs(run.downloadMs)} s; ` +
        `${growthLine(run.memory)}; tools under RLIMIT_AS ${NATIVE_MEMORY_MB} MB`,
    );
    // the pages as they were: count and sizes (pdfinfo)
    const sizes = (p: string) =>
      pdfinfo(p)
        .split("\n")
        .filter((l) => /^(Pages:|Page\s+\d+ size:)/.test(l));
    expect(sizes(out)).toEqual(sizes(source));
    // the OCRed pages hold the words Debian's tesseract reads on the page image itself; a page not asked for none
    const truth = execFileSync("tesseract", [jpeg, "-", "-l", "eng"], {
      encoding: "utf8",
      env: { ...process.env, OMP_THREAD_LIMIT: "1" },
      stdio: ["ignore", "pipe", "ignore"],
    });
    for (const page of [1, PAGES]) {
      expect(recall(truth, pageText(out, page)), `page ${page}`).toBeGreaterThanOrEqual(0.9);
      expect(fontsOn(out, page)).toBeGreaterThan(0);
    }
    expect(pageText(out, 2).trim()).toBe("");
    expect(fontsOn(out, 2)).toBe(0);
    // the images kept: the output is about the source's size
    expect(statSync(out).size).toBeGreaterThan(size * 0.99);
    // neither side of the native wire held the book
    expect(workerd.peak - workerd.idle).toBeLessThan(GROWTH * size);
    expect(native.peak - native.idle).toBeLessThan(GROWTH * size);
    rmSync(out);
  });
});
