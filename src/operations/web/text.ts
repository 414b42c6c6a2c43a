/**
 * convert txt → pdf, png, jpg at the edge (issue 47), the fallback of LibreOffice's route for the same pairs: the
 * text, escaped, in a preformatted page (DejaVu Sans Mono, lines kept, long lines wrapped), printed by Chrome.
 * LibreOffice stays first (`fallback: true`): Writer lays plain text out with its own default page and font, which a
 * user of CloudConvert's txt → pdf expects; result.warnings says when this route ran instead.
 */
import { z } from "zod";
import { extensionOf } from "../io/filenames";
import type { OperationHandler } from "../types";
import { bomEncoding } from "./convert";
import { escapeHtml, FALLBACK_OUTPUTS, PAGE_CSP, renderEach, unhonoured } from "./fallback";

/** What result.warnings says whenever this route ran. */
export const TEXT_LAYOUT_WARNING =
  "Rendered by Chrome as preformatted text (DejaVu Sans Mono, line breaks and spaces kept, long lines wrapped), because LibreOffice, the first route for txt, could not run this task here: Writer's page layout of the text (its default font, page size and margins) is not reproduced.";

const TEXT_STYLE =
  "html,body{margin:0;padding:0;background:#fff;color:#000}pre{margin:0;font-family:'DejaVu Sans Mono',monospace;font-size:10pt;line-height:1.35;white-space:pre-wrap;overflow-wrap:anywhere;tab-size:8}";

/**
 * Plain-text bytes as text, in the same spirit as web/convert.ts decodeHtml: a byte-order mark first (UTF-8,
 * UTF-16LE/BE), else UTF-8 when the bytes are valid UTF-8, else windows-1252 (what browsers read an undeclared
 * Western text as; every byte decodes).
 * @returns the text without its byte-order mark, and the encoding it was read in
 */
export function decodeText(bytes: Uint8Array): { text: string; encoding: string } {
  const bom = bomEncoding(bytes);
  if (bom) return { text: new TextDecoder(bom).decode(bytes), encoding: bom };
  try {
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes), encoding: "utf-8" };
  } catch {
    return { text: new TextDecoder("windows-1252").decode(bytes), encoding: "windows-1252" };
  }
}

/** A text as a whole HTML page: escaped in one `<pre>`, under `title`. */
export function textPage(text: string, title: string): string {
  return `<!doctype html><html><head><meta charset="utf-8">${PAGE_CSP}<title>${escapeHtml(title)}</title><style>${TEXT_STYLE}</style></head><body><pre>${escapeHtml(text)}</pre></body></html>`;
}

const params = z.object({});

/** convert txt → pdf, png, jpg by Chrome from a preformatted page: the fallback after LibreOffice (module comment). */
export const textToPage: OperationHandler<z.infer<typeof params>> = {
  operation: "convert",
  kind: "web",
  formats: FALLBACK_OUTPUTS.map((output) => ({ input: "txt", output })),
  params,
  credits: 1,
  takesInput: true,
  requiresOutputFormat: true,
  fallback: true,
  async run(inputs, p, ctx) {
    const from = (p.input_format ?? extensionOf(inputs[0]?.filename ?? "")).toLowerCase() || "txt";
    const notes = unhonoured(p, [], `Chrome's rendering of ${from} to ${p.output_format} (LibreOffice's option)`);
    return renderEach(
      inputs,
      p,
      ctx,
      async (input, read) => {
        const { text, encoding } = decodeText(await read());
        const decoded =
          encoding === "windows-1252" ? [`${input.filename} is not UTF-8; it was read as windows-1252.`] : [];
        return {
          html: textPage(text, input.filename.replace(/\.[^.]+$/, "")),
          warnings: [TEXT_LAYOUT_WARNING, ...decoded],
        };
      },
      notes,
    );
  },
};
