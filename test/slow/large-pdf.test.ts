/**
 * Issue 49's large PDF (the `slow` project, `npm run test:slow`; never in `npm test`): a generated PDF of about
 * LARGE_PDF_BYTES (default 1 GB = 10^9 bytes: ten pages, each a full-page noise JPEG made by ImageMagick, the way a
 * scanner's PDF is made, and a line of text "Page n") served from loopback goes import/url → pdf/split-pages →
 * export/url through the running Worker and the native engine. Over pdf-lib's 20 MiB the task goes to the native qpdf,
 * and over 64 MiB it travels on the framed wire both ways: R2 → qpdf's folder → R2, held whole by neither side.
 *
 * Every native tool runs under a 512 MB address-space limit (NATIVE_MEMORY_MB), below the file's size, so the job
 * finishing shows that no tool held the file whole (the "same test with the native engine's memory limit
 * lowered").
 *
 * The same file then goes import/url (with a 14-page corpus PDF) → merge → export/url: over pdf-lib's budget the merge
 * goes to the native qpdf, both inputs streamed to its folder in one framed call (NATIVE_STREAM_BYTES is lowered to
 * 512 KiB here, under the small one's size) and the merged PDF streamed back.
 *
 * Oracles: Debian's pdfinfo (one page per part, the parts' count the source's page count; the merged PDF's pages the
 * sum) and pdftotext (page 1's text kept; the merged pages in order) on the files export/url serves; the parts' sizes against the source; the resident memory (VmRSS from
 * /proc, every 250 ms) of the service's workerd and of the native engine's server, from before the job until the last
 * download has ended.
 */
import { execFileSync } from "node:child_process";
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { growthLine, mb, runSlowJob, secs, slowRig } from "../support/slow-job";

const TARGET = Number(process.env.LARGE_PDF_BYTES ?? 1e9);
const PAGES = 10;
/** The side of each page's noise JPEG: ~1.7 bytes a pixel at quality 92 (measured), so PAGES of them make TARGET. */
const SIDE = Math.round(Math.sqrt(TARGET / PAGES / 1.7));
/**
 * Most either process may grow over its idle size during the job: 40% of the file, the slow project's bound
 * (large-transfer.test.ts: miniflare's R2 simulator digests every put in JavaScript). A whole-file buffer on either
 * side of the native wire shows as +1 GB.
 */
const MAX_GROWTH = 0.4 * TARGET;
/** The native tools' memory limit, MB (NATIVE_MEMORY_MB: RLIMIT_AS of each run), below the file's size. */
const NATIVE_MEMORY_MB = 512;
const KEY = "key-pdf";
/** The native stream threshold of this server, bytes: under the small PDF's size. */
const STREAM_BYTES = 512 * 1024;
/** A small corpus PDF merged after the large one (14 pages, 1 MB). */
const SMALL = corpusPath("pdf/pdfjs-tracemonkey.pdf");
const MB = 1e6;

let source: string;

/**
 * Writes a PDF of PAGES pages, each drawing `jpeg` (w × h px, DCTDecode, one image object a page) over the whole page
 * at 72 dpi and the text "Page n" in Helvetica; the JPEG's bytes are copied from disk, never held more than once.
 */
function writePdf(path: string, jpeg: string, w: number, h: number): void {
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
  const image = readFileSync(jpeg);
  const count = 3 + PAGES * 3;
  put("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n");
  obj(1, () => put("<< /Type /Catalog /Pages 2 0 R >>"));
  const kids = Array.from({ length: PAGES }, (_, i) => `${4 + i * 3} 0 R`).join(" ");
  obj(2, () => put(`<< /Type /Pages /Count ${PAGES} /Kids [${kids}] >>`));
  obj(3, () => put("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"));
  for (let i = 0; i < PAGES; i++) {
    const [page, content, img] = [4 + i * 3, 5 + i * 3, 6 + i * 3];
    obj(page, () =>
      put(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Contents ${content} 0 R ` +
          `/Resources << /XObject << /Im0 ${img} 0 R >> /Font << /F1 3 0 R >> >> >>`,
      ),
    );
    const ops = `q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q BT /F1 96 Tf 1 0 0 rg 200 200 Td (Page ${i + 1}) Tj ET`;
    obj(content, () => put(`<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`));
    obj(img, () => {
      put(
        `<< /Type /XObject /Subtype /Image /Width ${w} /Height ${h} /ColorSpace /DeviceRGB /BitsPerComponent 8 ` +
          `/Filter /DCTDecode /Length ${image.length} >>\nstream\n`,
      );
      put(image);
      put("\nendstream");
    });
  }
  const xref = at;
  put(`xref\n0 ${count + 1}\n0000000000 65535 f \n`);
  for (let n = 1; n <= count; n++) put(`${String(offsets[n]).padStart(10, "0")} 00000 n \n`);
  put(`trailer\n<< /Size ${count + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  closeSync(fd);
}

// every native tool runs under a 512 MB address-space limit (RLIMIT_AS), below the file's size: a tool holding the
// file whole fails, so the job's success shows that nothing is held whole (issue 49)
// NATIVE_STREAM_BYTES lowered to 512 KiB: the merge's small input (1 MB) is streamed too, so one framed call carries
// two streams through workerd (the split's parts, ~100 MB each, stream at either threshold)
const rig = slowRig({
  name: "pdf",
  key: KEY,
  user: "pdf",
  nativeMemoryMb: NATIVE_MEMORY_MB,
  env: { NATIVE_STREAM_BYTES: String(STREAM_BYTES) },
  generate(dir) {
    source = join(dir, "scan.pdf");
    const jpeg = join(dir, "noise.jpg");
    execFileSync("convert", ["-size", `${SIDE}x${SIDE}`, "xc:", "+noise", "Random", "-quality", "92", jpeg]);
    writePdf(source, jpeg, SIDE, SIDE);
    rmSync(jpeg);
    const type = "application/pdf";
    return { "/scan.pdf": { path: source, type }, "/small.pdf": { path: SMALL, type } };
  },
});

const pdfinfo = (path: string) => execFileSync("pdfinfo", [path], { encoding: "utf8" });
const pageCount = (path: string) => Number(/Pages:\s+(\d+)/.exec(pdfinfo(path))![1]);
const pageText = (path: string, page: number) =>
  execFileSync("pdftotext", ["-f", String(page), "-l", String(page), path, "-"], { encoding: "utf8" })
    .replace(/\s+/g, " ")
    .trim();

describe(`a ${(TARGET / MB).toFixed(0)} MB PDF through the native qpdf`, () => {
  it("import/url → pdf/split-pages → export/url: one page a part, page 1's text kept; neither workerd nor the native server grows by the file", async () => {
    const size = statSync(source).size;
    expect(pdfinfo(source)).toMatch(new RegExp(`Pages:\\s+${PAGES}\\b`));
    const run = await runSlowJob(rig, {
      in: { operation: "import/url", url: `${rig.base}/scan.pdf` },
      split: { operation: "pdf/split-pages", input: "in" },
      out: { operation: "export/url", input: "split" },
    });
    expect(run.task("split").engine).toBe("qpdf");
    expect(run.files).toHaveLength(PAGES);
    const parts = run.files.map((f) => f.path);
    const { workerd, native } = run.memory;
    const total = parts.reduce((n, p) => n + statSync(p).size, 0);
    console.log(
      `large-pdf: ${mb(size)} MB PDF (${PAGES} pages of ${SIDE}×${SIDE} noise JPEG; generated in ` +
        `${secs(rig.generateMs)} s) → ${PAGES} parts, ${mb(total)} MB; job ${secs(run.jobMs)} s, ` +
        `downloads ${secs(run.downloadMs)} s; ${growthLine(run.memory)}`,
    );
    for (const p of parts) expect(pdfinfo(p)).toMatch(/Pages:\s+1\b/);
    expect(parts.map((p) => p.replace(/.*-(\d+)\.pdf$/, "$1"))).toEqual(
      Array.from({ length: PAGES }, (_, i) => String(i + 1)),
    );
    expect(execFileSync("pdftotext", [parts[0]!, "-"], { encoding: "utf8" }).trim()).toBe("Page 1");
    // each part holds its page's whole image: together about the source
    expect(total).toBeGreaterThan(size * 0.99);
    expect(workerd.peak - workerd.idle).toBeLessThan(MAX_GROWTH);
    expect(native.peak - native.idle).toBeLessThan(MAX_GROWTH);
  });
  it("import/url ×2 → merge → export/url: the large PDF then a corpus one, pages 10 + 14 in order; neither process grows by the file", async () => {
    const size = statSync(source).size;
    const run = await runSlowJob(
      rig,
      {
        big: { operation: "import/url", url: `${rig.base}/scan.pdf` },
        small: { operation: "import/url", url: `${rig.base}/small.pdf` },
        merged: { operation: "merge", input: ["big", "small"], output_format: "pdf" },
        out: { operation: "export/url", input: "merged" },
      },
      { pathOf: () => join(rig.dir, "merged.pdf") },
    ); // not the source's name, whatever the export's
    expect(run.task("merged").engine).toBe("qpdf");
    expect(run.files).toHaveLength(1);
    const path = run.files[0]!.path;
    const m = run.memory;
    console.log(
      `large-pdf merge: ${mb(size)} MB + ${(statSync(SMALL).size / MB).toFixed(1)} MB → ` +
        `${mb(statSync(path).size)} MB; job ${secs(run.jobMs)} s; ${growthLine(m)}`,
    );
    expect(statSync(SMALL).size).toBeGreaterThan(STREAM_BYTES);
    expect(pageCount(path)).toBe(PAGES + pageCount(SMALL));
    expect(pageText(path, 1)).toBe("Page 1");
    expect(pageText(path, PAGES)).toBe(`Page ${PAGES}`);
    expect(pageText(path, PAGES + 1)).toBe(pageText(SMALL, 1));
    expect(statSync(path).size).toBeGreaterThan(size);
    expect(m.workerd.peak - m.workerd.idle).toBeLessThan(MAX_GROWTH);
    expect(m.native.peak - m.native.idle).toBeLessThan(MAX_GROWTH);
    rmSync(path);
  });
});
