/**
 * PDF → DXF (issue 32): each page imported by Inkscape 1.2's own PDF importer (poppler underneath), every object
 * turned into a path (text included: DXF has no fonts), written by the R14 exporter (dxf_outlines; the R12 one drops
 * text and rectangles), one DXF per page — DXF has no pages. Kind office (convert), as the Worker's row "inkscape-pdf"
 * takes it. At most MAX_PAGES pages; each Inkscape run has the call's time and memory limits. The engine takes files
 * (issue 49, `files: true`): a PDF the Worker streams (over the row's `streamOver`) is in the call's folder already and
 * is moved to in.pdf, and each page's DXF goes back as a file, streamed from disk on a framed call.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { LocalFile } from "../../native-protocol/frame.ts";
import type { OfficePart, OfficeRequest } from "../../native-protocol/office.ts";
import {
  NativeError,
  check,
  fileOf,
  localFile,
  place,
  run,
  tool,
  why,
  type NativeCall,
  type NativeEngineDef,
} from "./common.ts";
import { checkInkscape, privateEnv } from "./inkscape.ts";

/** The most pages converted to DXF (one Inkscape run each). */
export const MAX_PAGES = 50;

/**
 * The whole call's time limit, ms: as poppler's (POPPLER_MAX_MS), a PDF whose content streams take minutes to
 * parse (the corpus's content-stream bomb) ends TIMEOUT instead of holding a native slot for the task's timeout,
 * which stalled every queued task behind it in the hostile sweep.
 */
export const PDF_DXF_MAX_MS = 60_000;

/** The 1-based pages of `spec` ("1-2", "1,3,5-") within 1..count, in order; all pages when spec is absent. */
export function pageList(spec: string | undefined, count: number): number[] {
  if (!spec) return Array.from({ length: count }, (_, i) => i + 1);
  const out = new Set<number>();
  for (const part of spec.split(",")) {
    const m = /^\s*(\d*)\s*(-?)\s*(\d*)\s*$/.exec(part);
    if (!m) continue;
    const from = m[1] ? +m[1] : 1;
    const to = m[2] ? (m[3] ? +m[3] : count) : from;
    for (let p = from; p <= Math.min(to, count); p++) if (p >= 1) out.add(p);
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * pdf → dxf, one DXF a page (`req.pdf.pages` chooses them), each a file of the call's folder.
 * @throws NativeError INVALID_CONVERSION_TYPE | OPEN_FAILED | OVER_BUDGET (over MAX_PAGES) | CONVERSION_FAILED |
 *   TIMEOUT
 */
async function convert(req: OfficeRequest, call: NativeCall) {
  if (req.format !== "dxf")
    throw new NativeError("INVALID_CONVERSION_TYPE", `This engine writes dxf, not ${req.format}.`);
  const inkscape = tool(call, "inkscape").path;
  const input = await place(call, "in.pdf", fileOf(req.input.data, req.input.filename));
  const until = Date.now() + Math.min(call.timeoutMs, PDF_DXF_MAX_MS);
  const left = () => Math.max(1, until - Date.now());
  const info = await run(call, "pdfinfo", [input], { timeoutMs: left() });
  check(
    info,
    "pdfinfo",
    (t) => new NativeError("OPEN_FAILED", `${req.input.filename} is not a PDF poppler reads: ${why(t)}`),
  );
  const count = Number(/^Pages:\s+(\d+)/m.exec(info.stdout)?.[1] ?? 0);
  const pages = pageList(req.pdf?.pages, count);
  if (!pages.length) throw new NativeError("CONVERSION_FAILED", `${req.input.filename}: no page to convert.`);
  if (pages.length > MAX_PAGES)
    throw new NativeError(
      "OVER_BUDGET",
      `${req.input.filename}: ${pages.length} pages; at most ${MAX_PAGES} are converted to DXF (choose some with pages).`,
    );
  const parts: OfficePart<LocalFile>[] = [];
  for (const page of pages) {
    const out = `page-${page}.dxf`;
    const r = await run(
      call,
      inkscape,
      [
        `--pdf-page=${page}`,
        "--actions=select-all:all;object-to-path",
        "--export-extension=org.ekips.output.dxf_outlines",
        `--export-filename=${out}`,
        input,
      ],
      { env: privateEnv(call), timeoutMs: left() },
    );
    checkInkscape(
      r,
      `Page ${page} of ${req.input.filename}`,
      (t) => new NativeError("CONVERSION_FAILED", `Inkscape could not convert page ${page}: ${why(t)}`),
    );
    if (!existsSync(join(call.work, out)))
      throw new NativeError("CONVERSION_FAILED", `Inkscape wrote no DXF for page ${page} of ${req.input.filename}.`);
    parts.push({ label: String(page), data: await localFile(call, out) });
  }
  return { data: parts[0]!.data, parts, pages: parts.length, fontsSubstituted: [] };
}

/**
 * PDF → DXF by Inkscape (kind office: convert pdf → dxf, one file per page). It takes files (issue 49): a framed call's
 * PDF reaches it as a LocalFile in the call's folder, and its DXFs go back as files.
 */
export const pdfDxf = { kind: "office", methods: { convert }, files: true } satisfies NativeEngineDef<"office">;

export default pdfDxf;
