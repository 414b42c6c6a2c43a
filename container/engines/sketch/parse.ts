/**
 * The syntax of Skencil (.sk, "##Sketch 1 2") and sK1 (.sk1, "##sK1 1 2") documents (issue 33): one Python
 * call a line, `name(arg, …, key=value)`, whose arguments are literals — numbers, strings with Python's
 * escapes, tuples, lists, None/True/False. Skencil's and uniconvertor's loaders exec each line as Python
 * (uniconvertor src/uc2/formats/sk/sk_filters.py); this is a tokenizer and parser of that literal subset,
 * nothing is evaluated. A bitmap (`bm(id)`) is followed by its base64 lines up to a line "-", returned
 * as the call's `data`. Errors are thrown as {@link SketchError} with the line number.
 */

/** A literal argument: number, string, None (null), bool, or a tuple/list of them. */
export type SketchValue = number | string | boolean | null | SketchValue[];

/** One call line. `data` holds the base64 text following a `bm(…)` line, without its "-" end line. */
export interface SketchCall {
  name: string;
  args: SketchValue[];
  kwargs: Record<string, SketchValue>;
  /** 1-based line number in the file. */
  line: number;
  data?: string;
}

/** A document this reader refuses: `code` OPEN_FAILED (malformed) or OVER_BUDGET (over a bound). */
export class SketchError extends Error {
  readonly code: "OPEN_FAILED" | "OVER_BUDGET";
  constructor(code: "OPEN_FAILED" | "OVER_BUDGET", message: string) {
    super(message);
    this.code = code;
  }
}

/** The dialect a header names: Skencil's "##Sketch 1 N" or sK1's "##sK1 1 N". */
export type SketchDialect = "sk" | "sk1";

/** Longest line, characters (a bitmap's base64 lines are short; a drawing's calls shorter still). */
const MAX_LINE = 1 << 20;
/** Deepest nesting of tuples/lists in one call. */
const MAX_NESTING = 32;

/**
 * The dialect of a document from its first line, or undefined when it is neither Skencil nor sK1.
 * Source: Skencil's sksaver writes "##Sketch 1 2"; sK1 0.9's writes "##sK1 1 2" (uniconvertor's probe.sk1).
 */
export function sketchDialect(firstLine: string): SketchDialect | undefined {
  if (/^##Sketch 1 \d+\s*$/.test(firstLine)) return "sk";
  if (/^##sK1 1 \d+\s*$/.test(firstLine)) return "sk1";
  return undefined;
}

const ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  v: "\v",
  "\n": "",
};

/** A cursor over one line's text. */
class Cursor {
  i = 0;
  readonly s: string;
  readonly line: number;
  constructor(s: string, line: number) {
    this.s = s;
    this.line = line;
  }
  fail(what: string): never {
    throw new SketchError("OPEN_FAILED", `line ${this.line}: ${what} at column ${this.i + 1}`);
  }
  space(): void {
    while (this.s[this.i] === " " || this.s[this.i] === "\t") this.i++;
  }
  peek(): string | undefined {
    this.space();
    return this.s[this.i];
  }
  eat(ch: string): boolean {
    if (this.peek() !== ch) return false;
    this.i++;
    return true;
  }
  expect(ch: string): void {
    if (!this.eat(ch)) this.fail(`expected "${ch}"`);
  }
  name(): string {
    this.space();
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.s.slice(this.i, this.i + 64));
    if (!m) this.fail("expected a name");
    this.i += m[0].length;
    return m[0];
  }
}

/** A Python string literal's body (prefix u/b allowed; r-strings refused) with its escapes decoded. */
function stringLiteral(c: Cursor): string {
  const prefix = /^[uUbB]?/.exec(c.s.slice(c.i))![0];
  c.i += prefix.length;
  const quote = c.s[c.i];
  if (quote !== "'" && quote !== '"') c.fail("expected a string");
  c.i++;
  let out = "";
  for (;;) {
    const ch = c.s[c.i];
    if (ch === undefined) c.fail("unterminated string");
    c.i++;
    if (ch === quote) {
      if (out.includes("\0")) c.fail("a string holds a NUL character");
      return out;
    }
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const e = c.s[c.i];
    if (e === undefined) c.fail("unterminated string");
    if (e in ESCAPES) {
      out += ESCAPES[e];
      c.i++;
    } else if (e === "x") {
      const h = /^[0-9A-Fa-f]{2}/.exec(c.s.slice(c.i + 1, c.i + 3));
      if (!h) c.fail("bad \\x escape");
      out += String.fromCharCode(parseInt(h[0], 16));
      c.i += 3;
    } else if (e === "u" || e === "U") {
      const n = e === "u" ? 4 : 8;
      const h = new RegExp(`^[0-9A-Fa-f]{${n}}`).exec(c.s.slice(c.i + 1, c.i + 1 + n));
      if (!h) c.fail(`bad \\${e} escape`);
      const cp = parseInt(h[0], 16);
      if (cp > 0x10ffff) c.fail("escape beyond Unicode");
      out += String.fromCodePoint(cp);
      c.i += 1 + n;
    } else if (/[0-7]/.test(e)) {
      const o = /^[0-7]{1,3}/.exec(c.s.slice(c.i, c.i + 3))![0];
      out += String.fromCharCode(parseInt(o, 8) & 0xff);
      c.i += o.length;
    } else {
      // Python keeps an unknown escape as it stands
      out += `\\${e}`;
      c.i++;
    }
  }
}

/** One literal value. */
function value(c: Cursor, depth: number): SketchValue {
  if (depth > MAX_NESTING)
    throw new SketchError("OVER_BUDGET", `line ${c.line}: tuples nested over ${MAX_NESTING} deep`);
  const ch = c.peek();
  if (ch === "(" || ch === "[") {
    const close = ch === "(" ? ")" : "]";
    c.i++;
    const items: SketchValue[] = [];
    while (!c.eat(close)) {
      items.push(value(c, depth + 1));
      if (!c.eat(",")) {
        c.expect(close);
        break;
      }
    }
    return items;
  }
  if (ch === "'" || ch === '"' || (/^[uUbB]['"]/.test(c.s.slice(c.i, c.i + 2)) && ch !== undefined))
    return stringLiteral(c);
  const num = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[lLjJ]?/.exec(c.s.slice(c.i, c.i + 64));
  if (num) {
    if (/[jJ]$/.test(num[0])) c.fail("complex numbers are not drawing data");
    c.i += num[0].length;
    const n = Number(num[0].replace(/[lL]$/, ""));
    if (!Number.isFinite(n)) c.fail("a number out of range");
    return n;
  }
  if (ch !== undefined && /[A-Za-z_]/.test(ch)) {
    const n = c.name();
    if (n === "None") return null;
    if (n === "True") return true;
    if (n === "False") return false;
    c.fail(`"${n}" is not a literal`);
  }
  return c.fail("expected a value");
}

/** One call line → {@link SketchCall}. @throws SketchError OPEN_FAILED on anything but `name(literals)` */
export function parseCall(text: string, line: number): SketchCall {
  const c = new Cursor(text, line);
  const name = c.name();
  c.expect("(");
  const args: SketchValue[] = [];
  const kwargs: Record<string, SketchValue> = {};
  while (!c.eat(")")) {
    const kw = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)/.exec(c.s.slice(c.i, c.i + 80));
    if (kw) {
      c.i += kw[0].length;
      kwargs[kw[1]!] = value(c, 0);
    } else {
      if (Object.keys(kwargs).length) c.fail("a positional argument after a keyword argument");
      args.push(value(c, 0));
    }
    if (!c.eat(",")) {
      c.expect(")");
      break;
    }
  }
  c.space();
  if (c.i < c.s.length) c.fail("text after the call");
  return { name, args, kwargs, line };
}

/**
 * Reads a whole document, handing each call after the header line to `onCall` as it is parsed (so no list of
 * millions of calls is held), blank lines and "#" comments left out. Returns the dialect.
 * @throws SketchError OPEN_FAILED (no header, a NUL byte, a malformed line, a bitmap without its end
 * line), OVER_BUDGET (more than `maxCalls` calls, a line over 1 MiB)
 */
export function parseDocument(text: string, maxCalls: number, onCall: (call: SketchCall) => void): SketchDialect {
  if (text.includes("\0")) throw new SketchError("OPEN_FAILED", "the file holds NUL bytes: it is not a text drawing");
  const lines = text.split(/\r\n|\r|\n/);
  const dialect = sketchDialect(lines[0] ?? "");
  if (!dialect)
    throw new SketchError(
      "OPEN_FAILED",
      'not a Skencil or sK1 drawing: the first line is not "##Sketch 1 N" or "##sK1 1 N"',
    );
  let calls = 0;
  for (let n = 1; n < lines.length; n++) {
    const raw = lines[n]!;
    if (raw.length > MAX_LINE)
      throw new SketchError("OVER_BUDGET", `line ${n + 1} is over ${MAX_LINE} characters long`);
    const t = raw.trim();
    if (t === "" || t.startsWith("#")) continue;
    if (++calls > maxCalls)
      throw new SketchError("OVER_BUDGET", `the drawing has over ${maxCalls} calls; at most ${maxCalls} are read`);
    const call = parseCall(t, n + 1);
    if (call.name === "bm" && call.args.length < 2 && call.kwargs.filename === undefined) {
      // the bitmap's base64 lines follow, up to a line "-"
      const parts: string[] = [];
      let end = n + 1;
      for (; end < lines.length; end++) {
        const l = lines[end]!.trim();
        if (l === "-") break;
        if (!/^[A-Za-z0-9+/=]*-?$/.test(l))
          throw new SketchError("OPEN_FAILED", `line ${end + 1}: not base64 inside the bitmap of line ${n + 1}`);
        if (l.endsWith("-")) {
          parts.push(l.slice(0, -1));
          break;
        }
        parts.push(l);
      }
      if (end >= lines.length)
        throw new SketchError("OPEN_FAILED", `the bitmap of line ${n + 1} has no end line "-" (file cut short?)`);
      call.data = parts.join("");
      n = end;
    }
    onCall(call);
  }
  return dialect;
}
