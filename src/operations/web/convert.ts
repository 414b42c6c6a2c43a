/**
 * convert html (htm) and md → pdf, png, jpg, webp with Chrome on Browser Rendering (issue 14).
 * Markdown is rendered to HTML first with `marked` (GitHub-flavoured, raw HTML kept) inside a
 * small UTF-8 page with a readable default style. The HTML is served to the browser from a local
 * origin of its own (the web engine's guard: localStorage works, relative links find nothing);
 * its subresources pass the SSRF guard like a captured page's, so an HTML input cannot read local
 * files or reach private hosts.
 */
import { marked } from "marked";
import { z } from "zod";
import { useEngine } from "../../engines/use";
import { outputName, readInput, formatOf } from "../kit";
import type { OperationHandler, OutputFile } from "../types";
import { checkRender, renderParams } from "./schemas";
import { renderWith } from "./render";

const params = z.object(renderParams);
type Params = z.infer<typeof params>;

const MARKDOWN_STYLE =
  "body{font-family:'DejaVu Sans',Arial,sans-serif;line-height:1.5;max-width:48em;margin:0 auto;padding:1em}pre,code{font-family:'DejaVu Sans Mono',monospace;background:#f4f4f4}pre{padding:.6em;overflow:auto}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em}img{max-width:100%}";

/** A Markdown document as a full HTML page; `title` is the file's base name. */
export function markdownPage(md: string, title: string): string {
  const body = marked.parse(md, { gfm: true, async: false }) as string;
  const esc = title.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc}</title><style>${MARKDOWN_STYLE}</style></head><body>${body}</body></html>`;
}

/** The encoding a byte-order mark at the start of `bytes` declares (UTF-8, UTF-16LE/BE), or null without one. */
export function bomEncoding(bytes: Uint8Array): "utf-8" | "utf-16le" | "utf-16be" | null {
  const [a, b, c] = bytes;
  return a === 0xff && b === 0xfe
    ? "utf-16le"
    : a === 0xfe && b === 0xff
      ? "utf-16be"
      : a === 0xef && b === 0xbb && c === 0xbf
        ? "utf-8"
        : null;
}

/**
 * HTML bytes as text, in the encoding the document declares (WHATWG encoding sniffing, in short):
 * a byte-order mark first (UTF-8, UTF-16LE/BE), then a `<meta charset>` or http-equiv
 * Content-Type in the first 1024 bytes, else UTF-8. An unknown label falls back to UTF-8.
 */
export function decodeHtml(bytes: Uint8Array): string {
  let label: string | null = bomEncoding(bytes);
  if (!label) {
    const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
    label = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1]?.toLowerCase() ?? "utf-8";
  }
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}

export const webConvert: OperationHandler<Params> = {
  operation: "convert",
  kind: "web",
  formats: ["html", "htm", "md", "markdown"].flatMap((input) =>
    ["pdf", "png", "jpg", "webp"].map((output) => ({ input, output })),
  ),
  params,
  credits: 1,
  takesInput: true,
  requiresOutputFormat: true,
  taskRefs: ["header_template", "footer_template"],
  check: checkRender,
  async run(inputs, p, ctx) {
    const { row } = useEngine(ctx, "web", "convert");
    const output = p.output_format as "pdf" | "png" | "jpg" | "webp";
    const files: OutputFile[] = [];
    let engine = { name: row.name, version: row.version };
    const pages: number[] = [];
    for (const [i, input] of inputs.entries()) {
      const text = decodeHtml(await readInput(input, ctx, row));
      const format = formatOf(input, p.input_format);
      const html =
        format === "md" || format === "markdown" ? markdownPage(text, input.filename.replace(/\.[^.]+$/, "")) : text;
      const r = await renderWith(
        ctx,
        "convert",
        { html, name: `${input.filename.replace(/\.[^.]+$/, "")}.html` },
        output,
        p,
        input.filename,
      );
      engine = r.engine;
      if (r.pages !== null) pages.push(r.pages);
      files.push({
        filename: outputName({
          filename: p.filename,
          input: input.filename,
          ext: output,
          index: i + 1,
          numbered: false,
        }),
        data: r.data,
      });
    }
    return { files, extra: pages.length === 1 ? { pages: pages[0] } : {}, engine };
  },
};
