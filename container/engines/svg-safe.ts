/**
 * An SVG made safe to hand to Inkscape (issue 33, hostile input): Inkscape resolves what a document
 * names — `<image xlink:href="file:///…">` and `sodipodi:absref` are read from disk and embedded in the
 * output, XML entities (libxml2) are expanded, `@import` and `xml-stylesheet` load style sheets. The
 * native engine must embed nothing of its host and fetch nothing, so before Inkscape reads an SVG:
 * - the DOCTYPE and its internal subset are removed; the internal entities it declares are expanded here
 *   when each is plain text (Illustrator declares its namespaces so), and an SVG declaring an external
 *   entity (XXE: SYSTEM/PUBLIC), a parameter entity or an entity that refers to another (the "billion
 *   laughs" bomb) is refused with OPEN_FAILED before any tool reads it;
 * - every href / xlink:href that is not a fragment (`#id`) or a `data:` URI becomes `#`, and
 *   `sodipodi:absref` is removed;
 * - every `url(…)` that is not a fragment or `data:` becomes `url(#external-reference-removed)`, and
 *   `@import` rules and `<?xml-stylesheet?>` instructions are removed.
 * Pure string work over the markup: nothing else of the document changes.
 */

import { NativeError } from "./common.ts";

/** Largest SVG after expanding its entities, characters. */
const MAX_EXPANDED = 64 * 1024 * 1024;

/**
 * The SVG without its DOCTYPE, its plain-text internal entities expanded.
 * @throws NativeError OPEN_FAILED for external, parameter or nested entities; OVER_BUDGET past MAX_EXPANDED
 */
export function expandEntities(svg: string): string {
  const doctype = /<!DOCTYPE\s[^[>]*(\[([\s\S]*?)\]\s*)?>/i.exec(svg);
  if (!doctype) return svg;
  const values = new Map<string, string>();
  for (const m of (doctype[2] ?? "").matchAll(/<!ENTITY\s+(%\s*)?([\w.:-]+)\s+([^>]*)>/g)) {
    const [, param, name, rest] = m;
    const literal = /^\s*("([^"]*)"|'([^']*)')\s*$/.exec(rest);
    if (param || !literal || /&|%/.test(literal[2] ?? literal[3] ?? ""))
      throw new NativeError(
        "OPEN_FAILED",
        `The SVG declares the entity "${name}" as ${param ? "a parameter entity" : literal ? "text that refers to another entity" : "an external reference"}; such SVGs are not read (external entities, entity expansion bombs).`,
      );
    values.set(name, literal[2] ?? literal[3] ?? "");
  }
  const body = svg.slice(0, doctype.index) + svg.slice(doctype.index + doctype[0].length);
  let size = body.length;
  const out = body.replace(/&([\w.:-]+);/g, (ref, name: string) => {
    const v = values.get(name);
    if (v === undefined) return ref;
    size += v.length - ref.length;
    if (size > MAX_EXPANDED)
      throw new NativeError("OVER_BUDGET", `The SVG's entities expand past ${MAX_EXPANDED} characters.`);
    return v;
  });
  return out;
}

/** Whether a reference stays: a fragment of this document or inline data. */
const local = (ref: string) => /^\s*(#|data:)/i.test(ref);

/** The SVG with its entities expanded or refused and its external references removed (see the file comment). @throws NativeError */
export function safeSvg(svg: string): string {
  return expandEntities(svg)
    .replace(/<\?xml-stylesheet[\s\S]*?\?>/gi, "")
    .replace(/\s[\w.-]*:?absref\s*=\s*("[^"]*"|'[^']*')/gi, "")
    .replace(
      /(\s(?:[\w.-]+:)?href\s*=\s*)("([^"]*)"|'([^']*)')/gi,
      (m, a: string, _q: string, d?: string, s?: string) => (local(d ?? s ?? "") ? m : `${a}"#"`),
    )
    .replace(/url\(\s*(["']?)([^)"']*)\1\s*\)/gi, (m, _q: string, ref: string) =>
      local(ref) ? m : "url(#external-reference-removed)",
    )
    .replace(/@import[^;]*;?/gi, "");
}

/** CSS length units in px (96 per inch), for the size check. */
const UNIT: Record<string, number> = {
  "": 1,
  px: 1,
  in: 96,
  cm: 96 / 2.54,
  mm: 96 / 25.4,
  pt: 4 / 3,
  pc: 16,
  em: 16,
  ex: 8,
};

/**
 * The size the root `<svg>` declares, in px at 96 dpi (width/height, else the viewBox), or undefined
 * when it declares none (or only percentages).
 */
export function svgSize(svg: string): { w: number; h: number } | undefined {
  const root = /<svg\b([^>]*)>/i.exec(svg.slice(0, 65536))?.[1];
  if (!root) return undefined;
  const attr = (n: string) => new RegExp(`\\s${n}\\s*=\\s*["']([^"']*)["']`, "i").exec(root)?.[1];
  const len = (v?: string) => {
    const m = v && /^\s*([\d.eE+-]+)\s*([a-z]*)\s*$/i.exec(v);
    return m && UNIT[m[2].toLowerCase()] !== undefined ? Number(m[1]) * UNIT[m[2].toLowerCase()] : undefined;
  };
  const vb = attr("viewBox")
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  const w = len(attr("width")) ?? (vb?.length === 4 ? vb[2] : undefined);
  const h = len(attr("height")) ?? (vb?.length === 4 ? vb[3] : undefined);
  return w !== undefined && h !== undefined && Number.isFinite(w) && Number.isFinite(h) ? { w, h } : undefined;
}
