/**
 * convert between office formats (issue 32) through the operations, with the native engine as a local process.
 * Oracles from outside our code: the files' own XML read with unzip (docx word/document.xml, odt content.xml,
 * xlsx cells parsed by Python's zipfile + ElementTree), `file`/iconv for encodings, the MANIFEST's facts and the
 * text pdftotext reads from the LibreOffice CLI's own PDF of the same corpus file.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nodeEngines } from "../../src/runtime/node/engines";
import { execute } from "../../src/runner/execute";
import { corpusPath } from "../support/corpus";
import { nativeEngineForFile } from "../support/native-engine";
import { bytesInput, corpusInput, dataOf, expectTaskError, testContext } from "../support/pdf-helpers";
import { unzipText, xlsxCells, normalize } from "../support/office-oracles";

const native = nativeEngineForFile();
const ctx = () => testContext({ engines: { ...nodeEngines(), ...native.engines() } });

const convert = (rel: string, params: Record<string, unknown>, name?: string) =>
  execute("convert", params, [corpusInput(rel, name)], ctx());
const text = (d: Uint8Array) => new TextDecoder().decode(d);

/** The words pdftotext reads from the LibreOffice CLI's PDF of a corpus file (the oracle for text outputs). */
const cliDir = mkdtempSync(join(tmpdir(), "soffice-cli-"));
function cliText(path: string): string {
  const out = join(cliDir, String(Math.random()).slice(2));
  spawnSync(
    "soffice",
    [
      `-env:UserInstallation=file://${join(cliDir, "profile")}`,
      "--headless",
      "--convert-to",
      "pdf",
      "--outdir",
      out,
      path,
    ],
    { stdio: "ignore", timeout: 120_000 },
  );
  const pdf = readdirSync(out).find((f) => f.endsWith(".pdf"));
  return execFileSync("pdftotext", [join(out, pdf!), "-"], { encoding: "utf8" });
}

describe("Writer documents", () => {
  it("rtf → txt with engine libreoffice (a Job Builder job): the text the CLI's PDF has, UTF-8", async () => {
    const r = await convert("office/tika-testRTF.rtf", { output_format: "txt", engine: "libreoffice" });
    expect(r.engine.name).toBe("libreoffice");
    expect(r.out.files.map((f) => f.filename)).toEqual(["tika-testRTF.txt"]);
    const got = normalize(text(dataOf(r.out.files[0]!)));
    const want = normalize(cliText(corpusPath("office/tika-testRTF.rtf")));
    expect(want.length).toBeGreaterThan(20);
    expect(got).toContain(want.slice(0, 60));
  });

  it("docx → odt: an ODF text package whose content.xml has the document's text (MANIFEST: Page 1 Page 2 Page 3)", async () => {
    const r = await convert("office/gotenberg-pages_3.docx", { output_format: "odt" });
    const f = r.out.files[0]!;
    expect(f.filename).toBe("gotenberg-pages_3.odt");
    expect(unzipText(dataOf(f), "mimetype")).toBe("application/vnd.oasis.opendocument.text");
    const body = normalize(unzipText(dataOf(f), "content.xml").replace(/<[^>]+>/g, " "));
    expect(body).toMatch(/Page 1.*Page 2.*Page 3/);
  });

  it.each(["doc", "docx", "rtf", "html"])("odt → %s keeps the text", async (out) => {
    const r = await convert("office/tika-testODFwithOOo3.odt", { output_format: out });
    const f = r.out.files[0]!;
    expect(f.filename).toBe(`tika-testODFwithOOo3.${out}`);
    // read back by the CLI (another soffice, not the pool) and pdftotext
    const path = join(cliDir, `back.${out}`);
    writeFileSync(path, dataOf(f));
    const back = normalize(cliText(path));
    for (const phrase of ["Apache Tika Test Document", "First item", "Bibliography"]) expect(back).toContain(phrase);
  });

  it("html output carries its images inline (data: URLs), never beside it", async () => {
    // an odt holding a picture, made by the LibreOffice CLI from the corpus's HTML with an embedded image
    const out = join(cliDir, "with-image");
    spawnSync(
      "soffice",
      [
        `-env:UserInstallation=file://${join(cliDir, "profile")}`,
        "--headless",
        "--convert-to",
        "odt",
        "--outdir",
        out,
        corpusPath("html/tika-testHTML_embedded_img.html"),
      ],
      { stdio: "ignore", timeout: 120_000 },
    );
    const odt = readFileSync(join(out, "tika-testHTML_embedded_img.odt"));
    expect(execFileSync("unzip", ["-Z1", join(out, "tika-testHTML_embedded_img.odt")], { encoding: "utf8" })).toMatch(
      /Pictures\//,
    );
    const r = await execute("convert", { output_format: "html" }, [bytesInput("pic.odt", odt)], ctx());
    expect(r.out.files).toHaveLength(1);
    const html = text(dataOf(r.out.files[0]!));
    const srcs = [...html.matchAll(/<img[^>]*\ssrc="([^"]*)"/gi)].map((m) => m[1]!);
    expect(srcs.length).toBeGreaterThan(0);
    for (const s of srcs) expect(s).toMatch(/^data:image\//);
  });

  it("txt encodings: utf-16 has a BOM and decodes to the UTF-8 text; windows-1252 has the same text in one byte each", async () => {
    const utf8 = text(
      dataOf((await convert("office/gotenberg-Special_Chars_ß.docx", { output_format: "txt" })).out.files[0]!),
    );
    const u16 = dataOf(
      (await convert("office/gotenberg-Special_Chars_ß.docx", { output_format: "txt", encoding: "utf-16" })).out
        .files[0]!,
    );
    const path = join(cliDir, "u16.txt");
    writeFileSync(path, u16);
    expect([...u16.subarray(0, 2)]).toEqual([0xff, 0xfe]); // the UTF-16LE byte-order mark
    expect(execFileSync("iconv", ["-f", "UTF-16", "-t", "UTF-8", path], { encoding: "utf8" }).trim()).toBe(utf8.trim());
    const cp = dataOf(
      (await convert("office/tika-testRTF.rtf", { output_format: "txt", encoding: "windows-1252" })).out.files[0]!,
    );
    const cpPath = join(cliDir, "cp.txt");
    writeFileSync(cpPath, cp);
    const back = execFileSync("iconv", ["-f", "WINDOWS-1252", "-t", "UTF-8", cpPath], { encoding: "utf8" });
    const ref = text(dataOf((await convert("office/tika-testRTF.rtf", { output_format: "txt" })).out.files[0]!));
    expect(back.trim()).toBe(ref.trim());
  });
});

describe("Spreadsheets", () => {
  const XLSX = "office/tika-testEXCEL.xlsx";

  it("xlsx → csv: the first sheet, cell by cell as the xlsx's own XML has it", async () => {
    const r = await convert(XLSX, { output_format: "csv" });
    expect(r.out.files.map((f) => f.filename)).toEqual(["tika-testEXCEL.csv"]);
    const rows = parseCsv(text(dataOf(r.out.files[0]!)), ",");
    const cells = xlsxCells(corpusPath(XLSX), 1);
    expect(cells.length).toBeGreaterThan(5);
    for (const { row, col, value } of cells) expect(rows[row]?.[col], `R${row + 1}C${col + 1}`).toBe(value);
  });

  it('sheet "all": every sheet its own file, named by the sheet; delimiter ";"', async () => {
    const r = await convert(XLSX, { output_format: "csv", sheet: "all", delimiter: ";" });
    expect(r.out.files.map((f) => f.filename).sort()).toEqual([
      "tika-testEXCEL-Feuil1.csv",
      "tika-testEXCEL-Feuil2.csv",
      "tika-testEXCEL-Feuil3.csv",
    ]);
    const first = text(dataOf(r.out.files.find((f) => f.filename.endsWith("Feuil1.csv"))!));
    const rows = parseCsv(first, ";");
    for (const { row, col, value } of xlsxCells(corpusPath(XLSX), 1)) expect(rows[row]?.[col]).toBe(value);
  });

  it("sheet 2 picks the second sheet (the ods's content.xml, unzipped, has its cells)", async () => {
    const ods = readFileSync(corpusPath("office/tika-testFooter.ods"));
    const tables = unzipText(ods, "content.xml").split("<table:table ").slice(1);
    const cellsOf = (t: string) =>
      [...t.matchAll(/<text:p>([^<]+)<\/text:p>/g)].map((m) => m[1]!).filter((s) => s.trim());
    const second = cellsOf(tables[1]!);
    const r = await convert("office/tika-testFooter.ods", { output_format: "csv", sheet: 2 });
    const got = parseCsv(text(dataOf(r.out.files[0]!)), ",")
      .flat()
      .filter((s) => s.trim());
    expect(got).toEqual(second);
    const first = await convert("office/tika-testFooter.ods", { output_format: "csv", sheet: 1 });
    expect(
      parseCsv(text(dataOf(first.out.files[0]!)), ",")
        .flat()
        .filter((s) => s.trim()),
    ).toEqual(cellsOf(tables[0]!));
  });

  it.each(["xls", "ods", "html"])("xlsx → %s keeps the cells (read back by the CLI)", async (out) => {
    const r = await convert(XLSX, { output_format: out });
    const path = join(cliDir, `sheet.${out}`);
    writeFileSync(path, dataOf(r.out.files[0]!));
    expect(normalize(cliText(path))).toContain("Sample Excel Worksheet");
  });

  it("xls → xlsx: an OOXML workbook whose cells are the xls's (the CLI's PDF text of both)", async () => {
    const r = await convert("office/tika-testEXCEL.xls", { output_format: "xlsx" });
    const path = join(cliDir, "from-xls.xlsx");
    writeFileSync(path, dataOf(r.out.files[0]!));
    expect(unzipText(dataOf(r.out.files[0]!), "xl/workbook.xml")).toContain("spreadsheetml");
    const cells = xlsxCells(path, 1);
    expect(cells.find((c) => c.value === "Sample Excel Worksheet - Numbers and their Squares")).toBeTruthy();
  });
});

describe("Presentations", () => {
  it("odp → pptx and ppt: the slides' text (the CLI's PDF of the result)", async () => {
    for (const out of ["pptx", "ppt"]) {
      const r = await convert("office/xapian-presentation.odp", { output_format: out });
      const path = join(cliDir, `slides.${out}`);
      writeFileSync(path, dataOf(r.out.files[0]!));
      expect(normalize(cliText(path))).toContain("501 Fascinating Facts");
    }
  });

  it("pptx → txt and html (through LibreOffice's PDF, poppler): the slide's text", async () => {
    const txt = await convert("office/tika-testPPT.ppt", { output_format: "txt" });
    expect(normalize(text(dataOf(txt.out.files[0]!)))).toContain("Sample Powerpoint Slide");
    const html = await convert("office/tika-testPPT.ppt", { output_format: "html" });
    expect(text(dataOf(html.out.files[0]!))).toContain("Sample Powerpoint Slide");
  });

  it("odp → eps and emf: one file per slide (2 slides, MANIFEST)", async () => {
    const eps = await convert("office/xapian-presentation.odp", { output_format: "eps" });
    expect(eps.out.files.map((f) => f.filename)).toEqual(["xapian-presentation-1.eps", "xapian-presentation-2.eps"]);
    for (const f of eps.out.files) expect(text(dataOf(f).subarray(0, 20))).toMatch(/^%!PS-Adobe-3\.0 EPSF/);
    const emf = await convert("office/xapian-presentation.odp", { output_format: "emf" });
    expect(emf.out.files).toHaveLength(2);
    // EMR_HEADER record type 1 and the " EMF" signature at offset 40
    for (const f of emf.out.files) expect(text(dataOf(f).subarray(40, 44))).toBe(" EMF");
  });

  it("pptx → xps: an XPS package with one FixedPage per slide (Ghostscript's xpswrite)", async () => {
    const r = await convert("office/xapian-presentation.odp", { output_format: "xps" });
    const list = execFileSync("unzip", ["-Z1", writeTmp(dataOf(r.out.files[0]!), "x.xps")], { encoding: "utf8" });
    expect(list.split("\n").filter((l) => /\.fpage$/.test(l))).toHaveLength(2);
  });
});

describe("inputs LibreOffice reads (each checked on the corpus)", () => {
  const cases: [string, string, string][] = [
    ["office/tika-testPages.pages", "docx", "Sample pages document"],
    ["office/tika-testKeynote2013.key", "pptx", "A sample presentation"],
    ["office/tika-testNumbers2013.numbers", "xlsx", "Beginning Balance"],
    ["office/tika-testHWP_3.0.hwp", "docx", "테스트"],
    ["office/tika-testWORKS.wps", "odt", "Microsoft Works Word Processor"],
    ["office/tika-testWordPerfect.wpd", "docx", "APPENDIX"],
    ["office/xapian-test1.abw", "docx", "喬伊不分享食物"],
  ];
  it.each(cases)("%s → %s has its text", async (rel, out, want) => {
    const r = await convert(rel, { output_format: out });
    const part =
      out === "docx"
        ? "word/document.xml"
        : out === "odt"
          ? "content.xml"
          : out === "pptx"
            ? "ppt/slides/*.xml"
            : "xl/sharedStrings.xml";
    expect(unzipText(dataOf(r.out.files[0]!), part)).toContain(want);
  });

  it("zabw (gzipped AbiWord), et (WPS spreadsheet, an Excel 97 file) and dps (WPS presentation)", async () => {
    const abw = readFileSync(corpusPath("office/xapian-test1.abw"));
    const z = await execute("convert", { output_format: "docx" }, [bytesInput("t.zabw", gzipSync(abw))], ctx());
    expect(unzipText(dataOf(z.out.files[0]!), "word/document.xml")).toContain("喬伊不分享食物");
    const et = await execute(
      "convert",
      { output_format: "csv" },
      [bytesInput("t.et", readFileSync(corpusPath("office/tika-testEXCEL.xls")))],
      ctx(),
    );
    expect(text(dataOf(et.out.files[0]!))).toContain("Sample Excel Worksheet");
    const dps = await execute(
      "convert",
      { output_format: "pptx" },
      [bytesInput("t.dps", readFileSync(corpusPath("office/tika-testPPT.ppt")))],
      ctx(),
    );
    expect(unzipText(dataOf(dps.out.files[0]!), "ppt/slides/*.xml")).toContain("Sample Powerpoint Slide");
  });

  it("HWP 5 (which LibreOffice 7.4 cannot read) ends in OPEN_FAILED, and the pool keeps serving", async () => {
    await expectTaskError(() => convert("office/tika-testHWP_5.0.hwp", { output_format: "docx" }), "OPEN_FAILED");
    const r = await convert("office/tika-testHWP_3.0.hwp", { output_format: "txt" });
    expect(text(dataOf(r.out.files[0]!))).toContain("테스트");
  });
});

describe("hostile: zip bombs", () => {
  it("a DOCX zip bomb (1.2 GiB of zeros in one part) → OVER_BUDGET unopened, and the pool converts the next file", async () => {
    const bomb = join(cliDir, "bomb.docx");
    execFileSync("python3", [
      "-c",
      `import zipfile,sys
z=zipfile.ZipFile(sys.argv[1],"w",zipfile.ZIP_DEFLATED)
z.writestr("[Content_Types].xml",'<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
with z.open("word/document.xml","w",force_zip64=False) as f:
    chunk=b"\\0"*(1<<24)
    for _ in range(72): f.write(chunk)
z.close()`,
      bomb,
    ]);
    expect(readFileSync(bomb).length).toBeLessThan(4 * 1024 * 1024);
    await expectTaskError(
      () => execute("convert", { output_format: "odt" }, [bytesInput("bomb.docx", readFileSync(bomb))], ctx()),
      "OVER_BUDGET",
    );
    const ok = await execute(
      "convert",
      { output_format: "txt" },
      [bytesInput("ok.txt", new TextEncoder().encode("after the bomb"))],
      ctx(),
    );
    expect(new TextDecoder().decode(dataOf(ok.out.files[0]!))).toContain("after the bomb");
  });
});

/** A minimal RFC 4180 reader (quoted fields, doubled quotes), rows of fields. */
function parseCsv(s: string, sep: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') ((field += '"'), i++);
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === sep) (row.push(field), (field = ""));
    else if (c === "\n") (row.push(field), rows.push(row), (row = []), (field = ""));
    else if (c !== "\r") field += c;
  }
  if (field || row.length) (row.push(field), rows.push(row));
  return rows;
}

function writeTmp(data: Uint8Array, name: string): string {
  const p = join(cliDir, name);
  writeFileSync(p, data);
  return p;
}

describe("html → Writer documents when the task pins office (issue 44: was refused, pandoc being the default)", () => {
  it("gotenberg-pages-3.html → docx with engine office: LibreOffice Writer's docx, the page's headings in order", async () => {
    const rel = "html/gotenberg-pages-3.html";
    // the headings as Python's html.parser reads them from the page itself
    const headings: string[] = JSON.parse(
      execFileSync(
        "python3",
        [
          "-c",
          `import html.parser, json, sys
class P(html.parser.HTMLParser):
    def __init__(s): super().__init__(); s.h = None; s.out = []
    def handle_starttag(s, t, a):
        if t in ("h1", "h2", "h3"): s.h = ""
    def handle_endtag(s, t):
        if t in ("h1", "h2", "h3") and s.h is not None: s.out.append(" ".join(s.h.split())); s.h = None
    def handle_data(s, d):
        if s.h is not None: s.h += d
p = P(); p.feed(open(sys.argv[1], encoding="utf-8").read()); print(json.dumps([h for h in p.out if h]))`,
          corpusPath(rel),
        ],
        { encoding: "utf8" },
      ),
    );
    expect(headings.length).toBeGreaterThanOrEqual(3);
    const r = await convert(rel, { output_format: "docx", engine: "office" });
    expect(r.engine.name).toBe("libreoffice");
    const xml = unzipText(dataOf(r.out.files[0]!), "word/document.xml");
    const body = normalize(xml.replace(/<[^>]+>/g, " "));
    let at = 0;
    for (const h of headings) {
      const i = body.indexOf(h, at);
      expect(i, h).toBeGreaterThanOrEqual(at);
      at = i + h.length;
    }
    // without a pin the default stays pandoc's (in WebAssembly, issue 47)
    const byDefault = await convert(rel, { output_format: "docx" });
    expect(byDefault.engine.name).toBe("pandoc-wasm");
  });
});
