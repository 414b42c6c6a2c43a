/**
 * convert spreadsheets → pdf, png, jpg at the edge (issue 47), the fallback of LibreOffice's route for the same
 * pairs: the office engine that writes html for the format (SheetJS, row "sheetjs": every sheet a table under its
 * name, cell values as displayed) makes the page, and Chrome prints it. LibreOffice stays first (`fallback: true`):
 * it prints with the workbook's page setup, print areas and styles, which an HTML rendering of the cells does not
 * have; the task's result.warnings says so when this route ran.
 *
 * The inputs are the spreadsheet formats both SheetJS and LibreOffice read (csv, et, numbers, ods, xls, xlsm, xlsx).
 * SheetJS escapes cell text in its html (`<` as `&lt;`) and keeps only http(s)/mailto links; the page's Content
 * Security Policy (fallback.ts PAGE_CSP) and the web engine's guard stop any fetch besides.
 */
import { z } from "zod";
import { OFFICE_INPUTS, SHEETJS_INPUTS } from "../../engines/registry";
import { useEngine } from "../../engines/use";
import { extensionOf } from "../io/filenames";
import { engineCall, heldBytes, readInput } from "../kit";
import type { OperationHandler } from "../types";
import { FALLBACK_OUTPUTS, PAGE_CSP, renderEach, unhonoured } from "./fallback";

/** Spreadsheet inputs of this route: SheetJS reads them and LibreOffice, the first route, does too. */
export const SHEET_INPUTS: readonly string[] = SHEETJS_INPUTS.filter((f) =>
  (OFFICE_INPUTS as readonly string[]).includes(f),
);

/** What result.warnings says whenever this route ran: where the layout comes from, and what is not kept. */
export const SHEETS_LAYOUT_WARNING =
  "Rendered by Chrome from an HTML rendering of the cells (every sheet a table under its name, values as displayed), because LibreOffice, the first route for spreadsheets, could not run this task here: the workbook's page setup (paper size, orientation, margins, scaling, page breaks), print areas and print titles, headers and footers, and cell styles (fonts, fills, borders, alignment), charts and images are not kept.";

/** The page style: readable tables, each sheet from a new page, long cell text wrapped within the page's width. */
const SHEET_STYLE =
  "body{font-family:'DejaVu Sans',Arial,sans-serif;font-size:9pt;margin:0;color:#000}h1{font-size:11pt;margin:0 0 .5em}h1~h1{break-before:page}table{border-collapse:collapse;margin-bottom:1em}td,th{border:1px solid #bbb;padding:1px 4px;vertical-align:top;overflow-wrap:anywhere}";

const params = z.object({});

/** convert spreadsheets → pdf, png, jpg by Chrome from SheetJS's HTML: the fallback after LibreOffice (module comment). */
export const sheetsToPage: OperationHandler<z.infer<typeof params>> = {
  operation: "convert",
  kind: "web",
  formats: SHEET_INPUTS.flatMap((input) => FALLBACK_OUTPUTS.map((output) => ({ input, output }))),
  params,
  credits: 1,
  takesInput: true,
  requiresOutputFormat: true,
  fallback: true,
  async run(inputs, p, ctx) {
    const from = (p.input_format ?? extensionOf(inputs[0]?.filename ?? "")).toLowerCase();
    const notes = unhonoured(p, [], `Chrome's rendering of ${from} to ${p.output_format} (LibreOffice's option)`);
    return renderEach(
      inputs,
      p,
      ctx,
      async (input) => {
        const format = (p.input_format ?? extensionOf(input.filename)).toLowerCase() || undefined;
        const { engine, row } = useEngine(ctx, "office", "convert", { input: format, output: "html" });
        const r = await engineCall(
          engine.convert({
            input: { data: await readInput(input, ctx, row), filename: input.filename },
            format: "html",
          }),
          input.filename,
          row.name,
        );
        return {
          html: sheetPage(new TextDecoder().decode(await heldBytes(r.data))),
          warnings: [SHEETS_LAYOUT_WARNING, ...(r.warnings ?? [])],
        };
      },
      notes,
    );
  },
};

/**
 * The office engine's HTML of a workbook (a UTF-8 document) with the page's policy and style at the start of its head.
 * @param html a whole document (`<head>` present), or a fragment, which gets a head of its own
 */
export function sheetPage(html: string): string {
  const head = `${PAGE_CSP}<style>${SHEET_STYLE}</style>`;
  return /<head>/i.test(html)
    ? html.replace(/<head>/i, (h) => `${h}${head}`)
    : `<!doctype html><html><head><meta charset="utf-8">${head}</head><body>${html}</body></html>`;
}
