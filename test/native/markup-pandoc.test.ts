/**
 * Markup ↔ documents through pandoc (issue 32): md → docx/odt/html/rst/rtf/tex/txt, rst → md, tex → txt, html → md/docx,
 * by both rows that run it — Debian's pandoc in the native engine and pandoc in WebAssembly (issue 47), each pinned —
 * held to the same oracles; without a pin the WebAssembly row runs them. Oracles: the corpus's own text (headings and words the MANIFEST names), unzip of the
 * packages, the LibreOffice CLI reading the rtf back (pdftotext), and docutils' rst2html where installed.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { nodeEngines } from "../../src/runtime/node/engines";
import { execute } from "../../src/runner/execute";
import { corpusPath } from "../support/corpus";
import { nativeEngineForFile } from "../support/native-engine";
import { corpusInput, dataOf, testContext } from "../support/pdf-helpers";
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
