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
 * memory of workerd and of the native server (VmRSS from /proc, every 250 ms), from before the job to the download's end.
 */
import { execFileSync } from "node:child_process";
import {
  closeSync,
  createReadStream,
  createWriteStream,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { recall } from "../support/ocr-recall";
import { watchServerMemory } from "../support/proc-memory";
import { sdk, pollJob, type JobBody } from "../support/sdk";
import { startDevServer, type DevServer } from "../support/server";
import { scaled } from "../support/time-scale";

const PAGES = Number(process.env.LARGE_OCR_PAGES ?? 125);
/** The native tools' memory limit, MB (NATIVE_MEMORY_MB: RLIMIT_AS of each run), below the file's size. */
const NATIVE_MEMORY_MB = 512;
const KEY = "key-ocr";
const MB = 1e6;

let server: DevServer;
let files: Server;
let base = "";
let dir: string;
let source: string;
let jpeg: string;
let tGenerate = 0;

/**
 * Writes a PDF of `pages` pages, each drawing the JPEG at `jpeg` (w × h px at 300 ppi, DCTDecode, an image object of its
 * own a page) over the whole page; the JPEG's bytes are held once and written page by page.
 */
function writeScanPdf(path: string, image: string, w: number, h: number, pages: number): void {
  const bytes = readFileSync(image);
  const [pw, ph] = [(w * 72) / 300, (h * 72) / 300];
  const fd = openSync(path, "w");
  let at = 0;
  const offsets: number[] = [];
  const put = (s: string | Buffer) => {
    const b = typeof s === "string" ? Buffer.from(s, "latin1") : s;
    writeSync(fd, b);
    at += b.length;
  };
  const obj = (n: number, body: () => void) => {
    offsets[n] = at;
    put(`${n} 0 obj\n`);
    body();
    put("\nendobj\n");
  };
  put("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n");
  obj(1, () => put("<< /Type /Catalog /Pages 2 0 R >>"));
  const kids = Array.from({ length: pages }, (_, i) => `${3 + i * 3} 0 R`).join(" ");
  obj(2, () => put(`<< /Type /Pages /Count ${pages} /Kids [${kids}] >>`));
  for (let i = 0; i < pages; i++) {
    const [page, content, img] = [3 + i * 3, 4 + i * 3, 5 + i * 3];
    obj(page, () =>
      put(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pw} ${ph}] /Contents ${content} 0 R ` +
          `/Resources << /XObject << /Im0 ${img} 0 R >> >> >>`,
      ),
    );
    const ops = `q ${pw} 0 0 ${ph} 0 0 cm /Im0 Do Q`;
    obj(content, () => put(`<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`));
    obj(img, () => {
      put(
        `<< /Type /XObject /Subtype /Image /Width ${w} /Height ${h} /ColorSpace /DeviceRGB /BitsPerComponent 8 ` +
          `/Filter /DCTDecode /Length ${bytes.length} >>\nstream\n`,
      );
      put(bytes);
      put("\nendstream");
    });
  }
  const count = 2 + pages * 3;
  const xref = at;
  put(`xref\n0 ${count + 1}\n0000000000 65535 f \n`);
  for (let n = 1; n <= count; n++) put(`${String(offsets[n]).padStart(10, "0")} 00000 n \n`);
  put(`trailer\n<< /Size ${count + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  closeSync(fd);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "large-ocr-"));
  source = join(dir, "book.pdf");
  jpeg = join(dir, "page.jpg");
  const t0 = Date.now();
  const png = join(dir, "page");
  execFileSync("pdftoppm", ["-r", "300", "-singlefile", "-png", corpusPath("scans/ocrmypdf-c02-22.pdf"), png]);
  // light Gaussian noise: no two 8×8 blocks alike, so each page's JPEG is ~2.4 MB (measured) and the book ~300 MB
  execFileSync("convert", [`${png}.png`, "-attenuate", "0.3", "+noise", "Gaussian", "-quality", "95", jpeg]);
  rmSync(`${png}.png`);
  const [w, h] = execFileSync("identify", ["-format", "%w %h", jpeg], { encoding: "utf8" }).split(" ").map(Number);
  writeScanPdf(source, jpeg, w!, h!, PAGES);
  tGenerate = Date.now() - t0;
  files = createServer((req, res) => {
    if (req.url !== "/book.pdf") return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/pdf", "content-length": String(statSync(source).size) });
    createReadStream(source).pipe(res);
  });
  await new Promise<void>((r) => files.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  server = await startDevServer(
    { API_KEYS: `${KEY}:ocr`, ALLOW_PRIVATE_IMPORTS: "true", NATIVE_MEMORY_MB: String(NATIVE_MEMORY_MB) },
    scaled(300_000),
  );
}, scaled(600_000));

afterAll(async () => {
  await server?.stop();
  await new Promise<void>((r) => (files ? (files.close(() => r()), files.closeAllConnections()) : r()));
  if (dir) rmSync(dir, { recursive: true, force: true });
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
    const memory = await watchServerMemory(server.pid);
    const cc = sdk(KEY, server.base);
    const t1 = Date.now();
    const created = await cc.jobs.create({
      tasks: {
        in: { operation: "import/url", url: `${base}/book.pdf` },
        ocr: { operation: "pdf/ocr", input: "in", language: ["eng"], pages: `1,${PAGES}` },
        out: { operation: "export/url", input: "ocr" },
      },
    } as unknown as JobBody); // an operation beyond the SDK's union
    const job = await pollJob(cc, created.id);
    const tJob = Date.now() - t1;
    expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.code, t.message]))).toBe("finished");
    const task = job.tasks.find((t) => t.name === "ocr")!;
    expect(task.engine).toBe("ocrmypdf");
    expect((task.result as { ocr: unknown }).ocr).toMatchObject({ pages: [1, PAGES], skipped_pages_with_text: [] });
    const [f] = cc.jobs.getExportUrls(job);
    const t2 = Date.now();
    const res = await fetch(f!.url!);
    expect(res.status).toBe(200);
    const out = join(dir, "book-ocr.pdf");
    await pipeline(Readable.fromWeb(res.body as never), createWriteStream(out));
    const tDownload = Date.now() - t2;
    const m = memory.stop();
    console.log(
      `large-ocr: ${(size / MB).toFixed(0)} MB scanned book (${PAGES} pages; generated in ${(tGenerate / 1000).toFixed(1)} s) ` +
        `→ ${(statSync(out).size / MB).toFixed(0)} MB; job ${(tJob / 1000).toFixed(1)} s, download ${(tDownload / 1000).toFixed(1)} s; ` +
        `workerd RSS idle ${(m.workerd.idle / MB).toFixed(0)} MB, peak ${(m.workerd.peak / MB).toFixed(0)} MB ` +
        `(+${((m.workerd.peak - m.workerd.idle) / MB).toFixed(0)} MB); native server RSS idle ${(m.native.idle / MB).toFixed(0)} MB, ` +
        `peak ${(m.native.peak / MB).toFixed(0)} MB (+${((m.native.peak - m.native.idle) / MB).toFixed(0)} MB)`,
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
    // neither side of the native wire held the book (the slow project's bound: 40% of the file)
    expect(m.workerd.peak - m.workerd.idle).toBeLessThan(0.4 * size);
    expect(m.native.peak - m.native.idle).toBeLessThan(0.4 * size);
    rmSync(out);
  });
});
