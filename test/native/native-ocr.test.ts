/**
 * pdf/ocr's native twin (issue 49): OCRmyPDF on the native engine (container/engines/ocrmypdf.ts, row "ocrmypdf",
 * handler operations/pdf/ocr-native.ts) for what the page-by-page OCR cannot hold, reached through the runner's routing
 * (runner/execute.ts) with the production table: WebAssembly rows first, then the native ones.
 *
 * - OCRmyPDF's own multipage.pdf, whose 2160 pt page 2 is over PDFium's 2.2 MP even at 72 ppi: the OCR rows' handler
 *   answers OVER_BUDGET and the task goes to OCRmyPDF, which reads every page at its images' resolution.
 * - A generated 8-page scan of ~40 MiB (over pdf-lib's 16 MiB, so the OCR rows are not even candidates), streamed both
 *   ways (the threshold lowered to 64 KiB, as in native-pdf-twins.test.ts).
 * - Hostile and broken PDFs, a wrong password, a page that does not exist, a language not installed: codes.
 *
 * Oracles: pdfinfo (pages, sizes), pdftotext (the text layer), pdffonts (which pages carry text), Debian's tesseract on
 * pdftoppm's renderings (test/support/ocr-recall.ts), qpdf --check.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isStreamed } from "../../native-protocol/frame";
import type { PdfEngine } from "../../src/engines/kinds/pdf";
import type { EngineInstances } from "../../src/engines/registry";
import type { OperationContext, OutputFile } from "../../src/operations/types";
import { execute } from "../../src/runner/execute";
import { nodeEngines } from "../../src/runtime/node/engines";
import { corpusPath } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { MULTIPAGE_RECALL, pdfPageText, recall, stableNativeWords } from "../support/ocr-recall";
import { testContext } from "../support/pdf-helpers";
import { scaled } from "../support/time-scale";
import { fileInput } from "../support/disk-input";

let native: NativeServer;
let wasm: EngineInstances;
let scratch: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "native-ocr-"));
  wasm = nodeEngines();
  native = await startNativeEngine();
}, scaled(120_000));

afterAll(async () => {
  await native?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The production table with the native rows; inputs and answers over `over` bytes travel streamed. */
function context(over?: number): OperationContext {
  return testContext({
    engines: { ...wasm, ...native.engines(over ? { streamOver: over } : {}) },
    ...(over ? { settings: { nativeStreamBytes: over } as never } : {}),
  });
}

/** An output written to a file of this test. */
async function saved(f: OutputFile): Promise<string> {
  const bytes = f.data instanceof Uint8Array ? f.data : new Uint8Array(await new Response(f.data.stream).arrayBuffer());
  const path = join(scratch, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(path, bytes);
  return path;
}

/** Each page's "size" and "rot" lines of pdfinfo. */
const frames = (path: string) =>
  execFileSync("pdfinfo", ["-f", "1", "-l", "9999", path], { encoding: "utf8" })
    .split("\n")
    .filter((l) => /^Page\s+\d+ (size|rot):/.test(l));

/** The pages pdffonts lists a font on (a text layer names one). */
const pagesWithFonts = (path: string, count: number) =>
  Array.from({ length: count }, (_, i) => i + 1).filter(
    (n) =>
      execFileSync("pdffonts", ["-f", String(n), "-l", String(n), path], { encoding: "utf8" })
        .trim()
        .split("\n").length > 2,
  );

describe("pdf/ocr on the native OCRmyPDF (issue 49)", () => {
  it(
    "OCRmyPDF's multipage.pdf (page 2 is 2160 × 2160 pt): handed on from the OCR rows, every page without text read, sizes kept",
    async () => {
      const src = corpusPath("scans/ocrmypdf-multipage.pdf");
      const r = await execute("pdf/ocr", { language: ["eng"] }, [fileInput(src, "multipage.pdf")], context());
      expect(r.engine.name).toBe("ocrmypdf");
      expect(r.engine.version).toMatch(/^14\.\d+\.\d+$/);
      const out = await saved(r.out.files[0]!);
      // the pages as they were: sizes and rotations (pdfinfo), no page rasterized away (its images listed alike)
      expect(frames(out)).toEqual(frames(src));
      execFileSync("qpdf", ["--check", out]);
      // page 4 carries text (pdffonts): left alone; every other page OCRed and now names a font
      expect(pagesWithFonts(src, 6)).toEqual([4]);
      expect(r.out.extra).toMatchObject({
        ocr: { file: "multipage.pdf", pages: [1, 2, 3, 5, 6], skipped_pages_with_text: [4] },
        language: ["eng"],
      });
      expect(pagesWithFonts(out, 6)).toEqual([1, 2, 3, 4, 5, 6]);
      // what Debian's tesseract reads alike at the page's own image resolution (what OCRmyPDF renders at: pdfimages)
      // and at 150 ppi; page 2's 40 pt digits read differently at every resolution, so only its stable words count
      const ppi: Record<number, number> = { 1: 150, 2: 300, 3: 96, 5: 72, 6: 147 };
      for (const page of [1, 2, 3, 5, 6]) {
        const truth = stableNativeWords(src, page, [ppi[page]!, 150]);
        const got = recall(truth, pdfPageText(out, page));
        expect(got, `page ${page}: ${truth} / ${pdfPageText(out, page)}`).toBeGreaterThanOrEqual(
          MULTIPAGE_RECALL[page]!,
        );
      }
      expect(pdfPageText(out, 2)).toMatch(/pixels/);
      expect(pdfPageText(out, 2)).toMatch(/megapixels/);
      // page 4's own text unchanged
      expect(pdfPageText(out, 4)).toBe(pdfPageText(src, 4));
    },
    scaled(180_000),
  );

  it(
    "a 40 MiB scan (over pdf-lib's 16 MiB): only OCRmyPDF takes it, streamed both ways; the pages asked are OCRed",
    async () => {
      // eight pages, each the c02-22 scan at 300 ppi with light noise (values 249–255, white to tesseract's threshold),
      // so no two images are alike and the file does not compress: img2pdf embeds each PNG as it is
      const big = join(scratch, "book.pdf");
      const c02 = join(scratch, "c02");
      execFileSync("pdftoppm", ["-r", "300", "-singlefile", "-png", corpusPath("scans/ocrmypdf-c02-22.pdf"), c02]);
      execFileSync(
        "/usr/bin/python3",
        [
          "-c",
          `import sys, random, img2pdf
from PIL import Image
src = Image.open(sys.argv[1]).convert("RGB")
light = bytes(249 + b % 7 for b in range(256))
names = []
for i in range(8):
    raw = random.Random(i).randbytes(src.size[0] * src.size[1] * 3).translate(light)
    noise = Image.frombytes("RGB", src.size, raw)
    img = Image.composite(src, noise, src.convert("L").point(lambda v: 255 if v < 200 else 0))
    name = f"{sys.argv[2]}-{i}.png"
    img.save(name, dpi=(300, 300), compress_level=1)
    names.append(name)
open(sys.argv[3], "wb").write(img2pdf.convert(names))`,
          `${c02}.png`,
          join(scratch, "page"),
          big,
        ],
        { timeout: 120_000 },
      );
      const size = statSync(big).size;
      expect(size).toBeGreaterThan(20 * 1024 * 1024);
      const t0 = Date.now();
      const r = await execute("pdf/ocr", { pages: "2,7" }, [fileInput(big)], context(64 * 1024));
      const ms = Date.now() - t0;
      expect(r.engine.name).toBe("ocrmypdf");
      expect(isStreamed(r.out.files[0]!.data)).toBe(true);
      const out = await saved(r.out.files[0]!);
      expect(frames(out)).toEqual(frames(big));
      expect(r.out.extra).toMatchObject({ ocr: { pages: [2, 7], skipped_pages_with_text: [] } });
      expect(pagesWithFonts(out, 8)).toEqual([2, 7]);
      const truth = stableNativeWords(corpusPath("scans/ocrmypdf-c02-22.pdf"), 1, [300, 150]);
      for (const page of [2, 7]) expect(recall(truth, pdfPageText(out, page))).toBeGreaterThanOrEqual(0.9);
      expect(pdfPageText(out, 3).trim()).toBe("");
      console.log(`native OCR of a ${(size / 2 ** 20).toFixed(1)} MiB scan (2 of 8 pages): ${ms} ms`);
    },
    scaled(180_000),
  );
});

describe("the native OCRmyPDF's options", () => {
  it(
    "auto_orient (--rotate-pages): a scan turned by 90° gets /Rotate 90, reported as such, and its words are found",
    async () => {
      // tesseract's eurotext scan (300 ppi) turned 90° counter-clockwise by Pillow, wrapped in a PDF by img2pdf
      const turned = join(scratch, "turned.pdf");
      execFileSync(
        "/usr/bin/python3",
        [
          "-c",
          `import sys, img2pdf
from PIL import Image
im = Image.open(sys.argv[1])
im.rotate(90, expand=True).save(sys.argv[2] + ".png", dpi=(300, 300))
open(sys.argv[2], "wb").write(img2pdf.convert(sys.argv[2] + ".png"))`,
          corpusPath("scans/tesseract-eurotext.tif"),
          turned,
        ],
        { timeout: 60_000 },
      );
      const r = await (native.engines().ocrmypdf as PdfEngine).ocr!({
        input: { data: new Uint8Array(readFileSync(turned)), filename: "turned.pdf" },
        languages: ["eng"],
        rotatePages: true,
      });
      if (!r.ok) expect.fail(`${r.error.code} ${r.error.message}`);
      expect(r.report).toMatchObject({ pageCount: 1, ocred: [1], rotated: { 1: 90 } });
      const out = await saved({ filename: "out.pdf", data: r.data });
      expect(frames(out)).toContainEqual(expect.stringMatching(/^Page\s+1 rot:\s+90$/));
      const truth = execFileSync("tesseract", [corpusPath("scans/tesseract-eurotext.tif"), "-", "-l", "eng"], {
        encoding: "utf8",
        env: { ...process.env, OMP_THREAD_LIMIT: "1" },
        stdio: ["ignore", "pipe", "ignore"],
      });
      // the first two lines (English) as Debian's tesseract reads the upright scan
      expect(recall(truth.split("\n").slice(0, 2).join(" "), pdfPageText(out, 1))).toBeGreaterThanOrEqual(0.9);
    },
    scaled(120_000),
  );
});

describe("the native OCRmyPDF's force_ocr", () => {
  it(
    "a page OCRed before is left alone; force_ocr (--redo-ocr) reads it again, its text layer replaced, not doubled, its image kept",
    async () => {
      const engine = native.engines().ocrmypdf as PdfEngine;
      const src = corpusPath("scans/ocrmypdf-c02-22.pdf");
      const run = async (data: Uint8Array, redo: boolean) => {
        const r = await engine.ocr!({ input: { data, filename: "scan.pdf" }, languages: ["eng"], redo });
        if (!r.ok) expect.fail(`${r.error.code} ${r.error.message}`);
        return { report: r.report, path: await saved({ filename: "out.pdf", data: r.data }) };
      };
      const first = await run(new Uint8Array(readFileSync(src)), false);
      expect(first.report).toMatchObject({ ocred: [1], skippedWithText: [] });
      const again = await run(new Uint8Array(readFileSync(first.path)), false);
      expect(again.report).toMatchObject({ ocred: [], skippedWithText: [1] });
      const redone = await run(new Uint8Array(readFileSync(first.path)), true);
      expect(redone.report).toMatchObject({ ocred: [1], skippedWithText: [] });
      const words = (p: string) => pdfPageText(p, 1).split(/\s+/).filter(Boolean).length;
      expect(words(first.path)).toBeGreaterThan(100);
      // one text layer: the words once (tesseract's reading of the page may split or join a few), not twice (×2)
      const ratio = words(redone.path) / words(first.path);
      expect(ratio, `${words(redone.path)} words after --redo-ocr, ${words(first.path)} before`).toBeGreaterThan(0.8);
      expect(ratio, `${words(redone.path)} words after --redo-ocr, ${words(first.path)} before`).toBeLessThan(1.3);
      // the page content kept: the same image, at the same size and resolution (pdfimages -list), not a rasterized page
      const images = (p: string) =>
        execFileSync("pdfimages", ["-list", p], { encoding: "utf8" })
          .split("\n")
          .slice(2)
          .filter(Boolean)
          // page, num, type, width, height, color, comp, bpc, enc; x-ppi, y-ppi, size (not the object number)
          .map((l) => l.trim().split(/\s+/))
          .map((c) => [...c.slice(0, 9), ...c.slice(12, 15)].join(" "));
      expect(images(redone.path)).toEqual(images(src));
      expect(frames(redone.path)).toEqual(frames(src));
    },
    scaled(120_000),
  );
});

describe("the native OCRmyPDF's failures are task errors with codes", () => {
  const ocr = (rel: string, extra: Partial<Parameters<NonNullable<PdfEngine["ocr"]>>[0]> = {}) =>
    (native.engines().ocrmypdf as PdfEngine).ocr!({
      input: { data: new Uint8Array(readFileSync(corpusPath(rel))), filename: basename(rel) },
      languages: ["eng"],
      ...extra,
    });

  it(
    "a header and %%EOF only → OPEN_FAILED; a 35000² px page image (1,225 MP) is not rendered, reported too large; as a task OVER_BUDGET",
    async () => {
      expect(await ocr("broken/ocrmypdf-invalid.pdf")).toMatchObject({ ok: false, error: { code: "OPEN_FAILED" } });
      // OCRmyPDF's --skip-big: the page is not rendered at all (it would be 1,225 MP); the PDF comes back OCR-less
      const bomb = await ocr("broken/ocrmypdf-hugemono.pdf");
      if (!bomb.ok) expect.fail(`${bomb.error.code} ${bomb.error.message}`);
      expect(bomb.report).toMatchObject({ pageCount: 1, ocred: [], skippedTooLarge: [1] });
      const out = await saved({ filename: "bomb.pdf", data: bomb.data });
      expect(frames(out)).toEqual(frames(corpusPath("broken/ocrmypdf-hugemono.pdf")));
      expect(pagesWithFonts(out, 1)).toEqual([]);
      // as a task: every OCR engine found the page too large (the OCR rows at 72 ppi, OCRmyPDF over 100 MP), nothing
      // was read, so the task is OVER_BUDGET naming the page and OCRmyPDF's limit
      const task = await execute(
        "pdf/ocr",
        {},
        [fileInput(corpusPath("broken/ocrmypdf-hugemono.pdf"))],
        context(),
      ).catch((e: unknown) => e);
      expect(task).toMatchObject({ code: "OVER_BUDGET" });
      expect((task as Error).message).toMatch(
        /page\(s\) 1 would render over 100 megapixels, more than the ocrmypdf engine/,
      );
    },
    scaled(120_000),
  );

  it(
    "a truncated scan → a code, not a crash; a page past the end → INVALID_PAGES; an unknown language → UNSUPPORTED",
    async () => {
      const whole = readFileSync(corpusPath("scans/ocrmypdf-c02-22.pdf"));
      const cut = await (native.engines().ocrmypdf as PdfEngine).ocr!({
        input: { data: new Uint8Array(whole.subarray(0, whole.length >> 1)), filename: "cut.pdf" },
        languages: ["eng"],
      });
      // qpdf cannot recover it ("unable to find trailer dictionary")
      expect(cut).toMatchObject({ ok: false, error: { code: "OPEN_FAILED" } });
      expect(await ocr("scans/ocrmypdf-c02-22.pdf", { pages: "2" })).toMatchObject({
        ok: false,
        error: { code: "INVALID_PAGES" },
      });
      expect(await ocr("scans/ocrmypdf-c02-22.pdf", { languages: ["zzz"] })).toMatchObject({
        ok: false,
        error: { code: "UNSUPPORTED" },
      });
    },
    scaled(120_000),
  );

  it(
    "a run past the call's time limit → TIMEOUT (tesseract's own timeout is the call's: no page copied unread)",
    async () => {
      // page 2 of multipage.pdf is 81 MP at its image's 300 ppi: ~10 s of tesseract alone, over a 3 s call
      const r = await (native.engines({ timeoutMs: 3000 }).ocrmypdf as PdfEngine).ocr!({
        input: { data: new Uint8Array(readFileSync(corpusPath("scans/ocrmypdf-multipage.pdf"))), filename: "m.pdf" },
        languages: ["eng"],
        pages: "2",
      });
      expect(r).toMatchObject({ ok: false, error: { code: "TIMEOUT" } });
    },
    scaled(60_000),
  );

  it(
    "an encrypted PDF: a wrong password → INVALID_PASSWORD; the right one OCRs it, written unencrypted",
    async () => {
      const rel = "pdf-encrypted/qpdf-enc-XI-R6-V5-U_view-O_master.pdf";
      const locked = (password: string) =>
        (native.engines().ocrmypdf as PdfEngine).ocr!({
          input: { data: new Uint8Array(readFileSync(corpusPath(rel))), filename: "locked.pdf", password },
          languages: ["eng"],
        });
      expect(await locked("wrong")).toMatchObject({ ok: false, error: { code: "INVALID_PASSWORD" } });
      const r = await locked("view");
      if (!r.ok) expect.fail(`${r.error.code} ${r.error.message}`);
      const out = await saved({ filename: "out.pdf", data: r.data });
      expect(execFileSync("qpdf", ["--show-encryption", out], { encoding: "utf8" })).toContain("File is not encrypted");
      const count = Number(
        /Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", ["-upw", "view", corpusPath(rel)], { encoding: "utf8" }))![1],
      );
      expect(r.report.pageCount).toBe(count);
      // its pages carry text (pdffonts), so OCRmyPDF leaves every one alone and says so
      const withText = pagesWithFonts(out, count);
      expect(r.report.skippedWithText).toEqual(withText);
      expect(r.report.ocred).toEqual(
        Array.from({ length: count }, (_, i) => i + 1).filter((n) => !withText.includes(n)),
      );
    },
    scaled(120_000),
  );
});
