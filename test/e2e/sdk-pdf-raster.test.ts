/**
 * Issue 49 end to end through the official SDK under `npm start` (workerd, R2, the native engine): pdf → images that
 * PDFium in the Worker hands on — an A4 page at pixel_density 300 (8.7 MP, over its 2.2 MP a page) and a PDF over its
 * 12 MiB — finish on the native pdftoppm (row poppler-raster).
 * Inputs: the corpus's cloudconvert-input.pdf (A4); 14 copies of pdfjs-tracemonkey.pdf joined by qpdf (14 MB, letter).
 * Oracles: pdfinfo (page size in points: the image is that × density / 72, rounded up), identify (the images' sizes).
 */
import { execFileSync } from "node:child_process";
import { createReadStream, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RASTER_BUDGET } from "../../src/engines/pdfium/types";
import { corpusPath } from "../support/corpus";
import { type JobBody, sdk } from "../support/sdk";
import { sharedServer, type SharedServer } from "../support/servers";

let server: SharedServer;
let dir: string;
beforeAll(() => {
  server = sharedServer("guarded");
  dir = mkdtempSync(join(tmpdir(), "sdk-pdf-raster-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Uploads `path`, converts it with `convert`'s parameters, exports it; the convert task's engine and the files. */
async function convertPdf(path: string, name: string, convert: Record<string, unknown>) {
  const cc = sdk("key-a", server.base);
  let job = await cc.jobs.create({
    tasks: {
      up: { operation: "import/upload" },
      conv: { operation: "convert", input: "up", input_format: "pdf", ...convert },
      out: { operation: "export/url", input: "conv" },
    },
  } as unknown as JobBody);
  await cc.tasks.upload(
    job.tasks.find((t) => t.name === "up")!,
    createReadStream(path),
    name,
  );
  job = await cc.jobs.wait(job.id);
  expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.status, t.message]))).toBe("finished");
  const files = [];
  for (const f of cc.jobs.getExportUrls(job)) {
    const out = join(dir, f.filename!);
    writeFileSync(out, new Uint8Array(await (await fetch(f.url!)).arrayBuffer()));
    files.push({ name: f.filename!, path: out });
  }
  return { engine: job.tasks.find((t) => t.name === "conv")!.engine, files };
}

/** pdfinfo's size of `page` in points, × `density` / 72 rounded up (pdftoppm's and PDFium's rule). */
function pixelsAt(path: string, page: number, density: number): string {
  const info = execFileSync("pdfinfo", ["-f", `${page}`, "-l", `${page}`, path], { encoding: "utf8" });
  const m = new RegExp(`^Page\\s+${page} size:\\s+([\\d.]+) x ([\\d.]+)`, "m").exec(info)!;
  return `${Math.ceil((Number(m[1]) * density) / 72)} ${Math.ceil((Number(m[2]) * density) / 72)}`;
}
const identify = (path: string) => execFileSync("identify", ["-format", "%m %w %h", path], { encoding: "utf8" });

describe("pdf → images over PDFium's budget through the SDK (issue 49)", () => {
  it("an A4 corpus PDF → jpg at pixel_density 300: poppler-raster, each page pdfinfo's size × 300/72", async () => {
    const pdf = corpusPath("pdf/cloudconvert-input.pdf");
    const r = await convertPdf(pdf, "a4.pdf", { output_format: "jpg", pixel_density: 300, pages: "1-2" });
    expect(r.engine).toBe("poppler-raster");
    expect(r.files.map((f) => f.name)).toEqual(["a4-1.jpg", "a4-2.jpg"]);
    for (const [i, f] of r.files.entries()) expect(identify(f.path)).toBe(`JPEG ${pixelsAt(pdf, i + 1, 300)}`);
  }, 300_000);

  it("a 14 MB PDF (over PDFium's 12 MiB) → png pages 1-2: poppler-raster, two pages at 150 ppi", async () => {
    const links = Array.from({ length: 14 }, (_, i) => {
      const l = join(dir, `copy-${i}.pdf`);
      symlinkSync(corpusPath("pdf/pdfjs-tracemonkey.pdf"), l);
      return l;
    });
    const big = join(dir, "big.pdf");
    execFileSync("qpdf", ["--empty", "--pages", ...links, "--", big]);
    for (const l of links) rmSync(l);
    expect(statSync(big).size).toBeGreaterThan(DEFAULT_RASTER_BUDGET.maxBytes);
    const r = await convertPdf(big, "big.pdf", { output_format: "png", pages: "1-2" });
    expect(r.engine).toBe("poppler-raster");
    expect(r.files.map((f) => f.name)).toEqual(["big-1.png", "big-2.png"]);
    for (const [i, f] of r.files.entries()) expect(identify(f.path)).toBe(`PNG ${pixelsAt(big, i + 1, 150)}`);
    rmSync(big);
  }, 300_000);
});
