/**
 * Delimited text's import options (container/office/delimited.ts, issue 44): the separator, character set and filter
 * options Calc's CSV import is given. The expectations are what Python's csv module and `file` say of the same bytes
 * (the comments name them); the real files go through LibreOffice in test/native/office-csv-input.test.ts.
 */
import { describe, expect, it } from "vitest";
import {
  CSV_IMPORT_FILTER,
  delimitedImport,
  fieldCounts,
  sniffCharset,
  sniffSeparator,
} from "../../container/office/delimited";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("delimited text import", () => {
  it("only csv, tsv and tab files are delimited text", () => {
    expect(delimitedImport("report.xlsx", bytes("a,b"))).toBeNull();
    expect(delimitedImport("notes.txt", bytes("a,b"))).toBeNull();
    expect(delimitedImport("data.CSV", bytes("a,b\n1,2\n"))).toEqual({
      importFilter: CSV_IMPORT_FILTER,
      importOptions: "44,34,76,1,,,false,false",
    });
  });

  it("finds the separator that splits the records evenly", () => {
    expect(sniffSeparator("a;b;c\n1,5;2;3\n4;5,5;6\n", ",")).toBe(";"); // European: decimal commas inside fields
    expect(sniffSeparator("name\tage\nAnn\t30\n", ",")).toBe("\t");
    expect(sniffSeparator("x|y\n1|2\n", ",")).toBe("|");
    expect(sniffSeparator('"Smith, John";42\n"Doe, Jane";37\n', ",")).toBe(";");
    // one column: nothing splits, the extension's default stays
    expect(sniffSeparator("alpha\nbeta\n", "\t")).toBe("\t");
  });

  it("counts fields with quotes, doubled quotes and line breaks inside quoted fields", () => {
    // csv.reader(io.StringIO(...)) gives [['a', 'b,c', 'd'], ['1', 'two\nlines', '3'], ['x', 'say ""hi""', 'z']]
    const text = 'a,"b,c",d\r\n1,"two\nlines",3\nx,"say ""hi""",z\n';
    expect(fieldCounts(text, ",")).toEqual([3, 3, 3]);
    // a record cut by the end of the sniffed bytes is not counted
    expect(fieldCounts("a,b\n1,2\n3", ",", 50, false)).toEqual([2, 2]);
  });

  it("character set: BOMs, valid UTF-8, else windows-1252", () => {
    expect(sniffCharset(new Uint8Array([0xef, 0xbb, 0xbf, 0x61])).charset).toBe(76);
    expect(sniffCharset(bytes("Zürich;München\n")).charset).toBe(76);
    expect(sniffCharset(new Uint8Array([0xff, 0xfe, 0x61, 0x00])).charset).toBe(65535);
    // "Zürich" in Latin-1: 0xFC is not UTF-8
    expect(sniffCharset(new Uint8Array([0x5a, 0xfc, 0x72, 0x69, 0x63, 0x68])).charset).toBe(1);
  });

  it("a UTF-8 sequence cut at the end of the sniffed bytes is still UTF-8", () => {
    const big = new Uint8Array(70 * 1024).fill(0x61);
    big.set(bytes("é"), 64 * 1024 - 1); // 2 bytes straddling the 64 KiB boundary
    expect(sniffCharset(big).charset).toBe(76);
  });

  it("an explicit one-character delimiter wins over the sniffed one", () => {
    expect(delimitedImport("x.csv", bytes("a;b\n1;2\n"), ",")!.importOptions.startsWith("44,")).toBe(true);
  });
});
