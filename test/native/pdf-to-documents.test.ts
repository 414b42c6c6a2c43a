/**
 * PDF to text and editable formats (issue 32) through the operations, with the native engine as a local process:
 * txt (pdftotext), html (pdftohtml; an `engine: pdf2htmlex` pin served with a warning), docx/doc/odt/rtf (LibreOffice
 * from pdftohtml's HTML), svg/eps per page and ps (pdftocairo), emf/wmf per page (Draw's PDF import), and the raster
 * outputs. Oracles: pdftotext of the source PDF (every page's words present and in order), pdfinfo, unzip of the
 * packages, the files' own signatures, identify. Issue 49: a PDF over 64 MiB (68 copies of a corpus paper joined by
 * qpdf) streams to poppler's folder, under a 64 MiB address-space limit for the tools, and its text is pdftotext's.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isStreamed } from "../../native-protocol/frame";
import { NATIVE_MAX_BYTES } from "../../src/engines/native/rows";
import { nodeEngines } from "../../src/runtime/node/engines";
import { execute } from "../../src/runner/execute";
import { corpusPath } from "../support/corpus";
import { nativeEngineForFile } from "../support/native-engine";
import { corpusInput, dataOf, expectTaskError, streamOnlyInput, testContext } from "../support/pdf-helpers";
import { sofficeText, unzipText } from "../support/office-oracles";
import { scaled } from "../support/time-scale";

const native = nativeEngineForFile();
const ctx = () => testContext({ engines: { ...nodeEngines(), ...native.engines() } });

const dir = mkdtempSync(join(tmpdir(), "pdf-docs-"));
const convert = (rel: string, params: Record<string, unknown>) => execute("convert", params, [corpusInput(rel)], ctx());
const text = (d: Uint8Array) => new TextDecoder().decode(d);
const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const save = (d: Uint8Array, name: string) => {
  const p = join(dir, name);
  writeFileSync(p, d);
  return p;
};

/** Share of the source's words found in the same order in `got` (longest common subsequence over words). */
function inOrderRecall(source: string[], got: string[]): number {
  // LCS by dynamic programming over two rows (the corpus PDFs are a few thousand words)
  let prev = new Uint32Array(got.length + 1);
  for (const w of source) {
    const row = new Uint32Array(got.length + 1);
    for (let j = 1; j <= got.length; j++)
      row[j] = w === got[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, row[j - 1]!);
    prev = row;
  }
  return prev[got.length]! / Math.max(1, source.length);
}

const TWELVE = "pdf/gotenberg-pages_12.pdf";
const PAPER = "pdf/pdfjs-tracemonkey.pdf";
const sourceWords = (rel: string) => words(execFileSync("pdftotext", [corpusPath(rel), "-"], { encoding: "utf8" }));

describe("pdf → txt and html (poppler)", () => {
  it("txt: every page's words in order (pdftotext of the source), utf-8", async () => {
    const r = await convert(TWELVE, { output_format: "txt" });
    expect(r.engine.name).toBe("poppler");
    expect(r.out.files[0]!.filename).toBe("gotenberg-pages_12.txt");
    expect(inOrderRecall(sourceWords(TWELVE), words(text(dataOf(r.out.files[0]!))))).toBe(1);
    expect(r.out.extra?.pages).toBe(12);
  });

  it("txt with layout keeps columns apart by spaces (pdftotext -layout is the oracle)", async () => {
    const r = await convert(PAPER, { output_format: "txt", layout: true });
    const want = execFileSync("pdftotext", ["-layout", corpusPath(PAPER), "-"], { encoding: "utf8" });
    expect(text(dataOf(r.out.files[0]!))).toBe(want);
  });

  it("html: one file, every page's words in order, images inline; an engine pdf2htmlex pin → a warning", async () => {
    const r = await convert(PAPER, { output_format: "html", engine: "pdf2htmlex" });
    expect(r.engine.name).toBe("poppler");
    expect(r.out.files).toHaveLength(1);
    const html = text(dataOf(r.out.files[0]!));
    expect(html).not.toMatch(/<script/i);
    const plain = html.replace(/<[^>]+>/g, " ").replace(/&#160;|&nbsp;/g, " ");
    // 93 % measured: pdftohtml splits some words at font changes and ligatures
    expect(inOrderRecall(sourceWords(PAPER), words(plain))).toBeGreaterThan(0.9);
    expect(html).toMatch(/src="data:image\//);
    expect((r.out.extra?.warnings as string[]).join(" ")).toMatch(/pdf2htmlEX is not available.*pdftohtml/);
  });

  it("an encrypted PDF: INVALID_PASSWORD without the user password, the text qpdf decrypts with it", async () => {
    const rel = "pdf-encrypted/qpdf-enc-R3-V2-U_view-O_master.pdf";
    await expectTaskError(() => convert(rel, { output_format: "txt" }), "INVALID_PASSWORD");
    const r = await convert(rel, { output_format: "txt", password: "view" });
    const plain = save(new Uint8Array(), "plain.pdf");
    execFileSync("qpdf", ["--password=view", "--decrypt", corpusPath(rel), plain]);
    const want = words(execFileSync("pdftotext", [plain, "-"], { encoding: "utf8" }));
    expect(want.length).toBeGreaterThan(3);
    expect(words(text(dataOf(r.out.files[0]!)))).toEqual(want);
  });
});

describe("pdf → docx, doc, odt, rtf (LibreOffice from pdftohtml's HTML)", () => {
  it("docx of a 14-page paper: > 90 % of the source's words in order (93 % measured), its figures as pictures, not one image per page", async () => {
    const r = await convert(PAPER, { output_format: "docx", engine: "pdftron-pdf2word" });
    expect(r.engine.name).toBe("libreoffice");
    const f = r.out.files[0]!;
    expect(f.filename).toBe("pdfjs-tracemonkey.docx");
    const body = unzipText(dataOf(f), "word/document.xml");
    const plain = body.replace(/<w:tab\/>|<w:br\/>|<\/w:p>/g, " ").replace(/<[^>]+>/g, "");
    expect(inOrderRecall(sourceWords(PAPER), words(plain))).toBeGreaterThan(0.9);
    const media = execFileSync("unzip", ["-Z1", save(dataOf(f), "paper.docx")], { encoding: "utf8" })
      .split("\n")
      .filter((l) => l.startsWith("word/media/"));
    expect(media.length).toBeGreaterThan(0);
    // the text is text (above), so the pictures are the figures, not pages rendered as images
    expect((r.out.extra?.warnings as string[]).join(" ")).toMatch(/PDFTron is not available/);
  });

  it.each(["odt", "doc", "rtf"])(
    "%s of the 12-page PDF: every page's words in order (read back by the CLI)",
    async (out) => {
      const r = await convert(TWELVE, { output_format: out });
      const path = save(dataOf(r.out.files[0]!), `twelve.${out}`);
      const outDir = join(dir, `cli-${out}`);
      const back = sofficeText(path, outDir, 120_000, dir);
      expect(inOrderRecall(sourceWords(TWELVE), words(back))).toBe(1);
    },
  );
});

describe("pdf → svg, eps, ps, emf, wmf", () => {
  it("svg and eps: one file per page, each an SVG / EPS of that page (pdftotext of the page is in it)", async () => {
    const svg = await convert("pdf/pdfjs-rotation.pdf", { output_format: "svg" });
    expect(svg.out.files.map((f) => f.filename)).toEqual(["pdfjs-rotation-1.svg", "pdfjs-rotation-2.svg"]);
    for (const f of svg.out.files) expect(text(dataOf(f))).toMatch(/<svg[\s\S]*<\/svg>\s*$/);
    const eps = await convert("pdf/pdfjs-rotation.pdf", { output_format: "eps" });
    expect(eps.out.files).toHaveLength(2);
    for (const f of eps.out.files) {
      expect(text(dataOf(f).subarray(0, 30))).toMatch(/^%!PS-Adobe-3\.0 EPSF-3\.0/);
      // Ghostscript reads it back: the EPS is a valid PostScript program
      const p = save(dataOf(f), "page.eps");
      expect(spawnSync("gs", ["-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=nullpage", p]).status).toBe(0);
    }
  });

  it("`pages` chooses what is converted: svg/eps those pages' files, txt those pages' text (pdftotext -f/-l is the oracle)", async () => {
    const svg = await convert(TWELVE, { output_format: "svg", pages: "2,5-6" });
    expect(svg.out.files.map((f) => f.filename)).toEqual([
      "gotenberg-pages_12-2.svg",
      "gotenberg-pages_12-5.svg",
      "gotenberg-pages_12-6.svg",
    ]);
    expect(svg.out.extra?.pages).toBe(3);
    // each file is the page it is named after: pdftocairo run on that page alone by hand writes the same SVG
    const pageWords = (n: number) =>
      words(
        execFileSync("pdftotext", ["-f", String(n), "-l", String(n), corpusPath(TWELVE), "-"], { encoding: "utf8" }),
      );
    for (const [i, n] of [2, 5, 6].entries()) {
      const want = join(dir, `by-hand-${n}.svg`);
      execFileSync("pdftocairo", ["-svg", "-f", String(n), "-l", String(n), corpusPath(TWELVE), want]);
      expect(text(dataOf(svg.out.files[i]!))).toBe(readFileSync(want, "utf8"));
    }
    expect(text(dataOf(svg.out.files[0]!))).not.toBe(text(dataOf(svg.out.files[1]!)));
    const txt = await convert(TWELVE, { output_format: "txt", pages: "3-4,12" });
    const want = ["3", "4", "12"].flatMap((n) => pageWords(Number(n)));
    expect(words(text(dataOf(txt.out.files[0]!)))).toEqual(want);
    expect(txt.out.extra?.pages).toBe(3);
    const ps = await convert(TWELVE, { output_format: "ps", pages: "7-" });
    const p = save(dataOf(ps.out.files[0]!), "tail.ps");
    const bboxes = spawnSync("gs", ["-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=bbox", p], { encoding: "utf8" });
    expect(bboxes.stderr.match(/%%BoundingBox/g)?.length).toBe(6);
    await expectTaskError(() => convert(TWELVE, { output_format: "svg", pages: "13" }), "INVALID_PAGES");
  });

  it("ps: the whole document, as many pages as the PDF (Ghostscript counts them)", async () => {
    const r = await convert(TWELVE, { output_format: "ps" });
    const p = save(dataOf(r.out.files[0]!), "all.ps");
    const bboxes = spawnSync("gs", ["-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=bbox", p], { encoding: "utf8" });
    expect(bboxes.stderr.match(/%%BoundingBox/g)?.length).toBe(12);
  });

  it("emf and wmf: one metafile per page (Draw's PDF import), each with its signature", async () => {
    const emf = await convert("pdf/pdfjs-rotation.pdf", { output_format: "emf" });
    expect(emf.engine.name).toBe("libreoffice");
    expect(emf.out.files).toHaveLength(2);
    for (const f of emf.out.files) expect(text(dataOf(f).subarray(40, 44))).toBe(" EMF");
    const wmf = await convert("pdf/pdfjs-rotation.pdf", { output_format: "wmf" });
    expect(wmf.out.files).toHaveLength(2);
    // placeable WMF key 0x9AC6CDD7, or a plain METAHEADER (type 1 or 2, header size 9 words)
    for (const f of wmf.out.files) {
      const d = dataOf(f);
      const placeable = d[0] === 0xd7 && d[1] === 0xcd && d[2] === 0xc6 && d[3] === 0x9a;
      expect(placeable || (d[2] === 9 && d[3] === 0)).toBe(true);
    }
  });

  it("a file that is not a PDF ends in OPEN_FAILED", async () => {
    await expectTaskError(
      () =>
        execute(
          "convert",
          { output_format: "txt", input_format: "pdf" },
          [corpusInput("office/tika-testRTF.rtf", "x.pdf")],
          ctx(),
        ),
      "OPEN_FAILED",
    );
  });
});

describe("issue 49: a PDF over 64 MiB streams to poppler", () => {
  /** The tools' address space: 64 MiB, less than the PDF, so a tool that read it whole would fail. */
  const small = nativeEngineForFile({ NATIVE_MEMORY_MB: "64" });
  const big = join(dir, "big.pdf");
  const COPIES = 68;
  beforeAll(() => {
    // the corpus paper 68 times (qpdf copies each named file's objects anew: a symbolic link per copy)
    const links = Array.from({ length: COPIES }, (_, i) => {
      const l = join(dir, `copy-${i}.pdf`);
      symlinkSync(corpusPath("pdf/pdfjs-tracemonkey.pdf"), l);
      return l;
    });
    execFileSync("qpdf", ["--empty", "--pages", ...links, "--", big]);
    for (const l of links) rmSync(l);
  }, scaled(60_000));
  afterAll(() => rmSync(big, { force: true }));
  const streamOnly = () => streamOnlyInput(big);
  const pdftotext = (...args: string[]) =>
    execFileSync("pdftotext", ["-enc", "UTF-8", ...args, big, "-"], { encoding: "utf8", maxBuffer: 2 ** 28 });

  it(
    "→ txt: the text pdftotext reads from the same file, every one of its 952 pages",
    async () => {
      expect(statSync(big).size).toBeGreaterThan(NATIVE_MAX_BYTES);
      expect(Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [big], { encoding: "utf8" }))![1])).toBe(14 * COPIES);
      const r = await execute(
        "convert",
        { output_format: "txt" },
        [streamOnly()],
        testContext({ engines: small.engines() }),
      );
      expect(r.engine.name).toBe("poppler");
      expect(r.out.extra?.pages).toBe(14 * COPIES);
      const f = r.out.files[0]!;
      const got = isStreamed(f.data) ? new Uint8Array(await new Response(f.data.stream).arrayBuffer()) : dataOf(f);
      expect(text(got)).toBe(pdftotext());
    },
    scaled(90_000),
  );

  it(
    "→ txt of `pages` 2-3 and 951-952 (qpdf cuts them from the streamed file first): pdftotext -f/-l of those pages",
    async () => {
      // qpdf holds the PDF's objects (~260 MB for 80 MB of this paper): the tools' default 2 GiB here
      const r = await execute(
        "convert",
        { output_format: "txt", pages: "2-3,951-952" },
        [streamOnly()],
        testContext({ engines: native.engines() }),
      );
      expect(r.engine.name).toBe("poppler");
      expect(r.out.extra?.pages).toBe(4);
      const want = pdftotext("-f", "2", "-l", "3") + pdftotext("-f", "951", "-l", "952");
      expect(words(text(dataOf(r.out.files[0]!)))).toEqual(words(want));
      // under the 64 MiB limit qpdf runs out of memory: OVER_BUDGET naming the limit, not a crash
      const e = await expectTaskError(
        () =>
          execute(
            "convert",
            { output_format: "txt", pages: "2-3" },
            [streamOnly()],
            testContext({ engines: small.engines() }),
          ),
        "OVER_BUDGET",
      );
      expect(e.message).toMatch(/qpdf ran out of memory .*NATIVE_MEMORY_MB/);
    },
    scaled(60_000),
  );
});
