/**
 * What the SheetJS engine (row "sheetjs", issue 47) reads and writes: CloudConvert's spreadsheet pairs among the
 * workbook and delimited-text formats SheetJS CE parses and writes in JavaScript. pdf, png, jpg and xps outputs, and
 * sdc (StarCalc, which SheetJS does not read), stay with LibreOffice (row "libreoffice"), which is also the fallback
 * for these pairs (over budget, encrypted files, files SheetJS cannot parse).
 *
 * et is WPS Spreadsheets' name for an Excel 97 (BIFF8) workbook, read and written as xls; numbers is Apple Numbers
 * 2013+ (IWA), read only.
 */

/** Inputs the engine reads. */
export const SHEETJS_INPUTS = ["csv", "tsv", "xls", "xlsx", "xlsm", "ods", "et", "numbers"] as const;

/** Outputs the engine writes from any of its inputs. */
export const SHEETJS_OUTPUTS = ["csv", "xlsx", "xls", "ods", "html"] as const;

/** Outputs written only from the same format (a re-save, "+ same" in the catalogue): xlsm keeps its macros' project. */
export const SHEETJS_SAME_ONLY = ["xlsm", "et", "tsv"] as const;

/** Every (input, output) pair the engine converts. */
export const SHEETJS_PAIRS: readonly { input: string; output: string }[] = [
  ...SHEETJS_INPUTS.flatMap((input) => SHEETJS_OUTPUTS.map((output) => ({ input, output }))),
  ...SHEETJS_SAME_ONLY.map((f) => ({ input: f, output: f })),
];
