/**
 * Parameters of capture-website and of convert from html/md (contract §6 "html→pdf (chrome) /
 * capture-website"; service-spec capture-website), flat in the task object. header_template and
 * footer_template name import tasks whose file is the HTML template, or hold the template's HTML
 * itself (the SDKs type them as strings and CloudConvert's docs describe them as "HTML template":
 * the .NET and node SDKs' capture requests, issue 31); a value that is a task name is a name.
 */
import { z } from "zod";
import { PAGE_FORMATS, WAIT_UNTIL } from "../../engines/kinds/web";
import { boolParam } from "../image/schemas";

/** A task name as CloudConvert allows it (letters, digits, `_`, `-`). */
export const TASK_NAME = /^[A-Za-z0-9_-]{1,128}$/;
/** A header/footer template: the name of an import task, or the template's HTML (anything that is not a name). */
const template = z.string().min(1).max(65_536);
const cm = z.number().min(1).max(500);
const mm = z.number().min(0).max(500);

/** The rendering options shared by capture-website and convert html/md. */
export const renderParams = {
  zoom: z.number().min(0.1).max(2).optional().describe("Scale of the rendering, 0.1–2 (default 1)"),
  page_width: cm.optional().describe("PDF page width, cm (with page_height; overrides page_format)"),
  page_height: cm.optional().describe("PDF page height, cm"),
  page_format: z.enum(PAGE_FORMATS).optional().describe("PDF paper size (default a4)"),
  page_orientation: z.enum(["portrait", "landscape"]).optional(),
  margin_top: mm.optional().describe("mm (default 10; 20 with a header/footer)"),
  margin_bottom: mm.optional().describe("mm"),
  margin_left: mm.optional().describe("mm (default 10)"),
  margin_right: mm.optional().describe("mm"),
  print_background: boolParam.describe("Print background colours and images (default true)"),
  display_header_footer: boolParam.describe("Print header_template/footer_template on every page"),
  header_template: template
    .optional()
    .describe(
      "The header's HTML, or the name of an import task whose file is it (classes date, title, url, pageNumber, totalPages)",
    ),
  footer_template: template.optional().describe("The footer's HTML, or the name of an import task whose file is it"),
  wait_until: z.enum(WAIT_UNTIL).optional().describe("When the page counts as loaded (default load)"),
  wait_for_element: z.string().min(1).max(512).optional().describe("A CSS selector to wait for after loading"),
  wait_time: z.number().int().min(0).max(60_000).optional().describe("Milliseconds to wait after loading"),
  css_media_type: z
    .enum(["print", "screen"])
    .optional()
    .describe("CSS media type (default print for PDF, screen for images)"),
  headers: z
    .record(
      z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/, "must be an HTTP header name"),
      z.string().max(4096),
    )
    .optional()
    .describe("Extra HTTP headers of the page request"),
  screen_width: z.number().int().min(100).max(7680).optional().describe("Viewport width, px (default 1280)"),
  screen_height: z.number().int().min(100).max(16384).optional().describe("Viewport height, px (default 800)"),
  full_page: boolParam.describe("Images: the whole page rather than the viewport (default true)"),
  quality: z.number().int().min(1).max(100).optional().describe("jpg/webp quality"),
};

/** 422 messages across rendering parameters. */
export function checkRender(p: {
  page_width?: number;
  page_height?: number;
  page_format?: string;
  display_header_footer?: boolean;
  header_template?: string;
  footer_template?: string;
}): string[] {
  const errors: string[] = [];
  if ((p.page_width === undefined) !== (p.page_height === undefined))
    errors.push("page_width and page_height go together.");
  if (p.page_width !== undefined && p.page_format)
    errors.push("page_format and page_width/page_height exclude each other.");
  if ((p.header_template || p.footer_template) && p.display_header_footer === false)
    errors.push("header_template/footer_template need display_header_footer: true.");
  return errors;
}
