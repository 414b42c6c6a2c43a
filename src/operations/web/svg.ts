/**
 * convert svg, svgz → pdf at the edge (issue 47), the fallback of Inkscape's route for the same pairs: Chrome prints
 * the drawing, as vectors, on one page of the drawing's own size (its root's width and height, else its viewBox's).
 * The SVG is shown as a data: image (`<img>`), so Chrome parses it as XML and, as for any SVG image, runs none of its
 * scripts and loads nothing outside it; an svgz is gunzipped first, within the SVG budget (registry.ts
 * SVG_MAX_BYTES, the resvg row's). Inkscape stays first (`fallback: true`): it is CloudConvert's SVG engine, and
 * honours `text_to_path`; result.warnings says when this route ran instead.
 */
import { z } from "zod";
import { SVG_MAX_BYTES } from "../../engines/registry";
import { TaskError } from "../../engines/errors";
import { extensionOf } from "../io/filenames";
import type { OperationHandler } from "../types";
import { PAGE_CSP, renderEach, unhonoured } from "./fallback";

/** What result.warnings says whenever this route ran. */
export const SVG_LAYOUT_WARNING =
  "Printed by Chrome as a vector PDF on a page of the drawing's size, because Inkscape, the first route for SVG, could not run this task here: text is drawn with the fonts the browser has (no text_to_path), and Inkscape-only features (flowed text, its own extensions) are not rendered as Inkscape would.";

/** CSS px per unit of an SVG length (CSS Values 4 absolute units; em and ex at the initial 16px font). */
const PX_PER: Record<string, number> = {
  "": 1,
  px: 1,
  pt: 96 / 72,
  pc: 16,
  in: 96,
  cm: 96 / 2.54,
  mm: 96 / 25.4,
  q: 96 / 101.6,
  em: 16,
  ex: 8,
};

/** An SVG length in px, or undefined for a percentage, `auto` or anything unparsable. */
function lengthPx(v: string | undefined): number | undefined {
  const m = v === undefined ? null : /^\s*([+]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*([a-z]*)\s*$/i.exec(v);
  const unit = m?.[2]?.toLowerCase() ?? "";
  if (!m || !(unit in PX_PER)) return undefined;
  const px = Number(m[1]) * PX_PER[unit]!;
  return Number.isFinite(px) && px > 0 ? px : undefined;
}

/** The value of attribute `name` in a start tag's attribute text (not `stroke-width` for width). */
function attr(attrs: string, name: string): string | undefined {
  return new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`)
    .exec(attrs)
    ?.slice(1)
    .find((x) => x !== undefined);
}

/**
 * The size an SVG document is drawn at, in CSS px (1/96 in): the root `<svg>`'s width and height; a missing or
 * relative one from the viewBox (its size, or the other side times the viewBox's aspect ratio); without either,
 * 300 × 150, the size CSS gives a replaced element that has none.
 * @throws TaskError OPEN_FAILED when there is no `<svg>` root element
 */
export function svgSize(svg: string): { width: number; height: number } {
  const text = svg.replace(/<!--[\s\S]*?-->/g, "").replace(/<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>/i, "");
  const root = /<(?:[A-Za-z_][\w.-]*:)?svg\b([^>]*)>/.exec(text);
  if (!root) throw new TaskError("OPEN_FAILED", "The file has no <svg> root element.");
  const attrs = root[1]!;
  let width = lengthPx(attr(attrs, "width"));
  let height = lengthPx(attr(attrs, "height"));
  const vb = attr(attrs, "viewBox")
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  const [vw, vh] = vb && vb.length === 4 && vb[2]! > 0 && vb[3]! > 0 ? [vb[2]!, vb[3]!] : [undefined, undefined];
  if (vw && vh) {
    if (width === undefined && height === undefined) [width, height] = [vw, vh];
    else if (width === undefined) width = (height! * vw) / vh;
    else if (height === undefined) height = (width * vh) / vw;
  }
  return { width: width ?? 300, height: height ?? 150 };
}

/**
 * gzip-compressed bytes (an svgz) inflated, at most `max` bytes; other bytes as they are.
 * @throws TaskError OVER_BUDGET when the SVG inflates to more than `max` bytes | OPEN_FAILED when the gzip is corrupt
 */
export async function gunzipWithin(bytes: Uint8Array, max: number): Promise<Uint8Array> {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const reader = new Response(bytes as BufferSource).body!.pipeThrough(new DecompressionStream("gzip")).getReader();
  const parts: Uint8Array[] = [];
  let n = 0;
  try {
    for (let c = await reader.read(); !c.done; c = await reader.read()) {
      n += c.value.byteLength;
      if (n > max) {
        await reader.cancel().catch(() => {});
        throw new TaskError("OVER_BUDGET", `The compressed SVG inflates to more than ${max} bytes.`);
      }
      parts.push(c.value);
    }
  } catch (err) {
    if (err instanceof TaskError) throw err;
    throw new TaskError("OPEN_FAILED", `The compressed SVG could not be inflated: ${(err as Error).message}`);
  }
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) (out.set(p, o), (o += p.byteLength));
  return out;
}

/** Bytes as base64 (in chunks: String.fromCharCode takes a bounded argument list). */
function base64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** The page showing an SVG (its bytes) at `size` px, the page exactly as large. */
export function svgPage(svg: Uint8Array, size: { width: number; height: number }): string {
  const w = `${size.width}px`;
  const h = `${size.height}px`;
  const style = `@page{size:${w} ${h};margin:0}html,body{margin:0;padding:0;width:${w};height:${h};overflow:hidden}img{display:block;width:${w};height:${h}}`;
  return `<!doctype html><html><head><meta charset="utf-8">${PAGE_CSP}<style>${style}</style></head><body><img alt="" src="data:image/svg+xml;base64,${base64(svg)}"></body></html>`;
}

const params = z.object({});

/** convert svg, svgz → pdf by Chrome on a page of the drawing's size: the fallback after Inkscape (module comment). */
export const svgToPdf: OperationHandler<z.infer<typeof params>> = {
  operation: "convert",
  kind: "web",
  formats: ["svg", "svgz"].map((input) => ({ input, output: "pdf" })),
  params,
  credits: 1,
  takesInput: true,
  requiresOutputFormat: true,
  fallback: true,
  async run(inputs, p, ctx) {
    const from = (p.input_format ?? extensionOf(inputs[0]?.filename ?? "")).toLowerCase() || "svg";
    const notes = unhonoured(p, [], `Chrome's rendering of ${from} to pdf (Inkscape's option)`);
    return renderEach(
      inputs,
      p,
      ctx,
      async (_input, read) => {
        const svg = await gunzipWithin(await read(), SVG_MAX_BYTES);
        if (svg.byteLength > SVG_MAX_BYTES)
          throw new TaskError("OVER_BUDGET", `The SVG is over ${SVG_MAX_BYTES} bytes, the SVG budget here.`);
        const size = svgSize(new TextDecoder().decode(svg.subarray(0, 65_536)));
        const cm = (px: number) => (px * 2.54) / 96;
        return {
          html: svgPage(svg, size),
          options: {
            page_width: cm(size.width),
            page_height: cm(size.height),
            margin_top: 0,
            margin_bottom: 0,
            margin_left: 0,
            margin_right: 0,
          },
          warnings: [SVG_LAYOUT_WARNING],
        };
      },
      notes,
    );
  },
};
