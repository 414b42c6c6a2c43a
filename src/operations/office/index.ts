/**
 * Office documents (issue 12): `convert` from the formats LibreOffice reads to PDF, run by the
 * native engine's LibreOffice pool; `thumbnail` and `watermark` of them through PDF (merge takes
 * them directly, pdf/merge.ts). The result lists the fonts the document asked for that the
 * engine lacks and the faces used instead (`fonts_substituted`), so a user sees why a layout moved.
 */
import { z } from "zod";
import { OFFICE_INPUTS } from "../../engines/registry";
import { useEngine } from "../../engines/use";
import { outputName } from "../kit";
import { boolParam, checkPagesParam, pagesParam } from "../pdf/common";
import { pdfThumbnail } from "../pdf/thumbnail";
import { watermarkPdf } from "../pdf/watermark";
import { convertOfficePdfToImage } from "../pdf/rasterize";
import { convertDocument } from "./convert";
import { eachDocument } from "./common";
import { viaPdf } from "./via-pdf";
import type { OperationHandler } from "../types";

const params = z.object({
  password: z.string().max(256).optional().describe("Opens a password-protected document"),
  pages: pagesParam,
  pdf_a: boolParam.describe("Write PDF/A-2b (LibreOffice's own PDF/A export: fonts embedded, XMP pdfaid)"),
  // CloudConvert's documented office options (issue 32; shared/reference/cloudconvert-catalogue.md)
  bookmarks: boolParam.describe("Write the outline from the document's headings (default true)"),
  include_markup: boolParam.describe("Write the document's comments as PDF annotations"),
  hidden_slides: boolParam.describe("Presentations: export hidden slides too"),
  output_type: z
    .enum(["slides", "notes", "handouts"])
    .optional()
    .describe("Presentations: slides (default) or notes pages; handouts are not written (warned)"),
});

/**
 * output_type "handouts" is valid but not written by LibreOffice's PDF export: accepted and warned (issue 31's rule).
 * optimize_print and slides_per_handout_page are not declared at all, so validation accepts and warns them like any
 * option this handler does not honour (and the catalogue does not list them).
 */
function inapplicablePdf(p: z.infer<typeof params>): { key: string; why: string }[] {
  return p.output_type === "handouts"
    ? [{ key: "output_type", why: "handouts is not written by LibreOffice's PDF export (slides were)" }]
    : [];
}

/**
 * PDF/A by LibreOffice's export rather than Ghostscript after it (issue 31): one pass, and the
 * document's tagged structure, links and bookmarks stay as LibreOffice wrote them, where a
 * Ghostscript re-distill rewrites every page. 2b, the default conformance of pdf/a here.
 */
const PDF_A_PART = 2;

export const officeToPdf: OperationHandler<z.infer<typeof params>> = {
  operation: "convert",
  kind: "office",
  formats: OFFICE_INPUTS.map((input) => ({ input, output: "pdf" })),
  params,
  credits: 1,
  requiresOutputFormat: true,
  takesInput: true,
  check: checkPagesParam,
  inapplicable: inapplicablePdf,
  async run(inputs, p, ctx) {
    const used = useEngine(ctx, "office", "convert");
    const pdf = {
      ...(p.pages ? { pages: p.pages } : {}),
      ...(p.pdf_a ? { pdfa: PDF_A_PART as 2 } : {}),
      ...(p.bookmarks !== undefined ? { bookmarks: p.bookmarks } : {}),
      ...(p.include_markup !== undefined ? { markup: p.include_markup } : {}),
      ...(p.hidden_slides !== undefined ? { hiddenSlides: p.hidden_slides } : {}),
      ...(p.output_type === "notes" ? { notesPages: true } : {}),
    };
    const done = await eachDocument(
      used,
      ctx,
      inputs,
      p.password,
      (input) => ({ input, format: "pdf", pdf }),
      (r, file, i) => [
        {
          filename: outputName({
            filename: p.filename,
            input: file.filename,
            ext: "pdf",
            index: i + 1,
            numbered: false,
          }),
          data: r.data,
          contentType: "application/pdf",
        },
      ],
    );
    return { files: done.files, extra: done.totals, engine: done.engine };
  },
};

/** thumbnail and watermark of an office document: converted to PDF, then the PDF handler (via-pdf.ts). */
export const officeThumbnail = viaPdf(pdfThumbnail);
export const officeWatermark = viaPdf(watermarkPdf);
/** convert of an office document to png/jpg/webp: one image per page or slide, `pages` and `pixel_density` (issue 32). */
export const officeToImage = viaPdf(convertOfficePdfToImage);

/** The office rows. */
export const OFFICE_HANDLERS: OperationHandler[] = [
  officeToPdf,
  officeThumbnail,
  officeWatermark,
  // issue 32: office ↔ office and pdf → editable/text formats; office → images (one per page or slide) through PDF
  convertDocument,
  officeToImage,
];
