/**
 * rst and tex → pdf (issue 32) without a TeX distribution: pandoc's ODT laid out by LibreOffice in the native engine
 * (container/engines/pandoc.ts says why this route). Oracles outside our code: docutils' rst2html for the words of the
 * reStructuredText demo, the LaTeX sample's own section titles and sentences, pdftotext and pdfinfo of the output.
 * Hostile sources: includes, images and inputs naming /etc/passwd, /etc/hostname and a loopback URL are neither read nor
 * fetched (pandoc reads with --sandbox; images that are not data: URLs become their alt text).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execute } from "../../src/runner/execute";
import { corpusPath } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { bytesInput, corpusInput, dataOf, testContext } from "../support/pdf-helpers";
import { scaled } from "../support/time-scale";

let native: NativeServer;
let web: Server;
let port = 0;
const requests: string[] = [];
beforeAll(async () => {
  native = await startNativeEngine();
  web = createServer((req, res) => {
    requests.push(req.url ?? "");
    res.end("LOOPBACK-CONTENT");
  });
  await new Promise<void>((ok) => web.listen(0, "127.0.0.1", ok));
  port = (web.address() as { port: number }).port;
}, scaled(90_000));
afterAll(async () => {
  await native?.stop();
  web?.close();
});

const dir = mkdtempSync(join(tmpdir(), "markup-pdf-"));
const ctx = () => testContext({ engines: native.engines() });
/** pdftotext and pdfinfo's page count of a PDF's bytes. */
function readPdf(data: Uint8Array, name: string): { text: string; pages: number } {
  const path = join(dir, name);
  writeFileSync(path, data);
  const info = execFileSync("pdfinfo", [path], { encoding: "utf8" });
  return {
    text: execFileSync("pdftotext", [path, "-"], { encoding: "utf8" }).replace(/\s+/g, " "),
    pages: Number(/^Pages:\s+(\d+)/m.exec(info)![1]),
  };
}
const wordsOf = (s: string) => s.match(/[A-Za-z]{4,}/g) ?? [];

describe("rst and tex → pdf (pandoc → ODT → LibreOffice)", () => {
  it(
    "docutils-demo.rst → pdf: ≥ 95 % of the words docutils' rst2html renders, the title first",
    async () => {
      const r = await execute("convert", { output_format: "pdf" }, [corpusInput("markup/docutils-demo.rst")], ctx());
      expect(r.engine.name).toBe("pandoc");
      expect(r.out.files[0]!.filename).toBe("docutils-demo.pdf");
      const { text, pages } = readPdf(dataOf(r.out.files[0]!), "rst.pdf");
      expect(pages).toBeGreaterThan(1);
      expect(text.trimStart()).toMatch(/^reStructuredText Demonstration/);
      const html = execFileSync("rst2html", ["--report=5", corpusPath("markup/docutils-demo.rst")], {
        encoding: "utf8",
      });
      const body = html
        .replace(/^[\s\S]*?<body>/, "")
        .replace(/<[^>]+>/g, " ")
        .replace(/&#?\w+;/g, " ");
      const want = wordsOf(body);
      const got = new Set(wordsOf(text));
      const found = want.filter((w) => got.has(w)).length / want.length;
      expect(want.length).toBeGreaterThan(800);
      expect(found).toBeGreaterThanOrEqual(0.95);
    },
    scaled(300_000),
  );

  it(
    "texlive-sample2e.tex → pdf: its sections and sentences in order, no LaTeX source left",
    async () => {
      const r = await execute("convert", { output_format: "pdf" }, [corpusInput("markup/texlive-sample2e.tex")], ctx());
      expect(r.engine.name).toBe("pandoc");
      const { text, pages } = readPdf(dataOf(r.out.files[0]!), "tex.pdf");
      expect(pages).toBeGreaterThanOrEqual(2);
      const order = ["Ordinary Text", "Displayed Text"].map((t) => text.indexOf(t));
      expect(order[0]).toBeGreaterThanOrEqual(0);
      expect(order[1]).toBeGreaterThan(order[0]!);
      expect(text).toContain("The ends of words and sentences are marked by spaces");
      expect(text).not.toMatch(/\\(begin|section|documentclass)\b/);
    },
    scaled(300_000),
  );

  it(
    "pages=1 → a 1-page pdf",
    async () => {
      const r = await execute(
        "convert",
        { output_format: "pdf", pages: "1" },
        [corpusInput("markup/docutils-demo.rst")],
        ctx(),
      );
      expect(readPdf(dataOf(r.out.files[0]!), "p1.pdf").pages).toBe(1);
    },
    scaled(300_000),
  );
});

describe("hostile markup → pdf: nothing read or fetched", () => {
  const hostile = () => [
    {
      name: "evil.rst",
      source: `Evil rst body\n=============\n\nSafe paragraph.\n\n.. include:: /etc/passwd\n\n.. raw:: html\n   :file: /etc/passwd\n\n.. image:: file:///etc/passwd\n   :alt: local-image\n\n.. image:: http://127.0.0.1:${port}/img.png\n   :alt: remote-image\n\n.. raw:: html\n   :url: http://127.0.0.1:${port}/raw\n`,
    },
    {
      name: "evil.tex",
      source: `\\documentclass{article}\\usepackage{graphicx}\\begin{document}Evil tex body. Safe paragraph.\n\\input{/etc/passwd}\n\\include{/etc/hostname}\n\\includegraphics{/etc/passwd}\n\\includegraphics{http://127.0.0.1:${port}/img.png}\n\\end{document}\n`,
    },
  ];
  for (const i of [0, 1]) {
    it(
      `${["rst", "tex"][i]} naming /etc/passwd and a loopback URL: converts without their content, no request`,
      async () => {
        const { name, source } = hostile()[i]!;
        const before = requests.length;
        const r = await execute(
          "convert",
          { output_format: "pdf" },
          [bytesInput(name, new TextEncoder().encode(source))],
          ctx(),
        );
        const { text } = readPdf(dataOf(r.out.files[0]!), `hostile-${i}.pdf`);
        expect(text).toContain("Safe paragraph");
        expect(text).not.toMatch(/root:x?:?0:0|nologin|LOOPBACK-CONTENT/);
        expect(requests.length).toBe(before);
      },
      scaled(300_000),
    );
  }
});
