/**
 * What the Chrome fallback routes of convert share (issue 47: spreadsheets, plain text and SVG printed by Chrome when
 * LibreOffice or Inkscape cannot run them; sheets.ts, text.ts, svg.ts): each input made into one self-contained HTML
 * page, rendered with {@link renderWith}, the files named as convert names them; the options the native handler
 * accepted that Chrome does not honour reported as warnings rather than refused; and the page's Content Security
 * Policy, which keeps a document's text from fetching or running anything even if it were not escaped.
 *
 * These handlers are `fallback: true` (types.ts): routing puts them after the native handlers of the same pairs.
 * Validation judges a task's options with the handler that declares the most of them (validate.ts), so with no
 * options, or with LibreOffice's (`password`, `pages`, `pdf_a`, …), the native handler's parameters reach this route.
 */
import { useEngine } from "../../engines/use";
import { outputName, readInput } from "../kit";
import type { InputFile, OperationContext, OperationOutput, OutputFile } from "../types";
import { renderWith } from "./render";

/** The outputs of the fallback routes: a PDF, or one image of the whole page. */
export const FALLBACK_OUTPUTS = ["pdf", "png", "jpg"] as const;

/** Parameters every task takes (validate.ts commonParams, and the graph's `name`, `redirect`): never "unhonoured". */
const COMMON = new Set([
  "input_format",
  "output_format",
  "engine",
  "engine_version",
  "filename",
  "timeout",
  "name",
  "redirect",
]);

/**
 * A Content-Security-Policy `<meta>` for a page made from a document's content: no script, no fetch, no frame; inline
 * styles and data: images only (an SVG input is shown as a data: image). Defence in depth behind the escaping of the
 * content and the web engine's request guard (chrome/guard.ts), which also sees no request from such a page.
 */
export const PAGE_CSP = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:">`;

/** `s` with `&`, `<`, `>`, `"` as character references (text and attribute values). */
export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/**
 * One warning per parameter the task set that this route does not honour (an option of the native handler, which
 * validation judged: LibreOffice's `password`, `pages`, `pdf_a`, Inkscape's `text_to_path`), worded as the runner's
 * warnings of ignored options are ("… is not supported by …; it was ignored.", runner/execute.ts ignoredWarnings).
 * @param params the task's parameters as the handler receives them
 * @param own the keys this route does honour
 * @param what the route, e.g. "Chrome's rendering of xlsx to pdf"
 */
export function unhonoured(params: Record<string, unknown>, own: readonly string[], what: string): string[] {
  return Object.keys(params)
    .filter((k) => params[k] !== undefined && !COMMON.has(k) && !own.includes(k))
    .map((k) => `${k} is not supported by ${what}; it was ignored.`);
}

/** One input's page: the HTML, the render options it needs (web/schemas.ts names), and what to tell the user. */
export interface FallbackPage {
  html: string;
  /** Render options (cm, mm: kinds/web.ts WebOptions), e.g. the page size of an SVG. */
  options?: Record<string, unknown>;
  warnings?: string[];
}

/**
 * Renders each input through `page` and Chrome to `params.output_format` (pdf, png or jpg).
 * @param page makes one input's HTML page from its bytes, read under the web engine's byte budget unless `page` reads
 *   them itself (`read` false: the sheets route reads under the office engine's)
 * @returns the files (named after their inputs, or the task's `filename`), `pages` for a single PDF, the warnings of
 *   every page and of the unhonoured options, `refused` (requests the guard blocked; none is expected behind
 *   {@link PAGE_CSP}), and the engine (chrome, the browser's version)
 * @throws TaskError from reading, from `page`, or from the web engine (renderWith)
 */
export async function renderEach(
  inputs: InputFile[],
  params: Record<string, unknown> & { output_format?: string; filename?: string },
  ctx: OperationContext,
  page: (input: InputFile, read: () => Promise<Uint8Array>) => Promise<FallbackPage>,
  unhonouredWarnings: string[],
): Promise<OperationOutput> {
  const { row } = useEngine(ctx, "web", "convert");
  const output = params.output_format as (typeof FALLBACK_OUTPUTS)[number];
  const files: OutputFile[] = [];
  const warnings = new Set<string>();
  const pages: number[] = [];
  const refused: string[] = [];
  let engine = { name: row.name, version: row.version };
  for (const [i, input] of inputs.entries()) {
    const made = await page(input, () => readInput(input, ctx, row));
    for (const w of made.warnings ?? []) warnings.add(w);
    const base = input.filename.replace(/\.[^.]+$/, "");
    const r = await renderWith(
      ctx,
      "convert",
      { html: made.html, name: `${base}.html` },
      output,
      made.options ?? {},
      input.filename,
    );
    engine = r.engine;
    if (r.pages !== null) pages.push(r.pages);
    refused.push(...r.refused);
    files.push({
      filename: outputName({
        filename: params.filename,
        input: input.filename,
        ext: output,
        index: i + 1,
        numbered: false,
      }),
      data: r.data,
    });
  }
  for (const w of unhonouredWarnings) warnings.add(w);
  const extra: Record<string, unknown> = pages.length === 1 ? { pages: pages[0] } : {};
  if (warnings.size) extra.warnings = [...warnings];
  if (refused.length) extra.refused = refused;
  return { files, extra, engine };
}
