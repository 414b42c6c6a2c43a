/**
 * Skencil (.sk) and sK1 (.sk1) drawings → SVG (issue 33), for Inkscape's exports (container/engines/inkscape.ts).
 * Read from the calls parse.ts gives, with the meaning Skencil's loader and uniconvertor's
 * (src/uc2/formats/sk/sk_filters.py, sk1/) give them:
 * - Page: `layout(format, orientation)`, `layout((w, h), orientation)`, sK1's `layout(format, (w, h), orientation)`
 *   and `page(…)`; PostScript points, y upwards (the SVG flips it). Orientation 1 = landscape.
 * - Style, set before each object and reset after it: `fp(color)` solid fill, `fe()` none, `lp(color)` stroke,
 *   `le()` none, `lw(pt)` (0 = Skencil's hairline, drawn 0.28 pt as uniconvertor's default), `lc` caps
 *   (1 butt, 2 round, 3 square), `lj` joins (0 miter, 1 round, 2 bevel), `ld(dashes)` in line widths,
 *   `Fn(font)`, `Fs(pt)`; `dstyle(name)`/`style(name)`/`use_style(name)` named styles. Colours: Skencil
 *   `(r, g, b)` 0..1; sK1 `("RGB", r, g, b)`, `("CMYK", c, m, y, k)`, `("Gray", g)`. Gradients (`gl`/`pgl`/
 *   `pgr`/`pgc`) are drawn in their middle colour and hatchings (`phs`) in their background, with a warning.
 * - Objects: `r(a, b, c, d, e, f[, rx, ry])` the unit square through the affine map (x, y) → (a·x + c·y + e,
 *   b·x + d·y + f), corner radii in unit-square terms; `e(a…f[, start, end, type])` the unit circle through
 *   it (arc 0, chord 1, pie slice 2); `b()` a path of `bs(x, y, cont)` lines and `bc(x1, y1, x2, y2, x, y,
 *   cont)` curves, `bn()` a new subpath, `bC()` closing it; `txt(text, trafo[, halign, valign])` with trafo
 *   `(x, y)` or `(a…f)`; `G()`…`G_()` groups (mask `M`, blend `B`, path text `PT`, plugin `PC` drawn as
 *   groups); `layer(name, visible, printable, locked, outlined, color)` (and sK1's `masterlayer`) as Inkscape
 *   layers, a layer not visible or not printable left out; `bm(id)` + base64 and `im(trafo, id)` images,
 *   PNG, JPEG or GIF only.
 * - Never read: a bitmap naming a file (`bm(id, filename)`) or embedded EPS (`eps(…)`): skipped with a warning.
 * - Unknown calls are skipped with one warning a name.
 * Bounds ({@link SKETCH_LIMITS}) end in {@link SketchError} OVER_BUDGET; malformed documents OPEN_FAILED.
 */
import { parseDocument, SketchError, type SketchCall, type SketchValue } from "./parse.ts";

/** The reader's bounds: file bytes, calls, path nodes in all, group depth, coordinate magnitude (pt). */
export const SKETCH_LIMITS = {
  maxBytes: 32 * 1024 * 1024,
  maxCalls: 2_000_000,
  maxNodes: 1_000_000,
  maxDepth: 64,
  maxCoordinate: 1e7,
} as const;

/** Page sizes Skencil names, in points (portrait). Unknown names are A4, as uniconvertor reads them. */
const PAGE_FORMATS: Record<string, [number, number]> = {
  A0: [2383.94, 3370.39],
  A1: [1683.78, 2383.94],
  A2: [1190.55, 1683.78],
  A3: [841.89, 1190.55],
  A4: [595.276, 841.89],
  A5: [419.528, 595.276],
  A6: [297.638, 419.528],
  B4: [708.661, 1000.63],
  B5: [498.898, 708.661],
  Letter: [612, 792],
  Legal: [612, 1008],
  Executive: [522, 756],
  Tabloid: [792, 1224],
};

type Rgb = [number, number, number];
type Paint = Rgb | null;

interface Style {
  fill: Paint;
  stroke: Paint;
  width: number;
  cap: number;
  join: number;
  dashes: number[];
  font: string;
  size: number;
}

const DEFAULT_STYLE: Style = {
  fill: null,
  stroke: [0, 0, 0],
  width: 0.28,
  cap: 1,
  join: 0,
  dashes: [],
  font: "Times-Roman",
  size: 12,
};

/** The SVG of a drawing, its page size in points, and what was left out or approximated. */
export interface SketchSvg {
  svg: string;
  width: number;
  height: number;
  warnings: string[];
}

const num = (v: SketchValue | undefined): number | undefined => (typeof v === "number" ? v : undefined);
const fmt = (n: number) => String(Math.round(n * 1000) / 1000);
const xml = (s: string) =>
  s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    // characters XML 1.0 does not allow
    // eslint-disable-next-line no-control-regex
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/g, "");

type Matrix = [number, number, number, number, number, number];

/** Converts one document. @throws SketchError */
class Reader {
  readonly warnings: string[] = [];
  private readonly warned = new Set<string>();
  private readonly out: string[] = [];
  private style: Style = { ...DEFAULT_STYLE };
  private set = new Set<keyof Style>();
  private readonly styles = new Map<string, { style: Style; set: Set<keyof Style> }>();
  private gradient: Rgb | null = null;
  private pattern: Paint | undefined;
  private depth = 0;
  private nodes = 0;
  private layerOpen = false;
  private skipLayer = false;
  private pages = 0;
  private readonly bitmaps = new Map<string, string>();
  private path: { d: string[]; open: boolean; started: boolean } | null = null;
  width = PAGE_FORMATS.A4![0];
  height = PAGE_FORMATS.A4![1];

  warn(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.warnings.push(message);
  }

  private coord(n: number | undefined, call: SketchCall): number {
    if (n === undefined) throw new SketchError("OPEN_FAILED", `line ${call.line}: ${call.name}() expects numbers`);
    if (Math.abs(n) > SKETCH_LIMITS.maxCoordinate)
      throw new SketchError(
        "OVER_BUDGET",
        `line ${call.line}: coordinate ${n} is beyond ±${SKETCH_LIMITS.maxCoordinate} pt, larger than any page`,
      );
    return n;
  }

  private count(n: number): void {
    this.nodes += n;
    if (this.nodes > SKETCH_LIMITS.maxNodes)
      throw new SketchError("OVER_BUDGET", `the drawing has over ${SKETCH_LIMITS.maxNodes} path nodes and objects`);
  }

  private color(v: SketchValue | undefined, call: SketchCall): Rgb {
    if (Array.isArray(v)) {
      if (typeof v[0] === "string") {
        const [model, ...rest] = v;
        const n = rest.map(num);
        const m = String(model).toUpperCase();
        if (m === "RGB" && n.length >= 3 && n.slice(0, 3).every((x) => x !== undefined)) return [n[0]!, n[1]!, n[2]!];
        if (m === "CMYK" && n.length >= 4 && n.slice(0, 4).every((x) => x !== undefined)) {
          const [c, mm, y, k] = n as number[];
          return [(1 - c!) * (1 - k!), (1 - mm!) * (1 - k!), (1 - y!) * (1 - k!)];
        }
        if ((m === "GRAY" || m === "GREY") && n[0] !== undefined) return [n[0], n[0], n[0]];
      } else if (v.length >= 3 && v.slice(0, 3).every((x) => typeof x === "number")) {
        return [v[0] as number, v[1] as number, v[2] as number];
      }
    }
    this.warn(`color:${call.line}`, `line ${call.line}: a colour this reader does not know is drawn black`);
    return [0, 0, 0];
  }

  private paintAttr(p: Paint): string {
    if (!p) return "none";
    const c = p.map((x) => Math.round(Math.min(1, Math.max(0, x)) * 255));
    return `rgb(${c[0]},${c[1]},${c[2]})`;
  }

  private styleAttrs(): string {
    const s = this.style;
    const width = s.width > 0 ? s.width : 0.28;
    const parts = [`fill="${this.paintAttr(s.fill)}"`, `stroke="${this.paintAttr(s.stroke)}"`];
    if (s.stroke) {
      parts.push(`stroke-width="${fmt(width)}"`);
      parts.push(`stroke-linecap="${["butt", "butt", "round", "square"][s.cap] ?? "butt"}"`);
      parts.push(`stroke-linejoin="${["miter", "round", "bevel"][s.join] ?? "miter"}"`);
      if (s.dashes.length) parts.push(`stroke-dasharray="${s.dashes.map((d) => fmt(d * width)).join(" ")}"`);
    }
    return parts.join(" ");
  }

  /** The style of the next object is reset after it, as both loaders do. */
  private resetStyle(): void {
    this.style = { ...DEFAULT_STYLE };
    this.set = new Set();
  }

  private setStyle<K extends keyof Style>(key: K, v: Style[K]): void {
    this.style[key] = v;
    this.set.add(key);
  }

  private emit(s: string): void {
    if (!this.skipLayer) this.out.push(s);
  }

  private ensureLayer(): void {
    if (!this.layerOpen) {
      this.out.push(`<g inkscape:groupmode="layer" inkscape:label="Layer">`);
      this.layerOpen = true;
    }
  }

  private closeLayer(): void {
    this.closePath();
    if (this.depth > 0) {
      this.warn("unclosed-group", "a group was not closed before its layer ended; it was closed there");
      while (this.depth > 0) {
        this.emit("</g>");
        this.depth--;
      }
    }
    if (this.layerOpen && !this.skipLayer) this.out.push("</g>");
    this.layerOpen = false;
    this.skipLayer = false;
  }

  private matrix(call: SketchCall, from = 0): Matrix {
    const m = call.args.slice(from, from + 6).map(num);
    if (m.length < 6) throw new SketchError("OPEN_FAILED", `line ${call.line}: ${call.name}() needs 6 numbers`);
    return m.map((x) => this.coord(x, call)) as Matrix;
  }

  private closePath(): void {
    if (!this.path) return;
    if (this.path.d.length) this.emit(`<path ${this.pathStyle} d="${this.path.d.join(" ")}"/>`);
    this.path = null;
  }
  private pathStyle = "";

  private startObject(): void {
    this.closePath();
    this.ensureLayer();
  }

  /** Points through `m` as one SVG path segment list. */
  private static apply(m: Matrix, x: number, y: number): string {
    return `${fmt(m[0] * x + m[2] * y + m[4])} ${fmt(m[1] * x + m[3] * y + m[5])}`;
  }

  private rect(call: SketchCall): void {
    const m = this.matrix(call);
    let rx = Math.min(0.5, Math.max(0, num(call.args[6]) ?? 0));
    let ry = Math.min(0.5, Math.max(0, num(call.args[7]) ?? 0));
    if (!(rx > 0 && ry > 0)) rx = ry = 0;
    const k = 0.5523;
    const p = (x: number, y: number) => Reader.apply(m, x, y);
    let d: string;
    if (rx === 0) d = `M ${p(0, 0)} L ${p(1, 0)} L ${p(1, 1)} L ${p(0, 1)} Z`;
    else
      d =
        `M ${p(rx, 0)} L ${p(1 - rx, 0)} C ${p(1 - rx + k * rx, 0)} ${p(1, ry - k * ry)} ${p(1, ry)} ` +
        `L ${p(1, 1 - ry)} C ${p(1, 1 - ry + k * ry)} ${p(1 - rx + k * rx, 1)} ${p(1 - rx, 1)} ` +
        `L ${p(rx, 1)} C ${p(rx - k * rx, 1)} ${p(0, 1 - ry + k * ry)} ${p(0, 1 - ry)} ` +
        `L ${p(0, ry)} C ${p(0, ry - k * ry)} ${p(rx - k * rx, 0)} ${p(rx, 0)} Z`;
    this.count(1);
    this.emit(`<path ${this.styleAttrs()} d="${d}"/>`);
  }

  private ellipse(call: SketchCall): void {
    const m = this.matrix(call);
    const start = num(call.args[6]) ?? num(call.kwargs.start_angle) ?? 0;
    let end = num(call.args[7]) ?? num(call.kwargs.end_angle) ?? 0;
    const type = num(call.args[8]) ?? num(call.kwargs.arc_type) ?? 2;
    const full = start === end;
    if (full) end = start + 2 * Math.PI;
    while (end <= start) end += 2 * Math.PI;
    const segments = Math.max(1, Math.ceil((end - start) / (Math.PI / 2)));
    const step = (end - start) / segments;
    const k = (4 / 3) * Math.tan(step / 4);
    const p = (x: number, y: number) => Reader.apply(m, x, y);
    const parts = [`M ${p(Math.cos(start), Math.sin(start))}`];
    for (let i = 0; i < segments; i++) {
      const a = start + i * step;
      const b = a + step;
      parts.push(
        `C ${p(Math.cos(a) - k * Math.sin(a), Math.sin(a) + k * Math.cos(a))} ` +
          `${p(Math.cos(b) + k * Math.sin(b), Math.sin(b) - k * Math.cos(b))} ${p(Math.cos(b), Math.sin(b))}`,
      );
    }
    if (full || type === 1) parts.push("Z");
    else if (type === 2) parts.push(`L ${p(0, 0)} Z`);
    this.count(segments);
    this.emit(`<path ${this.styleAttrs()} d="${parts.join(" ")}"/>`);
  }

  private text(call: SketchCall): void {
    const text = call.args[0];
    const trafo = call.args[1];
    if (typeof text !== "string" || !Array.isArray(trafo))
      throw new SketchError("OPEN_FAILED", `line ${call.line}: txt() expects a string and a position`);
    if (text === "") return;
    const t = trafo.map(num);
    let m: Matrix;
    if (t.length === 2) m = [1, 0, 0, 1, this.coord(t[0], call), this.coord(t[1], call)];
    else if (t.length === 6) m = t.map((x) => this.coord(x, call)) as Matrix;
    else throw new SketchError("OPEN_FAILED", `line ${call.line}: txt() position is neither (x, y) nor 6 numbers`);
    this.count(1);
    const h = num(call.args[2]) ?? 0;
    const anchor = ["start", "end", "middle"][h] ?? "start";
    const [family, ...faces] = this.style.font.split("-");
    const face = faces.join("-");
    const weight = /Bold|Black|Heavy|Demi/i.test(face) ? ` font-weight="bold"` : "";
    const italic = /Italic|Oblique/i.test(face) ? ` font-style="italic"` : "";
    const fill = this.set.has("fill") ? this.style.fill : [0, 0, 0];
    this.emit(
      `<text transform="matrix(${m.map(fmt).join(" ")}) scale(1 -1)" font-family="${xml(family ?? "serif")}"` +
        `${weight}${italic} font-size="${fmt(this.style.size)}" text-anchor="${anchor}" fill="${this.paintAttr(
          fill as Paint,
        )}" xml:space="preserve">${xml(text)}</text>`,
    );
  }

  private image(call: SketchCall): void {
    const trafo = call.args[0];
    const id = String(call.args[1]);
    const href = this.bitmaps.get(id);
    if (!href) {
      this.warn(`image:${id}`, `line ${call.line}: image ${id} has no embedded bitmap this reader draws; left out`);
      return;
    }
    if (!Array.isArray(trafo)) throw new SketchError("OPEN_FAILED", `line ${call.line}: im() expects a transform`);
    const t = trafo.map(num);
    const m = (t.length === 2 ? [1, 0, 0, 1, t[0], t[1]] : t).map((x) => this.coord(x, call)) as Matrix;
    if (m.length !== 6) throw new SketchError("OPEN_FAILED", `line ${call.line}: im() transform is not 6 numbers`);
    const [mime, w, h] = href.split("|") as [string, string, string];
    this.count(1);
    // a bitmap's pixel (0, 0) is its top left; Skencil's image space has y upwards over its height
    this.emit(
      `<image transform="matrix(${m.map(fmt).join(" ")}) matrix(1 0 0 -1 0 ${h})" width="${w}" height="${h}" ` +
        `preserveAspectRatio="none" xlink:href="${mime}"/>`,
    );
  }

  /** A bitmap's base64 data as "data:…|width|height" when it is a PNG, JPEG or GIF. */
  private bitmap(call: SketchCall): void {
    const id = String(call.args[0]);
    if (call.data === undefined) {
      this.warn(
        `bm:${id}`,
        `line ${call.line}: bitmap ${id} names a file outside the drawing; it is not read and is left out`,
      );
      return;
    }
    const bytes = Buffer.from(call.data, "base64");
    const size = imageSize(bytes);
    if (!size) {
      this.warn(`bm:${id}`, `line ${call.line}: bitmap ${id} is not a PNG, JPEG or GIF; left out`);
      return;
    }
    this.bitmaps.set(id, `data:${size.mime};base64,${bytes.toString("base64")}|${size.w}|${size.h}`);
  }

  private page(w: number, h: number, landscape: boolean, call: SketchCall): void {
    if (!(w > 0 && h > 0) || w > SKETCH_LIMITS.maxCoordinate || h > SKETCH_LIMITS.maxCoordinate)
      throw new SketchError("OVER_BUDGET", `line ${call.line}: page size ${w} × ${h} pt is out of range`);
    [this.width, this.height] = landscape && w < h ? [h, w] : [w, h];
  }

  private layout(call: SketchCall): void {
    const [a, b, c] = call.args;
    if (Array.isArray(a)) {
      this.page(num(a[0]) ?? 0, num(a[1]) ?? 0, b === 1, call);
    } else if (typeof a === "string" && Array.isArray(b)) {
      this.page(num(b[0]) ?? 0, num(b[1]) ?? 0, c === 1, call);
    } else if (typeof a === "string") {
      const f = PAGE_FORMATS[a] ?? PAGE_FORMATS.A4!;
      if (!PAGE_FORMATS[a]) this.warn("page", `page format "${a}" is not known; A4 is used`);
      this.page(f[0], f[1], b === 1, call);
    }
  }

  private layer(call: SketchCall): void {
    this.closeLayer();
    const name = typeof call.args[0] === "string" ? call.args[0] : "Layer";
    const visible = call.args[1] !== 0 && call.args[1] !== false;
    const printable = call.args[2] !== 0 && call.args[2] !== false;
    this.skipLayer = !(visible && printable);
    if (!this.skipLayer) this.out.push(`<g inkscape:groupmode="layer" inkscape:label="${xml(name)}">`);
    this.layerOpen = true;
  }

  private patternColor(call: SketchCall): Paint {
    if (this.pattern === undefined) {
      this.warn(`pattern:${call.line}`, `line ${call.line}: ${call.name}() without a pattern; drawn black`);
      return [0, 0, 0];
    }
    return this.pattern;
  }

  call(call: SketchCall): void {
    const a = call.args;
    switch (call.name) {
      case "document":
      case "grid":
      case "guide":
      case "Bi":
      case "pt":
      case "ft":
        return;
      case "layout":
        return this.layout(call);
      case "page":
        if (++this.pages > 1) this.warn("pages", "only the first page of a multi-page sK1 drawing is drawn");
        else if (Array.isArray(a[2])) this.page(num(a[2][0]) ?? 0, num(a[2][1]) ?? 0, a[3] === 1, call);
        return;
      case "layer":
      case "masterlayer":
        return this.layer(call);
      case "guidelayer":
        this.closeLayer();
        this.skipLayer = true;
        this.layerOpen = true;
        return;
      // style
      case "fp":
        return this.setStyle("fill", a.length ? this.color(a[0], call) : this.patternColor(call));
      case "fe":
        return this.setStyle("fill", null);
      case "lp":
        return this.setStyle("stroke", a.length ? this.color(a[0], call) : this.patternColor(call));
      case "le":
        return this.setStyle("stroke", null);
      case "lw":
        return this.setStyle("width", Math.max(0, Math.min(1e4, num(a[0]) ?? 0.28)));
      case "lc":
        return this.setStyle("cap", num(a[0]) ?? 1);
      case "lj":
        return this.setStyle("join", num(a[0]) ?? 0);
      case "ld":
        return this.setStyle(
          "dashes",
          (Array.isArray(a[0]) ? a[0] : []).map((d) => Math.max(0, Math.min(1e4, num(d) ?? 0))).slice(0, 64),
        );
      case "la1":
      case "la2":
        if (a.length && a[0] !== null) this.warn("arrows", "arrow heads are not drawn");
        return;
      case "Fn":
        return this.setStyle("font", typeof a[0] === "string" ? a[0] : "Times-Roman");
      case "Fs":
        return this.setStyle("size", Math.max(0.1, Math.min(1e4, num(a[0]) ?? 12)));
      case "dstyle":
        if (typeof a[0] === "string") this.styles.set(a[0], { style: this.style, set: this.set });
        return this.resetStyle();
      case "style":
      case "use_style": {
        const named = typeof a[0] === "string" ? this.styles.get(a[0]) : undefined;
        if (!named) return;
        const own = this.style;
        const ownSet = this.set;
        this.style = { ...named.style };
        this.set = new Set([...named.set, ...ownSet]);
        for (const k of ownSet) (this.style as unknown as Record<string, unknown>)[k] = own[k];
        return;
      }
      // patterns and gradients
      case "gl": {
        const stops = Array.isArray(a[0]) ? a[0] : [];
        const mid = stops[Math.floor(stops.length / 2)];
        this.gradient = Array.isArray(mid) ? this.color(mid[1], call) : [0, 0, 0];
        return;
      }
      case "pgl":
      case "pgr":
      case "pgc":
        this.warn("gradient", "gradients are drawn in their middle colour");
        this.pattern = this.gradient ?? [0.5, 0.5, 0.5];
        return;
      case "phs":
        this.warn("hatching", "hatchings are drawn in their background colour");
        this.pattern = this.color(a[1], call);
        return;
      case "pe":
        this.pattern = null;
        return;
      case "ps":
        this.pattern = this.color(a[0], call);
        return;
      case "pit":
        this.warn("tile", "image tile fills are not drawn");
        this.pattern = null;
        return;
      // groups
      case "G":
      case "M":
      case "B":
      case "PT":
      case "PC":
        this.startObject();
        if (++this.depth > SKETCH_LIMITS.maxDepth)
          throw new SketchError("OVER_BUDGET", `line ${call.line}: groups nested over ${SKETCH_LIMITS.maxDepth} deep`);
        if (call.name === "M") this.warn("mask", "mask groups are drawn without their mask");
        if (call.name === "PT") this.warn("pathtext", "text on a path is drawn as plain text");
        this.count(1);
        this.emit("<g>");
        return;
      case "G_":
      case "M_":
      case "B_":
      case "PT_":
      case "PC_":
        this.closePath();
        if (this.depth === 0) throw new SketchError("OPEN_FAILED", `line ${call.line}: ${call.name}() closes no group`);
        this.depth--;
        this.emit("</g>");
        return;
      // objects
      case "r":
        this.startObject();
        this.rect(call);
        return this.resetStyle();
      case "e":
        this.startObject();
        this.ellipse(call);
        return this.resetStyle();
      case "b":
        this.startObject();
        this.pathStyle = this.styleAttrs();
        this.path = { d: [], open: false, started: false };
        this.count(1);
        return this.resetStyle();
      case "bs":
      case "bc": {
        if (!this.path) throw new SketchError("OPEN_FAILED", `line ${call.line}: ${call.name}() outside a b() path`);
        const n = call.name === "bs" ? 2 : 6;
        const v = a.slice(0, n).map((x) => this.coord(num(x), call));
        this.count(1);
        if (!this.path.started) {
          // a subpath's first node is its start point (Skencil writes it as bs())
          this.path.d.push(`M ${fmt(v[n - 2]!)} ${fmt(v[n - 1]!)}`);
          this.path.started = true;
        } else if (n === 2) this.path.d.push(`L ${fmt(v[0]!)} ${fmt(v[1]!)}`);
        else this.path.d.push(`C ${v.map(fmt).join(" ")}`);
        return;
      }
      case "bn":
        if (!this.path) throw new SketchError("OPEN_FAILED", `line ${call.line}: bn() outside a b() path`);
        this.path.started = false;
        return;
      case "bC":
        if (!this.path) throw new SketchError("OPEN_FAILED", `line ${call.line}: bC() outside a b() path`);
        if (this.path.started) this.path.d.push("Z");
        return;
      case "txt":
      case "simpletext":
        this.startObject();
        this.text(call);
        return this.resetStyle();
      case "bm":
        return this.bitmap(call);
      case "im":
        this.startObject();
        this.image(call);
        return this.resetStyle();
      case "eps":
        this.startObject();
        this.warn("eps", `line ${call.line}: embedded EPS is not read; left out`);
        return this.resetStyle();
      default:
        this.warn(`call:${call.name}`, `line ${call.line}: ${call.name}() is not a call this reader knows; skipped`);
    }
  }

  finish(): string {
    this.closeLayer();
    const body = this.out.join("\n");
    return (
      `<?xml version="1.0" encoding="UTF-8"?>\n` +
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ` +
      `xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" ` +
      // the size in px (96 per inch) for the page's points: Inkscape 1.2's DXF export crashes on "pt" units
      `width="${fmt((this.width * 4) / 3)}" height="${fmt((this.height * 4) / 3)}" ` +
      `viewBox="0 0 ${fmt(this.width)} ${fmt(this.height)}">\n` +
      `<g transform="matrix(1 0 0 -1 0 ${fmt(this.height)})">\n${body}\n</g>\n</svg>\n`
    );
  }
}

/** Width, height and MIME type of a PNG, JPEG or GIF, from its header; undefined for anything else. */
function imageSize(b: Buffer): { mime: string; w: number; h: number } | undefined {
  if (b.length > 24 && b.readUInt32BE(0) === 0x89504e47 && b.toString("latin1", 12, 16) === "IHDR")
    return { mime: "image/png", w: b.readUInt32BE(16), h: b.readUInt32BE(20) };
  if (b.length > 10 && b.toString("latin1", 0, 4) === "GIF8")
    return { mime: "image/gif", w: b.readUInt16LE(6), h: b.readUInt16LE(8) };
  if (b.length > 4 && b[0] === 0xff && b[1] === 0xd8) {
    for (let i = 2; i + 9 < b.length;) {
      if (b[i] !== 0xff) return undefined;
      const marker = b[i + 1]!;
      const len = b.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
        return { mime: "image/jpeg", w: b.readUInt16BE(i + 7), h: b.readUInt16BE(i + 5) };
      i += 2 + len;
    }
  }
  return undefined;
}

/**
 * A Skencil or sK1 document's bytes → SVG (page size in points, y flipped to SVG's downwards axis).
 * @throws SketchError OPEN_FAILED (not a Skencil/sK1 document, malformed line, unbalanced group),
 * OVER_BUDGET (over {@link SKETCH_LIMITS})
 */
export function sketchToSvg(data: Uint8Array): SketchSvg {
  if (data.byteLength > SKETCH_LIMITS.maxBytes)
    throw new SketchError("OVER_BUDGET", `the drawing is over ${SKETCH_LIMITS.maxBytes / 1048576} MiB`);
  // Skencil wrote Latin-1 (Python 2 byte strings); sK1 writes UTF-8
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    text = new TextDecoder("latin1").decode(data);
  }
  const reader = new Reader();
  parseDocument(text, SKETCH_LIMITS.maxCalls, (call) => reader.call(call));
  const svg = reader.finish();
  return { svg, width: reader.width, height: reader.height, warnings: reader.warnings };
}
