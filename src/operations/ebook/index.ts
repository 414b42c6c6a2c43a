/**
 * E-books (issue 33): `convert` between the formats calibre reads and writes (registry.ts EBOOK_PAIRS: EBOOK_INPUTS ×
 * EBOOK_OUTPUTS, and issue 32's docx/odt/rtf/txt/html/pdf → azw3 epub lrf mobi oeb pdb), by the engine of kind ebook (row "calibre", native). Options are CloudConvert's names
 * for what calibre has: page_format, page_width/page_height (cm) and margin_* (mm) for PDF output (as for
 * chrome's PDFs), base_font_size (pt), title and author metadata, and `cover`, the name of a task of the
 * job whose file (an image) becomes the book's cover. OEB output is the OEB folder as a zip. Books over the row's
 * stream threshold travel to calibre as streams and come back as one (issue 49); the cover is read whole (up to it).
 */
import { z } from "zod";
import { EBOOK_PAIRS } from "../../engines/registry";
import { useEngine } from "../../engines/use";
import { eachConverted, formatOf, readInputOrStream, readTaskFile } from "../kit";
import type { InputFile, OperationHandler } from "../types";
import { EBOOK_PAGE_FORMATS, type EbookFormat, type EbookOptions } from "../../../native-protocol/ebook";

const cm = z.coerce.number().min(1).max(500);
const mm = z.coerce.number().min(0).max(500);

const params = z.object({
  page_format: z.enum(EBOOK_PAGE_FORMATS).optional().describe("PDF output: paper size (default letter, calibre's)"),
  page_width: cm.optional().describe("PDF output: page width, cm (with page_height; overrides page_format)"),
  page_height: cm.optional().describe("PDF output: page height, cm"),
  margin_top: mm.optional().describe("PDF output: top margin, mm (default 25.4, calibre's 72 pt)"),
  margin_bottom: mm.optional().describe("PDF output: bottom margin, mm"),
  margin_left: mm.optional().describe("PDF output: left margin, mm"),
  margin_right: mm.optional().describe("PDF output: right margin, mm"),
  base_font_size: z.coerce
    .number()
    .min(4)
    .max(72)
    .optional()
    .describe("Base font size, pt: every size is rescaled from it"),
  title: z.string().min(1).max(1024).optional().describe("Title written into the output's metadata"),
  author: z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .describe("Author(s) written into the output's metadata, '&' between names"),
  cover: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,128}$/, "must name a task of this job")
    .optional()
    .describe("Name of a task of this job whose file (JPEG, PNG, GIF, WebP) becomes the cover"),
});
type Params = z.infer<typeof params>;

/** MIME type of an output; the rest take the extension's (runner). */
const CONTENT_TYPE: Partial<Record<EbookFormat, string>> = {
  epub: "application/epub+zip",
  mobi: "application/x-mobipocket-ebook",
  azw: "application/vnd.amazon.ebook",
  azw3: "application/vnd.amazon.mobi8-ebook",
  pdf: "application/pdf",
  txt: "text/plain",
  rtf: "application/rtf",
  oeb: "application/zip",
  fb2: "application/x-fictionbook+xml",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
};

const PAGE_KEYS = [
  "page_format",
  "page_width",
  "page_height",
  "margin_top",
  "margin_bottom",
  "margin_left",
  "margin_right",
];

export const ebookConvert: OperationHandler<Params> = {
  operation: "convert",
  kind: "ebook",
  formats: [...EBOOK_PAIRS],
  params,
  credits: 1,
  requiresOutputFormat: true,
  takesInput: true,
  taskRefs: ["cover"],
  check(p) {
    return (p.page_width === undefined) === (p.page_height === undefined)
      ? []
      : ["page_width and page_height: give both or neither."];
  },
  async run(inputs, p, ctx) {
    const format = String(p.output_format).toLowerCase() as EbookFormat;
    const { engine, row } = useEngine(ctx, "ebook", "convert");
    const options: EbookOptions = {};
    for (const k of ["base_font_size", "title", "author", ...(format === "pdf" ? PAGE_KEYS : [])] as const) {
      if (p[k as keyof Params] !== undefined) (options as Record<string, unknown>)[k] = p[k as keyof Params];
    }
    // page options of a non-PDF output: accepted, reported (issue 31), not sent
    const warnings =
      format === "pdf"
        ? []
        : PAGE_KEYS.filter((k) => p[k as keyof Params] !== undefined).map(
            (k) => `${k} applies to PDF output only; it was ignored.`,
          );
    const cover = p.cover ? await readTaskFile(ctx, p.cover, row, "cover") : undefined;
    const out = { filename: p.filename, ext: format === "oeb" ? "zip" : format, contentType: CONTENT_TYPE[format] };
    // issue 49: a book over the row's stream threshold reaches calibre as a stream, its output comes back as one
    const done = await eachConverted(
      row,
      ctx,
      inputs,
      out,
      (input, file) =>
        engine.convert({
          input: { ...input, format: formatOf(file, p.input_format) ?? "" },
          format,
          options,
          ...(cover ? { cover: { data: cover.data, filename: cover.file.filename } } : {}),
        }),
      (file: InputFile) => readInputOrStream(file, ctx, row),
    );
    return { ...done, ...(warnings.length ? { extra: { warnings } } : {}) };
  },
};

/** The e-book rows. */
export const EBOOK_HANDLERS: OperationHandler[] = [ebookConvert];
