/**
 * Delimited text (csv, tsv, tab) as LibreOffice Calc opens it (issue 44: every CSV input ended OPEN_FAILED).
 *
 * Loaded by type detection alone, a .csv makes Calc's "Text Import" dialog ask for its options; the bridge's
 * interaction handler answers every prompt with abort, so the load failed. `soffice --convert-to` works because the
 * command line supplies default options. Here the options are chosen from the file itself, as a spreadsheet
 * application's import does: the separator that splits the first records into the most consistent number of fields,
 * `"` as the text delimiter (quoted fields may hold separators and line breaks), the character set from the BOM or
 * from whether the bytes are valid UTF-8, and special numbers (dates, scientific notation) left as written.
 *
 * The FilterOptions tokens are LibreOffice's "Filter Options for the CSV Filter"
 * (https://help.libreoffice.org/latest/en-US/text/shared/guide/csv_params.html): 1 field separators (character
 * codes joined by "/"), 2 text delimiter, 3 character set, 4 first line, 5 column formats, 6 language,
 * 7 quoted field as text, 8 detect special numbers.
 */

import {
  DELIMITED_EXTENSIONS,
  SNIFF_BYTES,
  fieldCounts,
  sniffCharset,
  sniffSeparator,
} from "../../native-protocol/delimited.ts";

export { DELIMITED_EXTENSIONS, fieldCounts, sniffCharset, sniffSeparator };

/** Calc's CSV import filter (the filter name of `soffice --infilter`). */
export const CSV_IMPORT_FILTER = "Text - txt - csv (StarCalc)";

/**
 * The import filter and its FilterOptions for a delimited-text input, or null when `filename` is not one.
 * `delimiter` (one character) overrides the sniffed separator.
 */
export function delimitedImport(
  filename: string,
  data: Uint8Array,
  delimiter?: string,
): { importFilter: typeof CSV_IMPORT_FILTER; importOptions: string } | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase() ?? "";
  const fallback = DELIMITED_EXTENSIONS[ext];
  if (fallback === undefined) return null;
  const { charset, text } = sniffCharset(data);
  const sep = delimiter?.length === 1 ? delimiter : sniffSeparator(text, fallback, data.length <= SNIFF_BYTES);
  return {
    importFilter: CSV_IMPORT_FILTER,
    importOptions: `${sep.codePointAt(0)},34,${charset},1,,,false,false`,
  };
}
