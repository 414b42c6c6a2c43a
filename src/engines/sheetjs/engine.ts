/**
 * The SheetJS engine (issue 47): spreadsheets converted in JavaScript by SheetJS Community Edition
 * (`@e965/xlsx` 0.20.3, Apache-2.0) — an office-kind engine (kinds/office.ts) for the spreadsheet pairs of
 * formats.ts, in the api Worker and in the browser build, before LibreOffice (row "libreoffice"), which keeps
 * pdf/png/jpg/xps outputs and takes what this engine hands off (OVER_BUDGET, UNSUPPORTED).
 *
 * Fidelity, chosen to match what LibreOffice writes for the same pairs:
 * - csv/tsv in: delimited.ts (LibreOffice's import choices: sniffed separator and character set, quotes, plain
 *   decimals as numbers, the rest as text); the one sheet is named after the file, as Calc names it.
 * - csv out: the first sheet only, as LibreOffice writes it, unless `csv.sheet` picks another or 0 asks for every
 *   sheet (one part each); a workbook with more sheets says so in `warnings`. Cells are written as displayed (their
 *   number format applied: dates as the file shows them), `csv.delimiter` between fields, `text.encoding` applied.
 * - html out: every sheet, one table each under its name.
 * - xlsx/xlsm/xls/et/ods out: values, formulas (never evaluated), number formats, merged cells, column widths;
 *   not fonts, fills, borders, charts or images (SheetJS CE does not keep them; `warnings` says so). xlsm → xlsm
 *   keeps the macros' project (vbaProject.bin) as bytes; no macro is ever run.
 * Nothing outside the file is read: SheetJS resolves no external reference or link, and hyperlinks other than
 * http(s)/mailto are dropped from the html output. Work is bounded by budget.ts.
 */
import { unzipSync, zipSync } from "fflate";
import * as XLSX from "@e965/xlsx";
import type { CellObject, WorkBook, WorkSheet } from "@e965/xlsx";
import type { TextEncoding } from "../../../native-protocol/office";
import { TaskError, toFailure } from "../errors";
import { heldDocument, type OfficeEngine, type OfficePart, type OfficeRequest } from "../kinds/office";
import { DEFAULT_SHEETJS_BUDGET, type SheetJsBudget } from "./budget";
import { decodeDelimited, parseDelimited } from "./delimited";
import { SHEETJS_PAIRS } from "./formats";
import { SHEETJS_ENGINE } from "./version";
import { inflateZip, isZip, storedZip, type ZipEntry } from "./zip";

const ZIP_INPUTS = new Set(["xlsx", "xlsm", "ods", "numbers"]);
const OLE_INPUTS = new Set(["xls", "et"]);
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** SheetJS's bookType for each workbook output. */
const BOOK_TYPES: Record<string, XLSX.BookType> = {
  xlsx: "xlsx",
  xlsm: "xlsm",
  xls: "biff8",
  et: "biff8",
  ods: "ods",
};

/** What SheetJS CE does not carry from a workbook into a written one (reported in result.warnings). */
const STYLES_WARNING =
  "Converted by SheetJS: cell values, formulas, number formats, merged cells and column widths are kept; fonts, fills, borders, charts and images are not.";

/**
 * The SheetJS engine for the office kind: `convert` takes the pairs of formats.ts and answers UNSUPPORTED for any
 * other, for encrypted files and for files SheetJS cannot read, so that LibreOffice can try them.
 */
export function createSheetJsEngine(budget: SheetJsBudget = DEFAULT_SHEETJS_BUDGET): OfficeEngine {
  return {
    async convert(req) {
      try {
        return { ok: true, engineVersion: SHEETJS_ENGINE.version, ...convertSheet(req, budget) };
      } catch (err) {
        return { ok: false, error: toFailure(err), engineVersion: SHEETJS_ENGINE.version };
      }
    },
  };
}

/** The extension of `filename`, lower-case ("" when none). */
const extOf = (filename: string) => /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase() ?? "";

function convertSheet(
  req: OfficeRequest,
  budget: SheetJsBudget,
): { data: Uint8Array; pages: null; fontsSubstituted: []; parts?: OfficePart[]; warnings?: string[] } {
  const input = extOf(req.input.filename);
  const output = req.format.toLowerCase();
  if (!SHEETJS_PAIRS.some((p) => p.input === input && p.output === output))
    throw new TaskError("UNSUPPORTED", `SheetJS does not convert ${input || "this file"} to ${output}.`);
  const data = heldDocument(req.input, "SheetJS");
  if (data.length > budget.maxBytes)
    throw new TaskError("OVER_BUDGET", `${req.input.filename} is over SheetJS's ${budget.maxBytes}-byte budget.`);
  const wb = readWorkbook(req.input.filename, input, data, output, budget);
  const cells = bound(wb, budget);
  const warnings: string[] = [];
  if (output === "csv" || output === "tsv") {
    const sheet = req.csv?.sheet ?? 1;
    const names = wb.SheetNames;
    if (sheet > names.length)
      throw new TaskError(
        "CONVERSION_FAILED",
        `The workbook has ${names.length} sheet(s); there is no sheet ${sheet}.`,
      );
    const fs = output === "tsv" ? "\t" : (req.csv?.delimiter ?? ",");
    const csv = (name: string) =>
      encodeText(sheetText(wb.Sheets[name]!, fs, cells.grid[name]!, budget), req.text?.encoding);
    if (sheet === 0) {
      const parts = names.map((name) => ({ label: name, data: csv(name) }));
      return { data: parts[0]!.data, pages: null, fontsSubstituted: [], parts };
    }
    if (names.length > 1 && req.csv?.sheet === undefined)
      warnings.push(
        `The workbook has ${names.length} sheets; only the first ("${names[0]}") was written to CSV, as LibreOffice does. Ask for sheet: "all" to get every sheet.`,
      );
    return {
      data: csv(names[sheet - 1]!),
      pages: null,
      fontsSubstituted: [],
      ...(warnings.length ? { warnings } : {}),
    };
  }
  if (output === "html")
    return { data: new TextEncoder().encode(workbookHtml(wb, cells.grid, budget)), pages: null, fontsSubstituted: [] };
  if (input !== "csv" && input !== "tsv") warnings.push(STYLES_WARNING);
  return { data: writeBook(wb, output), pages: null, fontsSubstituted: [], ...(warnings.length ? { warnings } : {}) };
}

/**
 * The workbook written as `output`. Document properties SheetJS cannot write back (a WPS file's property of a type
 * its writer lacks) are dropped on a second try; a workbook it still cannot write is UNSUPPORTED (LibreOffice's).
 */
function writeBook(wb: WorkBook, output: string): Uint8Array {
  const write = () => {
    const bytes = new Uint8Array(
      XLSX.write(wb, {
        type: "array",
        bookType: BOOK_TYPES[output]!,
        compression: true,
        // shared strings, as Excel and LibreOffice write text cells (without them SheetJS writes t="str")
        bookSST: true,
        bookVBA: output === "xlsm",
      }) as ArrayBuffer,
    );
    return output === "ods" ? odfPackage(bytes) : bytes;
  };
  try {
    return write();
  } catch {
    delete wb.Props;
    delete wb.Custprops;
  }
  try {
    return write();
  } catch (err) {
    throw new TaskError("UNSUPPORTED", `SheetJS could not write this workbook as ${output}: ${(err as Error).message}`);
  }
}

/**
 * An OpenDocument package as ODF 1.2 part 3 §3.3 wants it: `mimetype` first and stored, so that `file` and other
 * readers recognise it by its first bytes (SheetJS deflates it).
 */
function odfPackage(bytes: Uint8Array): Uint8Array {
  const parts = unzipSync(bytes);
  const { mimetype, ...rest } = parts;
  if (!mimetype) return bytes;
  return zipSync({ mimetype: [mimetype, { level: 0 }], ...rest });
}

/** The workbook of one input, its container checked and bounded before SheetJS parses it. */
function readWorkbook(
  filename: string,
  input: string,
  data: Uint8Array,
  output: string,
  budget: SheetJsBudget,
): WorkBook {
  if (input === "csv" || input === "tsv") {
    const { text, separator } = decodeDelimited(data, input);
    const { rows, over } = parseDelimited(text, separator, budget.maxCells);
    if (over)
      throw new TaskError("OVER_BUDGET", `${filename} has more than ${budget.maxCells} cells (SheetJS's budget).`);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows, { dense: true }), sheetName(filename));
    return wb;
  }
  let bytes = data;
  if (ZIP_INPUTS.has(input)) {
    if (!isZip(data))
      throw new TaskError("UNSUPPORTED", `${filename} is not a zip container; SheetJS reads ${input} only as one.`);
    const entries = inflateZip(data, budget.maxInflatedBytes);
    const declared = declaredCells(entries);
    if (declared > budget.maxCells)
      throw new TaskError(
        "OVER_BUDGET",
        `${filename} declares ${declared} cells (SheetJS's budget: ${budget.maxCells}).`,
      );
    bytes = storedZip(entries);
  } else if (OLE_INPUTS.has(input) && !OLE_MAGIC.every((b, i) => data[i] === b))
    throw new TaskError(
      "UNSUPPORTED",
      `${filename} is not an Excel 97 (OLE2) workbook; SheetJS reads ${input} only as one.`,
    );
  try {
    return XLSX.read(bytes, {
      type: "array",
      dense: true,
      cellNF: true,
      cellFormula: true,
      bookVBA: output === "xlsm",
      WTF: false,
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // an encrypted workbook (SheetJS CE has no decryption) or a file it cannot parse: LibreOffice may read it
    throw new TaskError("UNSUPPORTED", `SheetJS could not read ${filename}: ${message}`);
  }
}

/** Calc's name for the one sheet of delimited text: the file's base name (at most 31 characters, no []:*?/\). */
function sheetName(filename: string): string {
  const base = filename.replace(/^.*[\\/]/, "").replace(/\.[^.]*$/, "");
  return base.replace(/[[\]:*?/\\]/g, "_").slice(0, 31) || "Sheet1";
}

/**
 * Cells the sheets' XML declares, counted on the bytes before parsing: xlsx's `<c>` elements (any prefix) in each
 * worksheet, and ods's non-empty cells times their column and row repeat counts (SheetJS copies a repeated cell
 * into every position it covers).
 */
export function declaredCells(entries: readonly ZipEntry[]): number {
  let cells = 0;
  for (const e of entries) {
    if (/^xl\/worksheets\/[^/]+\.xml$/i.test(e.name)) cells += countCellTags(e.data);
    else if (e.name === "content.xml") cells += odsCells(e.data);
  }
  return cells;
}

/** `<c ` / `<c>` / `<c/>` and `<x:c …>` elements in XML bytes. */
function countCellTags(b: Uint8Array): number {
  let n = 0;
  for (let i = b.indexOf(0x3c); i >= 0 && i < b.length - 2; i = b.indexOf(0x3c, i + 1)) {
    let j = i + 1;
    while (j < b.length && j - i < 12 && isNameByte(b[j]!)) j++;
    if (b[j] === 0x3a)
      j++; // a prefix: <x:c
    else j = i + 1;
    const next = b[j + 1];
    if (
      b[j] === 0x63 &&
      (next === 0x20 || next === 0x3e || next === 0x2f || next === 0x09 || next === 0x0a || next === 0x0d)
    )
      n++;
  }
  return n;
}

const isNameByte = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);

/** ods cells as SheetJS makes them: each non-empty table:table-cell × its columns repeated × its row's repeats. */
function odsCells(b: Uint8Array): number {
  const text = new TextDecoder("latin1").decode(b);
  const tag = /<table:(table-row|table-cell|covered-table-cell)\b([^>]*)>/g;
  const repeat = (attrs: string, name: string) => {
    const m = new RegExp(`${name}="(\\d+)"`).exec(attrs);
    return m ? Math.max(1, Number(m[1])) : 1;
  };
  let rows = 1;
  let cells = 0;
  for (let m = tag.exec(text); m; m = tag.exec(text)) {
    if (m[1] === "table-row") rows = repeat(m[2]!, "table:number-rows-repeated");
    else if (!m[2]!.endsWith("/")) cells += rows * repeat(m[2]!, "table:number-columns-repeated");
    if (cells > Number.MAX_SAFE_INTEGER / 2) break;
  }
  return cells;
}

/**
 * Checks the parsed workbook against the budget and shrinks each sheet's range to its used cells from A1 (a
 * declared range of A1:XFD1048576 is not walked); drops hyperlinks that are not http(s) or mailto.
 * @returns the used grid of each sheet (rows × columns, what a csv or html output walks)
 * @throws TaskError OVER_BUDGET when the cells made pass `maxCells`
 */
function bound(wb: WorkBook, budget: SheetJsBudget): { grid: Record<string, number> } {
  let cells = 0;
  const grid: Record<string, number> = {};
  // dates of a 1904-based workbook (Numbers files read so) moved to the 1900 system every writer and formatter uses
  const shift = wb.Workbook?.WBProps?.date1904 ? 1462 : 0;
  if (shift) wb.Workbook!.WBProps!.date1904 = false;
  for (const name of wb.SheetNames) {
    const ws = wb.Sheets[name]!;
    const rows = (ws["!data"] ??= []) as (CellObject | undefined)[][];
    let maxR = -1;
    let maxC = -1;
    rows.forEach((row, r) => {
      if (!row) return;
      row.forEach((cell, c) => {
        if (!cell) return;
        cells++;
        if (r > maxR) maxR = r;
        if (c > maxC) maxC = c;
        if (cell.l && !/^(https?:|mailto:)/i.test(cell.l.Target ?? "")) delete cell.l;
        if (shift && cell.t === "n" && typeof cell.z === "string" && XLSX.SSF.is_date(cell.z)) {
          cell.v = (cell.v as number) + shift;
          delete cell.w;
        }
      });
    });
    if (cells > budget.maxCells)
      throw new TaskError("OVER_BUDGET", `The workbook has more than ${budget.maxCells} cells (SheetJS's budget).`);
    // SheetJS's xlsx writer reads every row of the range from a dense sheet: rows without cells become empty rows
    for (let r = 0; r <= maxR; r++) rows[r] ??= [];
    if (maxR >= 0) ws["!ref"] = XLSX.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: maxR, c: maxC } });
    else delete ws["!ref"];
    grid[name] = (maxR + 1) * (maxC + 1);
  }
  return { grid };
}

/** One sheet as delimited text (rows ended by "\n", as LibreOffice writes on Linux), cells as displayed. */
function sheetText(ws: WorkSheet, fs: string, grid: number, budget: SheetJsBudget): string {
  if (grid > budget.maxGridCells)
    throw new TaskError("OVER_BUDGET", `A sheet spans ${grid} positions (SheetJS's budget: ${budget.maxGridCells}).`);
  if (!ws["!ref"]) return "";
  return XLSX.utils.sheet_to_csv(ws, { FS: fs, RS: "\n", blankrows: true }) + "\n";
}

/** Every sheet as an HTML table under its name, in one UTF-8 document. */
function workbookHtml(wb: WorkBook, grid: Record<string, number>, budget: SheetJsBudget): string {
  const body = wb.SheetNames.map((name) => {
    if (grid[name]! > budget.maxGridCells)
      throw new TaskError(
        "OVER_BUDGET",
        `Sheet ${name} spans ${grid[name]} positions (SheetJS's budget: ${budget.maxGridCells}).`,
      );
    const ws = wb.Sheets[name]!;
    const table = ws["!ref"] ? XLSX.utils.sheet_to_html(ws, { header: "", footer: "" }) : "<table></table>";
    return `<h1>${escapeHtml(name)}</h1>\n${table}`;
  }).join("\n");
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(wb.SheetNames[0] ?? "")}</title></head><body>\n${body}\n</body></html>\n`;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * `text` in `encoding` (default UTF-8, no BOM): UTF-16 little-endian with a BOM, as LibreOffice's "Unicode" csv;
 * windows-1252, ISO-8859-1 and ASCII with `?` for characters they lack.
 */
export function encodeText(text: string, encoding: TextEncoding = "utf-8"): Uint8Array {
  if (encoding === "utf-8") return new TextEncoder().encode(text);
  if (encoding === "utf-16") {
    const out = new Uint8Array(2 + text.length * 2);
    out[0] = 0xff;
    out[1] = 0xfe;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      out[2 + 2 * i] = c & 0xff;
      out[3 + 2 * i] = c >> 8;
    }
    return out;
  }
  const chars = [...text];
  const out = new Uint8Array(chars.length);
  chars.forEach((ch, i) => {
    const c = ch.codePointAt(0)!;
    out[i] =
      c < 0x80 || (encoding !== "ascii" && c >= 0xa0 && c <= 0xff)
        ? c
        : encoding === "windows-1252"
          ? (CP1252_HIGH.get(c) ?? 0x3f)
          : 0x3f;
  });
  return out;
}

/** windows-1252's 0x80–0x9F characters, by code point (WHATWG Encoding's index-windows-1252). */
const CP1252_HIGH = new Map<number, number>(
  [...new TextDecoder("windows-1252").decode(Uint8Array.from({ length: 32 }, (_, i) => 0x80 + i))].map(
    (ch, i) => [ch.codePointAt(0)!, 0x80 + i] as const,
  ),
);
