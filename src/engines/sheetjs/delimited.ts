/**
 * Delimited text (csv, tsv) read into rows of cells as LibreOffice's CSV import reads them in the native engine
 * (container/office/delimited.ts gives Calc the same choices): the character set and the separator sniffed by
 * native-protocol/delimited.ts (UTF-16 or UTF-8 by BOM, else UTF-8 when valid, else windows-1252; the separator among
 * `,` `;` tab `|` that splits the first records most consistently), `"` quoting only at a field's start (a quoted
 * field may hold separators, `""` and line breaks; a `"` inside an unquoted field is text), and "detect special
 * numbers" off: plain decimal numbers become numbers, everything else — dates, scientific notation, decimal
 * commas — stays text as written.
 */
import {
  CHARSET,
  DELIMITED_EXTENSIONS,
  SNIFF_BYTES,
  sniffCharset,
  sniffSeparator,
} from "../../../native-protocol/delimited";

/** A cell of delimited text: a number (LibreOffice's plain decimal), text, or null for an empty field. */
export type DelimitedCell = number | string | null;

/** A plain decimal number as Calc's import takes it with special numbers off (no exponent, no grouping). */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/**
 * The text of delimited bytes in their sniffed character set (a BOM dropped).
 * @returns the text and the separator (`delimiter` when given, else sniffed, else the extension's own)
 */
export function decodeDelimited(data: Uint8Array, ext: string): { text: string; separator: string } {
  const { charset, text: head } = sniffCharset(data);
  const encoding =
    charset === CHARSET.utf16
      ? data[0] === 0xff
        ? "utf-16le"
        : "utf-16be"
      : charset === CHARSET.utf8
        ? "utf-8"
        : "windows-1252";
  const text = new TextDecoder(encoding).decode(data);
  const separator = sniffSeparator(
    head.replace(/^\uFEFF/, ""),
    DELIMITED_EXTENSIONS[ext] ?? ",",
    data.length <= SNIFF_BYTES,
  );
  return { text, separator };
}

/**
 * The records of `text` split by `separator`, each field a number or text.
 * @param maxCells stop with `over: true` once this many fields were read
 */
export function parseDelimited(
  text: string,
  separator: string,
  maxCells: number,
): { rows: DelimitedCell[][]; over: boolean } {
  const rows: DelimitedCell[][] = [];
  let row: DelimitedCell[] = [];
  let field = "";
  let quoted = false;
  let wasQuoted = false;
  let atFieldStart = true;
  let cells = 0;
  const endField = () => {
    row.push(field === "" ? null : DECIMAL.test(field) ? Number(field) : field);
    field = "";
    wasQuoted = false;
    atFieldStart = true;
    cells++;
  };
  const endRow = () => {
    endField();
    rows.push(row.length === 1 && row[0] === null ? [] : row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
      continue;
    }
    if (ch === '"' && atFieldStart) {
      quoted = wasQuoted = true;
      atFieldStart = false;
    } else if (ch === separator) endField();
    else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      endRow();
      if (cells > maxCells) return { rows, over: true };
    } else {
      field += ch;
      atFieldStart = false;
    }
  }
  if (field !== "" || row.length || wasQuoted) endRow();
  // trailing empty records (a final line break) are not rows
  while (rows.length && rows[rows.length - 1]!.length === 0) rows.pop();
  return { rows, over: cells > maxCells };
}
