/**
 * convert between documents, spreadsheets, presentations and PDF (issue 32): office ↔ office by LibreOffice
 * (doc, docx, odt, rtf, txt, html; xls, xlsx, ods, csv, html; ppt, pptx, odp; eps/emf/xps…), pdf → txt/html/svg/eps/ps
 * by poppler and pdf → docx/doc/odt/rtf/emf/wmf by LibreOffice — whichever office-kind engine's row claims the pair
 * (engines/registry.ts). → pdf is office/index.ts's, → images via-pdf.ts's.
 *
 * Options: csv `delimiter` (one character, default ","), `sheet` (1-based number, or "all": every sheet its own file,
 * `<name>-<sheet>.csv`), `encoding` of txt/csv (TEXT_ENCODINGS, default utf-8), `layout` (pdf → txt: pdftotext -layout),
 * `pages` (outputs made through PDF: which pages), `password`. Outputs of several files (a csv per sheet, an svg or eps
 * per page) are named `<name>-<label>.<ext>`, or by `filename` with `%d`.
 */
import { z } from "zod";
import { TEXT_ENCODINGS } from "../../../native-protocol/office";
import { TaskError } from "../../engines/errors";
import { DOCUMENT_PAIRS } from "../../engines/registry";
import { useEngine } from "../../engines/use";
import { extensionOf } from "../io/filenames";
import { baseName, outputName } from "../kit";
import { checkPagesParam, pagesParam } from "../pdf/common";
import type { OperationHandler } from "../types";
import { eachDocument } from "./common";

const params = z.object({
  password: z.string().max(256).optional().describe("Opens a password-protected document"),
  pages: pagesParam,
  delimiter: z
    .string()
    .refine((s) => [...s].length === 1 && s !== '"' && s !== "\n" && s !== "\r", "must be one character")
    .optional()
    .describe('csv: the field separator (default ",")'),
  sheet: z
    .union([z.coerce.number().int().min(1).max(10000), z.literal("all")])
    .optional()
    .describe('csv: the sheet written (1-based, default 1), or "all": every sheet as its own file'),
  encoding: z
    .string()
    .transform((s) =>
      s
        .toLowerCase()
        .replace(/^utf8$/, "utf-8")
        .replace(/^latin1$/, "iso-8859-1"),
    )
    .pipe(z.enum(TEXT_ENCODINGS))
    .optional()
    .describe("txt and csv: the character encoding written (default utf-8)"),
  layout: z
    .union([z.boolean(), z.enum(["true", "false"]).transform((s) => s === "true")])
    .optional()
    .describe("pdf → txt: keep the page's physical layout (pdftotext -layout)"),
});
type Params = z.infer<typeof params>;

const CSV_ONLY = ["delimiter", "sheet"] as const;

/** Engines whose pin is served by another that does the same work; the task says so in result.warnings. */
const STAND_INS: Record<string, string> = {
  pdf2htmlex: "pdf2htmlEX is not available here; poppler's pdftohtml converted the PDF to HTML instead.",
  "pdftron-pdf2word": "PDFTron is not available here; LibreOffice converted the PDF (laid out from pdftohtml's HTML).",
  pdftron: "PDFTron is not available here; LibreOffice converted the PDF (laid out from pdftohtml's HTML).",
};

export const convertDocument: OperationHandler<Params> = {
  operation: "convert",
  kind: "office",
  formats: [...DOCUMENT_PAIRS],
  params,
  credits: 1,
  requiresOutputFormat: true,
  takesInput: true,
  check: checkPagesParam,
  inapplicable(p) {
    const out = (p as Params & { output_format?: string }).output_format;
    const notes: { key: string; why: string }[] = [];
    if (out !== "csv")
      for (const k of CSV_ONLY)
        if (p[k] !== undefined) notes.push({ key: k, why: `applies to csv output only, not ${out}` });
    if (p.encoding !== undefined && out !== "csv" && out !== "txt")
      notes.push({ key: "encoding", why: `applies to txt and csv output only, not ${out}` });
    return notes;
  },
  async run(inputs, p, ctx) {
    const format = (p.output_format ?? "").toLowerCase();
    const used = useEngine(ctx, "office", "convert");
    const { files, totals, engine } = await eachDocument(
      used,
      ctx,
      inputs,
      p.password,
      (input) => ({
        input,
        format,
        ...(p.pages ? { pdf: { pages: p.pages } } : {}),
        ...(format === "csv" ? { csv: { delimiter: p.delimiter, sheet: p.sheet === "all" ? 0 : p.sheet } } : {}),
        ...(p.encoding || p.layout !== undefined ? { text: { encoding: p.encoding, layout: p.layout } } : {}),
      }),
      (r, file, i) => {
        const parts = r.parts && r.parts.length > 1 ? r.parts : undefined;
        if (!parts)
          return [
            {
              filename: outputName({
                filename: p.filename,
                input: file.filename,
                ext: format,
                index: i + 1,
                numbered: false,
              }),
              data: r.data,
            },
          ];
        return parts.map((part, j) => ({
          filename:
            p.filename && /%0?\d*d/.test(p.filename)
              ? outputName({ filename: p.filename, input: file.filename, ext: format, index: j + 1, numbered: true })
              : `${baseName(p.filename ?? file.filename)}-${safeLabel(part.label)}.${extensionOf(p.filename ?? "") || format}`,
          data: part.data,
        }));
      },
    );
    if (!files.length) throw new TaskError("CONVERSION_FAILED", `convert to ${format} wrote nothing.`);
    const warnings = [
      ...(p.engine && STAND_INS[p.engine.toLowerCase()] ? [STAND_INS[p.engine.toLowerCase()]!] : []),
      ...(totals.warnings ?? []),
    ];
    return { files, extra: { ...totals, ...(warnings.length ? { warnings } : {}) }, engine };
  },
};

/** A sheet name or page label as part of a file name: no slashes or control characters. */
function safeLabel(label: string): string {
  return label.replace(/[\/\\\x00-\x1f]/g, "_").slice(0, 100) || "part";
}
