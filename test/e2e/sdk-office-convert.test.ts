/**
 * Issue 32's real jobs end to end through the official SDK under `npm start`: rtf → txt with engine libreoffice (a
 * Job Builder job), docx → odt, xlsx → csv, md → docx, pdf → docx (the .NET SDK's README), pdf → html with engine
 * pdf2htmlex (served by poppler, with a warning), and the catalogue listing the new pairs. Oracles: unzip of the
 * packages, pdftotext of the source PDF, the MANIFEST's facts.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { runCorpusJob } from "../support/jobs";
import { sharedServer, type SharedServer } from "../support/servers";

let server: SharedServer;
beforeAll(async () => {
  server = sharedServer("guarded");
});

const unzip = (path: string, part: string) => execFileSync("unzip", ["-p", path, part], { encoding: "utf8" });
const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

describe("office and PDF conversions through the SDK (issue 32)", () => {
  it("rtf → txt with engine libreoffice", async () => {
    const { job, files, task } = await runCorpusJob(server.base, "office/tika-testRTF.rtf", {
      txt: { operation: "convert", input: "in", output_format: "txt", engine: "libreoffice" },
    });
    expect(job.status).toBe("finished");
    expect(task("txt")).toMatchObject({ engine: "libreoffice", status: "finished" });
    // the RTF's own words (its text runs, control words and groups removed) all appear in the txt, in order
    const rtf = readFileSync(corpusPath("office/tika-testRTF.rtf"), "latin1");
    const body = rtf.slice(rtf.lastIndexOf("\\pard")).replace(/\\[a-z]+-?\d* ?|[{}]/g, " ");
    const txt = words(readFileSync(files.txt[0]!.path, "utf8")).join(" ");
    const last = words(body)
      .filter((w) => /^[a-z]{4,}$/.test(w))
      .slice(-2)
      .join(" ");
    expect(last.length).toBeGreaterThan(5);
    expect(txt).toContain(last);
  });

  it("docx → odt and xlsx → csv", async () => {
    const odt = await runCorpusJob(server.base, "office/gotenberg-pages_3.docx", {
      odt: { operation: "convert", input: "in", output_format: "odt" },
    });
    expect(odt.job.status).toBe("finished");
    expect(unzip(odt.files.odt[0]!.path, "content.xml")).toMatch(/Page 1[\s\S]*Page 2[\s\S]*Page 3/);
    const csv = await runCorpusJob(server.base, "office/tika-testEXCEL.xlsx", {
      csv: { operation: "convert", input: "in", output_format: "csv" },
    });
    expect(csv.job.status).toBe("finished");
    expect(csv.files.csv[0]!.filename).toBe("tika-testEXCEL.csv");
    // the MANIFEST: text starts "Sample Excel Worksheet - Numbers and their Squares Number Sq"
    expect(readFileSync(csv.files.csv[0]!.path, "utf8")).toMatch(/^Sample Excel Worksheet - Numbers and their Squares/);
  });

  it("md → docx (pandoc in WebAssembly, issue 47)", async () => {
    const { job, files, task } = await runCorpusJob(server.base, "markup/tika-testMARKDOWN.md", {
      docx: { operation: "convert", input: "in", output_format: "docx" },
    });
    expect(job.status).toBe("finished");
    expect(task("docx").engine).toBe("pandoc-wasm");
    expect(task("docx").engine_version).toBe("3.10");
    expect(unzip(files.docx[0]!.path, "word/document.xml")).toMatch(/Title[\s\S]*bold[\s\S]*italic/);
  });

  it("pdf → docx and pdf → html with engine pdf2htmlex (a warning names what served it)", async () => {
    const rel = "pdf/gotenberg-pages_12.pdf";
    const source = words(execFileSync("pdftotext", [corpusPath(rel), "-"], { encoding: "utf8" }));
    const { job, files, task } = await runCorpusJob(server.base, rel, {
      docx: { operation: "convert", input: "in", output_format: "docx" },
      html: { operation: "convert", input: "in", output_format: "html", engine: "pdf2htmlex" },
    });
    expect(job.status).toBe("finished");
    const docxText = unzip(files.docx[0]!.path, "word/document.xml")
      .replace(/<\/w:p>/g, " ")
      .replace(/<[^>]+>/g, "");
    expect(words(docxText).join(" ")).toContain(source.join(" "));
    expect(task("html").engine).toBe("poppler");
    expect(JSON.stringify(task("html").result)).toMatch(/pdf2htmlEX is not available/);
    const html = readFileSync(files.html[0]!.path, "utf8")
      .replace(/<[^>]+>/g, " ")
      .replace(/&#160;/g, " ");
    expect(words(html).join(" ")).toContain(source.join(" "));
  });

  it("the catalogue lists the new pairs with their engines", async () => {
    const ops = (await (await fetch(`${server.base}/v2/operations?filter[operation]=convert`)).json()).data as {
      input_format: string;
      output_format: string;
      engine: string;
    }[];
    const has = (i: string, o: string, e: string) =>
      ops.some((x) => x.input_format === i && x.output_format === o && x.engine === e);
    expect(has("docx", "odt", "libreoffice")).toBe(true);
    expect(has("xlsx", "csv", "libreoffice")).toBe(true);
    expect(has("pdf", "docx", "libreoffice")).toBe(true);
    expect(has("pdf", "txt", "poppler")).toBe(true);
    expect(has("md", "docx", "pandoc")).toBe(true);
    expect(has("md", "docx", "pandoc-wasm")).toBe(true);
    expect(has("key", "pptx", "libreoffice")).toBe(true);
  });
});
