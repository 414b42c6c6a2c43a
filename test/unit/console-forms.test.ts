/**
 * Issue 36: the console's option forms are generated from the catalogue (GET /v2/operations?include=options)
 * and /openapi.json, never hand-listed. Over every handler of the registry, the page's own form functions
 * (src/console/forms.ts, the module the page's script is bundled from) build a
 * field for each option, the defaults shown round-trip through the form's parsing and through the
 * API's validation (validateTaskParams, the oracle), and a value the form marks invalid before sending
 * is one the API refuses too (and a boundary value both accept).
 */
import { describe, expect, it } from "vitest";
import { optionsOf } from "../../src/api/options";
import { openApiDocument } from "../../src/api/openapi";
import * as page from "../../src/console/forms";
import { HANDLERS } from "../../src/operations/registry";
import { validateTaskParams } from "../../src/operations/validate";

const schemas = (openApiDocument() as { components: { schemas: Record<string, { properties?: object }> } }).components
  .schemas;
const propsOf = (op: string) =>
  (schemas[`Task_${op.replace(/[^a-z0-9]+/gi, "_")}`]?.properties ?? {}) as Record<string, { description?: string }>;
/** The form types the page renders a control for (optionControl). */
const RENDERED = new Set(["string", "boolean", "integer", "float", "enum", "dictionary", "array"]);

const formatsOf = (h: (typeof HANDLERS)[number]) => {
  const f = h.formats[0];
  return {
    ...(f && f.input !== "*" ? { input_format: f.input } : {}),
    ...(f && f.output !== "*" ? { output_format: f.output } : {}),
  };
};
/** What the API's validation says of a task of handler h (with its first format pair) given these options. */
const errorsOf = (h: (typeof HANDLERS)[number], params: Record<string, unknown>): string[] => {
  const v = validateTaskParams([h], { ...formatsOf(h), ...params });
  return "errors" in v ? v.errors : [];
};
const label = (h: (typeof HANDLERS)[number]) => `${h.operation} ${JSON.stringify(formatsOf(h))}`;

describe("the console's option forms", () => {
  it("cover the registry: every handler's options get a field of a rendered type", () => {
    let fields = 0;
    for (const h of HANDLERS) {
      const made = page.fieldsOf(optionsOf(h), propsOf(h.operation));
      for (const f of made) {
        expect(RENDERED.has(f.type), `${label(h)} ${f.name}: ${f.type}`).toBe(true);
        if (f.type === "enum") expect(f.values?.length, `${label(h)} ${f.name}`).toBeGreaterThan(0);
      }
      fields += made.length;
    }
    expect(fields).toBeGreaterThan(100);
  });

  it("round-trip every handler's defaults through the form and the API's validation", () => {
    let defaults = 0;
    for (const h of HANDLERS) {
      const params: Record<string, unknown> = {};
      for (const f of page.fieldsOf(optionsOf(h), propsOf(h.operation))) {
        if (f.def === null) continue;
        const back = page.parseValue(f, page.showValue(f, f.def));
        expect(back, `${label(h)} ${f.name}`).toEqual({ value: f.def });
        params[f.name] = back.value;
        defaults++;
      }
      // the defaults add no error to what the API says of the task without them (options it requires and that
      // have no default, e.g. watermark's text, are the person's to fill)
      expect(errorsOf(h, params), label(h)).toEqual(errorsOf(h, {}));
    }
    expect(defaults).toBeGreaterThan(0);
  });

  it("mark before sending what the API refuses: numbers past their bounds, values outside an enum", () => {
    let checked = 0;
    for (const h of HANDLERS) {
      const baseline = errorsOf(h, {});
      for (const f of page.fieldsOf(optionsOf(h), propsOf(h.operation))) {
        const cases: [string, boolean][] = [];
        if ((f.type === "integer" || f.type === "float") && f.max !== undefined)
          cases.push([String(f.max), true], [String(f.max + 1), false]);
        if ((f.type === "integer" || f.type === "float") && f.min !== undefined)
          cases.push([String(f.min), true], [String(f.min - 1), false]);
        if (f.type === "enum") cases.push([String(f.values![0]), true], ["no-such-value", false]);
        for (const [raw, ok] of cases) {
          const form = page.parseValue(f, raw);
          expect(!form.error, `form: ${label(h)} ${f.name}=${raw}`).toBe(ok);
          const value = ok ? form.value : f.type === "enum" ? raw : Number(raw);
          const errors = errorsOf(h, { [f.name]: value });
          // the API's message about a value is "<option>: <why>"; rules across options ("page_width and page_height
          // go together") are not about the value
          const aboutIt = errors.filter((e) => e.startsWith(`${f.name}:`) && !baseline.includes(e));
          expect(aboutIt.length > 0, `API: ${label(h)} ${f.name}=${raw} ${errors.join(" ")}`).toBe(!ok);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it("list the options a handler requires, so the form marks them before sending", () => {
    const required = HANDLERS.flatMap((h) =>
      optionsOf(h)
        .filter((o) => o.required)
        .map((o) => `${h.operation}.${o.name}`),
    );
    expect(required).toEqual(
      expect.arrayContaining(["import/url.url", "capture-website.url", "pdf/extract-pages.pages"]),
    );
    // each is refused by the API when absent
    for (const h of HANDLERS)
      for (const o of optionsOf(h).filter((x) => x.required))
        expect(errorsOf(h, {}).join(" "), `${h.operation}.${o.name}`).toContain(o.name);
  });
});
