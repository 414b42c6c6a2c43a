/**
 * Delimited text (csv, tsv, tab) sniffed as a spreadsheet application's import does (issue 44): the character set from
 * the BOM or from whether the bytes are valid UTF-8, and the separator that splits the first records into the most
 * consistent number of fields, `"` quoting fields that hold separators and line breaks. Shared by the native engine's
 * Calc import (container/office/delimited.ts) and the SheetJS engine (src/engines/sheetjs/, issue 47), so both read
 * one file the same way. Imports nothing.
 */

/** Extensions whose files are delimited text; the value is the separator to assume when sniffing finds none. */
export const DELIMITED_EXTENSIONS: Readonly<Record<string, string>> = { csv: ",", tsv: "\t", tab: "\t" };

/** Separators tried, in the order a tie is broken. */
const CANDIDATES = [",", ";", "\t", "|"] as const;

/** How much of the file the separator and character set are judged from, bytes. */
export const SNIFF_BYTES = 64 * 1024;
/** How many records the separator is judged from. */
const SNIFF_RECORDS = 50;

/** LibreOffice's character set numbers (rtl_TextEncoding) for the import's token 3. */
export const CHARSET = { utf8: 76, utf16: 65535, windows1252: 1 } as const;

/**
 * The character set of delimited text: UTF-16 by its BOM, UTF-8 by its BOM or by decoding as valid UTF-8 (a cut
 * multi-byte sequence at the end of the sniffed bytes is allowed), windows-1252 otherwise.
 * @returns LibreOffice's character set number and the text of the sniffed bytes in it
 */
export function sniffCharset(data: Uint8Array): { charset: number; text: string } {
  const head = data.subarray(0, SNIFF_BYTES);
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))
    return { charset: CHARSET.utf16, text: new TextDecoder(head[0] === 0xff ? "utf-16le" : "utf-16be").decode(head) };
  try {
    const cut = data.length > SNIFF_BYTES ? trimPartialUtf8(head) : head;
    return { charset: CHARSET.utf8, text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(cut) };
  } catch {
    return { charset: CHARSET.windows1252, text: new TextDecoder("windows-1252").decode(head) };
  }
}

/** `b` without a UTF-8 sequence cut off at its end (at most 3 bytes dropped). */
function trimPartialUtf8(b: Uint8Array): Uint8Array {
  for (let back = 1; back <= 3 && back <= b.length; back++) {
    const c = b[b.length - back]!;
    if ((c & 0xc0) === 0x80) continue; // continuation byte: look further back for the lead byte
    const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    return need > back ? b.subarray(0, b.length - back) : b;
  }
  return b;
}

/**
 * The number of fields in each of the first records of `text` when split by `sep`, honouring `"` quotes (a quoted
 * field may hold the separator, `""` and line breaks). The last record is dropped when the text was cut mid-record.
 */
export function fieldCounts(text: string, sep: string, maxRecords = SNIFF_RECORDS, complete = true): number[] {
  const counts: number[] = [];
  let fields = 1;
  let quoted = false;
  let atFieldStart = true;
  let empty = true;
  for (let i = 0; i < text.length && counts.length < maxRecords; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') i++;
        else quoted = false;
      }
      continue;
    }
    if (ch === '"' && atFieldStart) {
      quoted = true;
      atFieldStart = false;
      empty = false;
    } else if (ch === sep) {
      fields++;
      atFieldStart = true;
      empty = false;
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      if (!empty) counts.push(fields);
      fields = 1;
      atFieldStart = true;
      empty = true;
    } else {
      atFieldStart = false;
      if (ch !== " ") empty = false;
    }
  }
  if (!empty && complete && counts.length < maxRecords) counts.push(fields);
  return counts;
}

/**
 * The field separator of delimited text: among `,` `;` tab `|`, the one that splits the most records into the same
 * number (≥ 2) of fields; ties go to the earlier candidate, then to `fallback` when none splits anything.
 */
export function sniffSeparator(text: string, fallback: string, complete = true): string {
  let best = { sep: fallback, score: 0 };
  for (const sep of [fallback, ...CANDIDATES.filter((c) => c !== fallback)]) {
    const counts = fieldCounts(text, sep, SNIFF_RECORDS, complete);
    if (!counts.length) continue;
    const tally = new Map<number, number>();
    for (const c of counts) if (c >= 2) tally.set(c, (tally.get(c) ?? 0) + 1);
    // records agreeing on the commonest field count; more fields break a tie (a lone comma in text vs real columns)
    let score = 0;
    for (const [fields, n] of tally) score = Math.max(score, n + Math.min(fields, 100) / 1000);
    if (score > best.score) best = { sep, score };
  }
  return best.sep;
}
