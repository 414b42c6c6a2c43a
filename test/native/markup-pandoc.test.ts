/**
 * Markup ↔ documents through pandoc (issue 32): md → docx/odt/html/rst/rtf/tex/txt, rst → md, tex → txt, html → md/docx,
 * by both rows that run it — Debian's pandoc in the native engine and pandoc in WebAssembly (issue 47), each pinned —
 * held to the same oracles; without a pin the WebAssembly row runs them. Oracles: the corpus's own text (headings and words the MANIFEST names), unzip of the
 * packages, the LibreOffice CLI reading the rtf back (pdftotext), and docutils' rst2html where installed. Issue 49: the
 * native pandoc takes its document as a file of the call's folder (streamed under a lowered threshold) and answers a
 * file; over its 8 MiB (NATIVE_PANDOC_MAX_BYTES) a document is OVER_BUDGET before it is sent, and a document whose AST
 * outgrows pandoc's heap (`+RTS -M`, from NATIVE_MEMORY_MB) is OVER_BUDGET in pandoc's words.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isStreamed } from "../../native-protocol/frame";
import { NATIVE_PANDOC_MAX_BYTES } from "../../src/engines/native/rows";
import { nodeEngines } from "../../src/runtime/node/engines";
import { execute } from "../../src/runner/execute";
import { corpusPath } from "../support/corpus";
import { nativeEngineForFile } from "../support/native-engine";
import { bytesInput, corpusInput, dataOf, expectTaskError, streamOnlyInput, testContext } from "../support/pdf-helpers";
import { scaled } from "../support/time-scale";
import { normalize, sofficeText, unzipText } from "../support/office-oracles";

const native = nativeEngineForFile();
const ctx = () => testContext({ engines: { ...nodeEngines(), ...native.engines() } });

const dir = mkdtempSync(join(tmpdir(), "pandoc-"));
const text = (d: Uint8Array) => new TextDecoder().decode(d);
const MD = "markup/tika-testMARKDOWN.md";
let row = "pandoc";
const convert = async (rel: string, params: Record<string, unknown>) => {
  const r = await execute("convert", { ...params, engine: row }, [corpusInput(rel)], ctx());
  expect(r.engine.name).toBe(row);
  return r;
};
/** The Markdown source's words, without markup characters. */
const mdWords = () =>
  normalize(readFileSync(corpusPath(MD), "utf8").replace(/[#*_`>\[\]()-]/g, " "))
    .split(" ")
    .filter((w) => /^\p{L}{4,}$/u.test(w));

describe.each(["pandoc", "pandoc-wasm"])("row %s", (name) => {
  beforeAll(() => {
    row = name;
  });

  describe("md → documents", () => {
    it("md → docx (a Job Builder job): every word of the source in word/document.xml, the title a heading", async () => {
      const r = await convert(MD, { output_format: "docx" });
      const xml = unzipText(dataOf(r.out.files[0]!), "word/document.xml");
      const plain = xml.replace(/<[^>]+>/g, " ");
      for (const w of mdWords()) expect(plain).toContain(w);
      expect(xml).toMatch(/<w:pStyle w:val="Heading1" ?\/>[\s\S]*?Title/);
    });

    it.each(["odt", "html", "rst", "tex", "txt"])("md → %s has the words", async (out) => {
      const r = await convert(MD, { output_format: out });
      const d = dataOf(r.out.files[0]!);
      const body = out === "odt" ? unzipText(d, "content.xml").replace(/<[^>]+>/g, " ") : text(d);
      for (const w of mdWords()) expect(body).toContain(w);
    });

    it("md → rtf: LibreOffice's CLI reads it back with the words (pdftotext)", async () => {
      const r = await convert(MD, { output_format: "rtf" });
      const path = join(dir, "md.rtf");
      writeFileSync(path, dataOf(r.out.files[0]!));
      const back = sofficeText(path, dir, 120_000);
      for (const w of mdWords()) expect(back).toContain(w);
    });
  });

  describe("rst, tex and html in", () => {
    it("rst → md: the document's title and section names (the MANIFEST: reStructuredText Demonstration)", async () => {
      const r = await convert("markup/docutils-demo.rst", { output_format: "md" });
      const md = text(dataOf(r.out.files[0]!));
      expect(md).toContain("reStructuredText Demonstration");
      expect(md).toMatch(/^#+ .*Structural Elements/m);
    });

    it("tex → txt: the sections the MANIFEST names (Ordinary Text, Displayed Text)", async () => {
      const r = await convert("markup/texlive-sample2e.tex", { output_format: "txt" });
      const t = text(dataOf(r.out.files[0]!));
      expect(t).toContain("Ordinary Text");
      expect(t).toContain("Displayed Text");
    });

    it("html → md and → docx: the three headings, in order, as headings", async () => {
      const md = text(dataOf((await convert("html/gotenberg-pages-3.html", { output_format: "md" })).out.files[0]!));
      expect(md).toMatch(/^# Page 1[\s\S]*^# Page 2[\s\S]*^# Page 3/m);
      const docx = await convert("html/gotenberg-pages-3.html", { output_format: "docx" });
      const xml = unzipText(dataOf(docx.out.files[0]!), "word/document.xml");
      expect(xml).toMatch(/Heading1[\s\S]*Page 1[\s\S]*Heading1[\s\S]*Page 2[\s\S]*Heading1[\s\S]*Page 3/);
    });
  });
});

it("without a pin, md → docx runs in WebAssembly", async () => {
  const r = await execute("convert", { output_format: "docx" }, [corpusInput(MD)], ctx());
  expect(r.engine.name).toBe("pandoc-wasm");
});

describe("issue 49: the native pandoc takes files, up to 8 MiB", () => {
  /** A native engine whose tools have 448 MiB of address space: pandoc's heap -M64m (pandoc.ts pandocRts). */
  const tight = nativeEngineForFile({ NATIVE_MEMORY_MB: "448" });
  /** The corpus's MANIFEST.md (real markdown) repeated `n` times, written to a file of this test (removed after). */
  const written: string[] = [];
  afterAll(() => written.forEach((p) => rmSync(p, { force: true })));
  const manifest = (n: number) => {
    const path = join(dir, `manifest-${n}.md`);
    written.push(path);
    writeFileSync(
      path,
      Array(n)
        .fill(readFileSync(corpusPath("MANIFEST.md"), "utf8"))
        .join("\n"),
    );
    return path;
  };

  it("md streamed (a 64-byte threshold) reaches pandoc as a file, its docx streams back with every word", async () => {
    const streaming = testContext({
      engines: { ...nodeEngines(), ...native.engines({ streamOver: 64 }) },
      settings: { nativeStreamBytes: 64 } as never,
    });
    const r = await execute(
      "convert",
      { output_format: "docx", engine: "pandoc" },
      [streamOnlyInput(corpusPath(MD))],
      streaming,
    );
    expect(r.engine.name).toBe("pandoc");
    // a StreamedBytes answer comes only from a framed call (a buffered answer is bytes)
    const f = r.out.files[0]!;
    expect(isStreamed(f.data)).toBe(true);
    const docx = new Uint8Array(await new Response((f.data as { stream: ReadableStream }).stream).arrayBuffer());
    const plain = unzipText(docx, "word/document.xml").replace(/<[^>]+>/g, " ");
    for (const w of mdWords()) expect(plain).toContain(w);
  });

  it("a 9 MiB markdown → OVER_BUDGET naming pandoc's 8 MiB, never read", async () => {
    const path = manifest(Math.ceil((9 * 2 ** 20) / statSync(corpusPath("MANIFEST.md")).size));
    expect(statSync(path).size).toBeGreaterThan(NATIVE_PANDOC_MAX_BYTES);
    const e = await expectTaskError(
      () => execute("convert", { output_format: "docx", engine: "pandoc" }, [streamOnlyInput(path)], ctx()),
      "OVER_BUDGET",
    );
    expect(e.message).toContain(`up to ${NATIVE_PANDOC_MAX_BYTES} bytes`);
  });

  it(
    "NATIVE_MEMORY_MB=448: a 4 MB markdown outgrows pandoc's -M64m heap → OVER_BUDGET (Heap exhausted); a small one converts",
    async () => {
      const path = manifest(45);
      const e = await expectTaskError(
        () =>
          execute(
            "convert",
            { output_format: "docx", engine: "pandoc" },
            [bytesInput("manifest-45.md", new Uint8Array(readFileSync(path)))],
            testContext({ engines: tight.engines() }),
          ),
        "OVER_BUDGET",
      );
      expect(e.message).toMatch(/Heap exhausted/);
      // the same engine converts the corpus's markdown: pandoc starts and runs within 448 MiB (no RLIMIT_AS on it)
      const ok = await execute(
        "convert",
        { output_format: "docx", engine: "pandoc" },
        [corpusInput(MD)],
        testContext({ engines: tight.engines() }),
      );
      const plain = unzipText(dataOf(ok.out.files[0]!), "word/document.xml").replace(/<[^>]+>/g, " ");
      for (const w of mdWords()) expect(plain).toContain(w);
    },
    scaled(60_000),
  );
});
