/**
 * Pandoc (issue 32): markup ↔ documents — md, rst, tex, html, txt read; docx, odt, html, md, rst, rtf, tex, txt
 * written. The input is read with `--sandbox` (pandoc ≥ 2.15: no file but the input is read, nothing fetched, so an
 * include naming /etc/… is not followed), and every image that is not a data: URL becomes its alt text before the
 * writer runs, so nothing naming file:///etc/… or a loopback URL is fetched or embedded. Kind office (convert), as
 * the Worker's row "pandoc" takes it.
 *
 * → pdf (rst and tex, issue 32; no TeX distribution in the image): pandoc writes ODT, LibreOffice's warm pool lays it
 * out as PDF. Measured on the corpus (docutils-demo.rst, texlive-sample2e.tex; words of pandoc's plain text found by
 * pdftotext): ODT → LibreOffice 93.3 % / 100 %, DOCX → LibreOffice 93.0 % / 100 %, pandoc's HTML printed by Chromium
 * 93.3 % / 100 % — equal text, so the route that stays in this engine (Chromium is the Worker's Browser Rendering
 * binding, another engine) and keeps TeX math as formula objects was taken.
 */
import type { OfficeRequest } from "../../native-protocol/office.ts";
import { PANDOC_READERS, PANDOC_WRITERS as SHARED_WRITERS } from "../../native-protocol/pandoc.ts";
import { join } from "node:path";
import {
  NativeError,
  check,
  get,
  heldData,
  put,
  run,
  tool,
  why,
  type NativeCall,
  type NativeEngineDef,
} from "./common.ts";
import { officeFailure, officePool } from "./libreoffice.ts";

/** Output format → pandoc writer: the shared table, and pdf laid out by LibreOffice from pandoc's ODT. */
export const PANDOC_WRITERS: Record<string, { writer: string; standalone: boolean }> = {
  ...SHARED_WRITERS,
  pdf: { writer: "odt", standalone: false },
};

/**
 * The AST with every image that is not a data: URL replaced by its alt text (a Span), so the writer has nothing
 * to fetch. Pandoc nodes are `{t, c}` objects; an Image's `c` is [attr, alt inlines, [url, title]].
 */
export function withoutExternalImages(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutExternalImages);
  if (!node || typeof node !== "object") return node;
  const n = node as { t?: unknown; c?: unknown };
  if (n.t === "Image" && Array.isArray(n.c)) {
    const [attr, alt, target] = n.c as [unknown, unknown, unknown];
    const url = Array.isArray(target) ? String(target[0] ?? "") : "";
    if (!/^data:/i.test(url)) return { t: "Span", c: [attr, withoutExternalImages(alt)] };
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, withoutExternalImages(v)]));
}

async function convert(req: OfficeRequest, call: NativeCall) {
  const pandoc = tool(call, "pandoc").path;
  const input = (/\.([A-Za-z0-9]+)$/.exec(req.input.filename)?.[1] ?? "").toLowerCase();
  const reader = PANDOC_READERS[input === "markdown" ? "md" : input === "htm" ? "html" : input];
  const out = PANDOC_WRITERS[req.format];
  if (!reader || !out)
    throw new NativeError("INVALID_CONVERSION_TYPE", `pandoc does not convert ${input} to ${req.format}.`);
  await put(call, `in.${input}`, heldData(req.input));
  const fail = (t: string) =>
    new NativeError("CONVERSION_FAILED", `pandoc could not convert ${req.input.filename}: ${why(t)}`);
  // 1. read, sandboxed (includes and files are not read), into pandoc's JSON AST. (Pandoc 2.17's --sandbox also
  //    keeps the docx/odt writers from their own reference documents, so writing is a second, unsandboxed step
  //    on an AST that names nothing to fetch.)
  const read = await run(call, pandoc, ["--sandbox", "-f", reader, "-t", "json", "-o", "ast.json", `in.${input}`]);
  check(read, "pandoc", fail);
  const ast = JSON.parse(new TextDecoder().decode(await get(call, "ast.json")));
  await put(call, "safe.json", new TextEncoder().encode(JSON.stringify(withoutExternalImages(ast))));
  // 2. write
  const written = req.format === "pdf" ? "odt" : req.format;
  const r = await run(call, pandoc, [
    "-f",
    "json",
    "-t",
    out.writer,
    ...(out.standalone ? ["-s"] : []),
    "-o",
    `out.${written}`,
    "safe.json",
  ]);
  check(r, "pandoc", fail);
  if (req.format !== "pdf") return { data: await get(call, `out.${req.format}`), pages: null, fontsSubstituted: [] };
  // 3. pdf: the ODT laid out by LibreOffice
  tool(call, "libreoffice");
  try {
    const laid = await officePool(call.root).convert({
      input: join(call.work, "out.odt"),
      output: join(call.work, "out.pdf"),
      format: "pdf",
      timeoutMs: call.timeoutMs,
      ...(req.pdf?.pages ? { pages: req.pdf.pages } : {}),
    });
    return { data: await get(call, "out.pdf"), pages: laid.pages, fontsSubstituted: [] };
  } catch (err) {
    throw officeFailure(err, req.input.filename);
  }
}

/** The pandoc engine (kind office: convert between markup and documents). */
export const pandocEngine = { kind: "office", methods: { convert } } satisfies NativeEngineDef<"office">;

export default pandocEngine;
