/**
 * Delimited text in (issue 44: every CSV input ended OPEN_FAILED, "LibreOffice could not load the document"): real
 * CSV and TSV files written by others (test/fixtures/spreadsheet: semicolon-separated Latin-1 with decimal commas,
 * quoted fields holding commas, line breaks and JSON, a UTF-8 BOM, tab-separated text in many scripts) → xlsx, ods,
 * pdf, html. Oracles from outside our code: Python's csv module reading the source with the delimiter and encoding
 * measured in facts.json, the xlsx cells through Python's zipfile + ElementTree, the ods through unzip, and pdftotext.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeEngines } from "../../src/runtime/node/engines";
import { execute } from "../../src/runner/execute";
import { nativeEngineForFile } from "../support/native-engine";
import { dataOf, testContext } from "../support/pdf-helpers";
import type { InputFile } from "../../src/operations/types";
import { normalize, unzipText, xlsxCells } from "../support/office-oracles";
import { tempFile } from "../support/native";

const native = nativeEngineForFile();
// LibreOffice's import under test: the SheetJS row (issue 47), first for these pairs, is left out
// (test/engines/sheetjs.test.ts holds it to the same oracles)
const ctx = () => testContext({ engines: { ...nodeEngines(), sheetjs: undefined, ...native.engines() } });

const FIXTURES = join(import.meta.dirname, "..", "fixtures");
const facts = JSON.parse(readFileSync(join(FIXTURES, "spreadsheet", "facts.json"), "utf8")) as Record<
  string,
  { delimiter: string; encoding: string; python_csv_records_including_header: number }
>;
const DELIMITED = Object.keys(facts).filter((k) => /\.(csv|tsv)$/.test(k));

function fixtureInput(rel: string): InputFile {
  const path = join(FIXTURES, rel);
  return {
    filename: rel.split("/").pop()!,
    size: statSync(path).size,
    fromTask: "import",
    key: `fixtures/${rel}`,
    bytes: async () => new Uint8Array(readFileSync(path)),
  };
}

/** The records Python's csv module reads from the fixture with its measured delimiter and encoding. */
function pythonRecords(rel: string): string[][] {
  const f = facts[rel]!;
  const py = `import csv, json, sys
with open(sys.argv[1], newline="", encoding=sys.argv[2]) as fh:
    print(json.dumps(list(csv.reader(fh, delimiter=sys.argv[3]))))`;
  // a "latin-1" label read as the WHATWG Encoding Standard does, as windows-1252 (its 0x80–0x9F are letters such as Š,
  // which frictionless-issue-811.csv's Slovenian place names hold; ISO-8859-1 would make them control characters)
  const encoding = f.encoding === "latin-1" ? "cp1252" : f.encoding;
  const out = execFileSync("python3", ["-c", py, join(FIXTURES, rel), encoding, f.delimiter], {
    encoding: "utf8",
    maxBuffer: 256 << 20,
  });
  return JSON.parse(out);
}

/** A cell LibreOffice keeps as the text it read (not a number or a date it may reformat). */
const textual = (v: string) => v.trim() !== "" && !/^[-+]?[\d.,\s%$€]+$/.test(v) && !/^\d{1,4}[-/.]\d/.test(v);

describe("delimited text → spreadsheets and documents (LibreOffice Calc's CSV import)", () => {
  it("the fixtures cover the shapes: semicolons, tabs, Latin-1, a BOM, quoted line breaks", () => {
    expect(DELIMITED.length).toBeGreaterThanOrEqual(5);
    expect(new Set(DELIMITED.map((k) => facts[k]!.delimiter))).toEqual(new Set([",", ";", "\t"]));
    expect(new Set(DELIMITED.map((k) => facts[k]!.encoding))).toEqual(new Set(["utf-8", "utf-8-sig", "latin-1"]));
  });

  it.each(DELIMITED)("%s → xlsx: every record a row, every text cell as Python's csv module reads it", async (rel) => {
    const r = await execute("convert", { output_format: "xlsx" }, [fixtureInput(rel)], ctx());
    expect(r.engine.name).toBe("libreoffice");
    const cells = xlsxCells(tempFile("out.xlsx", dataOf(r.out.files[0]!)), 1);
    const records = pythonRecords(rel);
    expect(records.length).toBe(facts[rel]!.python_csv_records_including_header);
    const byPos = new Map(cells.map((c) => [`${c.row}:${c.col}`, c.value]));
    // as many rows as records (the last one holds a cell), and no cell beyond the widest record
    const most = (xs: number[]) => xs.reduce((a, b) => Math.max(a, b), 0);
    expect(most(cells.map((c) => c.row)) + 1).toBe(records.length);
    expect(most(cells.map((c) => c.col)) + 1).toBe(most(records.map((x) => x.length)));
    let compared = 0;
    for (const [row, record] of records.entries())
      for (const [col, value] of record.entries()) {
        if (!textual(value)) continue;
        // a BOM is not part of the first cell; line breaks inside quoted cells stay line breaks
        expect(byPos.get(`${row}:${col}`), `${rel} row ${row + 1} col ${col + 1}`).toBe(value.replace(/^\uFEFF/, ""));
        compared++;
      }
    expect(compared).toBeGreaterThan(0);
  });

  it("frictionless-table-with-accents.csv → ods and → pdf: the accented Latin-1 header, and the same rows", async () => {
    const rel = "spreadsheet/frictionless-table-with-accents.csv";
    const records = pythonRecords(rel);
    const ods = await execute("convert", { output_format: "ods" }, [fixtureInput(rel)], ctx());
    const content = unzipText(dataOf(ods.out.files[0]!), "content.xml");
    expect(content).toContain("Année");
    expect(content.match(/<table:table-row/g)!.length).toBeGreaterThanOrEqual(1);
    const pdf = await execute("convert", { output_format: "pdf" }, [fixtureInput(rel)], ctx());
    const text = normalize(
      execFileSync("pdftotext", [tempFile("out.pdf", dataOf(pdf.out.files[0]!)), "-"], { encoding: "utf8" }),
    );
    for (const word of records[0]!.slice(0, 4)) expect(text).toContain(word);
    expect(text).toContain(records[records.length - 1]![1]!);
  });

  it("tika-text-test.tsv → html: each script's text in a table cell", async () => {
    const rel = "spreadsheet/tika-text-test.tsv";
    const records = pythonRecords(rel);
    const r = await execute("convert", { output_format: "html" }, [fixtureInput(rel)], ctx());
    // the page's text as Python's html module reads it (tags dropped, character references resolved)
    const html = normalize(
      execFileSync(
        "python3",
        ["-c", "import html, re, sys; print(html.unescape(re.sub(r'<[^>]+>', ' ', sys.stdin.read())))"],
        { input: dataOf(r.out.files[0]!), encoding: "utf8", maxBuffer: 64 << 20 },
      ),
    );
    for (const record of records) expect(html).toContain(normalize(record[1]!).slice(0, 30));
  });
});
