/**
 * Issue 34: PostScript → txt and html (the catalogue's ps pairs), Ghostscript's pdfwrite (-dSAFER) then poppler,
 * through the real runner and the native engine's poppler row; → pptx/odp/ppt by LibreOffice's row (Impress's PDF
 * import of Ghostscript's PDF). The PostScript is written by poppler's pdftocairo
 * from the corpus's tracemonkey paper; the oracle is pdftotext of the paper itself (the words of page 1).
 * Hostile: a PostScript program that reads a local file (-dSAFER refuses it: the file's text never comes out).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execute } from "../../src/runner/execute";
import { corpusPath } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { bytesInput, dataOf, testContext } from "../support/pdf-helpers";
import { scaled } from "../support/time-scale";

const TMP = mkdtempSync(join(tmpdir(), "native-ps-text-"));
const PAPER = corpusPath("pdf/pdfjs-tracemonkey.pdf");
let native: NativeServer;
let ps: Buffer;
beforeAll(async () => {
  native = await startNativeEngine();
  execFileSync("pdftocairo", ["-ps", "-f", "1", "-l", "1", PAPER, join(TMP, "page1.ps")]);
  ps = readFileSync(join(TMP, "page1.ps"));
}, scaled(120_000));
afterAll(async () => {
  await native?.stop();
  rmSync(TMP, { recursive: true, force: true });
});
const ctx = () => testContext({ engines: native.engines() });
/** The words (4+ letters) of a text. */
const words = (t: string) => new Set(t.toLowerCase().match(/[a-z]{4,}/g) ?? []);

describe("ps → txt and html (Ghostscript, then poppler)", () => {
  const oracle = () => words(execFileSync("pdftotext", ["-f", "1", "-l", "1", PAPER, "-"]).toString());

  it("ps → txt: the words of the paper's first page (pdftotext of the PDF it was printed from)", async () => {
    const r = await execute("convert", { output_format: "txt" }, [bytesInput("page1.ps", ps)], ctx());
    expect(r.engine.name).toBe("poppler");
    const got = words(new TextDecoder().decode(dataOf(r.out.files[0]!)));
    const want = oracle();
    const found = [...want].filter((w) => got.has(w)).length;
    expect(want.size).toBeGreaterThan(100);
    expect(found / want.size).toBeGreaterThan(0.95);
  });

  it("ps → html: one HTML file holding the same words", async () => {
    const r = await execute("convert", { output_format: "html" }, [bytesInput("page1.ps", ps)], ctx());
    const html = new TextDecoder().decode(dataOf(r.out.files[0]!));
    expect(html).toMatch(/<html/i);
    const got = words(html.replace(/<[^>]+>/g, " ").replace(/&#?\w+;/g, " "));
    const want = oracle();
    expect([...want].filter((w) => got.has(w)).length / want.size).toBeGreaterThan(0.9);
  });

  it(
    "ps (two pages) → pptx and odp: one slide per page (unzip's listing), the paper's words in the slides' text",
    async () => {
      execFileSync("pdftocairo", ["-ps", "-f", "1", "-l", "2", PAPER, join(TMP, "two.ps")]);
      const two = readFileSync(join(TMP, "two.ps"));
      const want = oracle();
      const pptx = await execute("convert", { output_format: "pptx" }, [bytesInput("two.ps", two)], ctx());
      expect(pptx.engine.name).toBe("libreoffice");
      const p = join(TMP, "two.pptx");
      writeFileSync(p, dataOf(pptx.out.files[0]!));
      const slides = execFileSync("unzip", ["-Z1", p])
        .toString()
        .split("\n")
        .filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n));
      expect(slides).toHaveLength(2);
      const slide1 = execFileSync("unzip", ["-p", p, "ppt/slides/slide1.xml"]).toString();
      const got = words(slide1.replace(/<[^>]+>/g, " "));
      expect([...want].filter((w) => got.has(w)).length / want.size).toBeGreaterThan(0.8);
      const odp = await execute("convert", { output_format: "odp" }, [bytesInput("two.ps", two)], ctx());
      const o = join(TMP, "two.odp");
      writeFileSync(o, dataOf(odp.out.files[0]!));
      expect(
        execFileSync("unzip", ["-p", o, "content.xml"])
          .toString()
          .match(/<draw:page /g),
      ).toHaveLength(2);
    },
    scaled(240_000),
  );

  it("a PostScript program printing a local file's lines: -dSAFER refuses the read, the file's text never comes out", async () => {
    const secret = join(TMP, "secret.txt");
    writeFileSync(secret, "TOPSECRETMARKER\n");
    const prog = `%!PS\n/Helvetica findfont 12 scalefont setfont\n72 700 moveto (visible page text) show\n72 680 moveto (${secret}) (r) file 100 string readline pop show\nshowpage\n`;
    let text = "";
    try {
      const r = await execute(
        "convert",
        { output_format: "txt" },
        [bytesInput("read.ps", new TextEncoder().encode(prog))],
        ctx(),
      );
      text = new TextDecoder().decode(dataOf(r.out.files[0]!));
    } catch (err) {
      text = (err as Error).message;
      expect((err as { code?: string }).code).toBe("OPEN_FAILED");
    }
    expect(text).not.toContain("TOPSECRETMARKER");
  });
});
