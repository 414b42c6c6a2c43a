/**
 * The options of an operation handler as the catalogue lists them (GET /v2/operations?include=options, contract §1.4),
 * from the handler's zod schema. Its own module (no Worker bindings) so the console's form test can use it in Node.
 */
import { z } from "zod";
import type { OperationHandler } from "../operations/types";

/**
 * One option as the catalogue lists it (contract §1.4: type string|boolean|integer|float|enum|dictionary), plus what
 * this handler's schema says of its values where it says it (the console's forms mark invalid values with these, issue 36):
 * help text, inclusive/exclusive numeric bounds, the longest string, a string format ("uri") or pattern.
 */
export interface OptionJson {
  name: string;
  type: string;
  default: unknown;
  possible_values?: unknown[];
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusive_minimum?: number;
  exclusive_maximum?: number;
  max_length?: number;
  format?: string;
  pattern?: string;
  /** The option must be given (the schema's `required`); rules across options (text or image) are not listed. */
  required?: boolean;
}

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  anyOf?: JsonSchema[];
  const?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  maxLength?: number;
  format?: string;
  pattern?: string;
};

/** The value rules of a JSON Schema the catalogue passes on (those present only). */
function valueRules(s: JsonSchema, alt: JsonSchema): Partial<OptionJson> {
  const rules: Partial<OptionJson> = {
    description: s.description ?? alt.description,
    minimum: alt.minimum,
    maximum: alt.maximum,
    exclusive_minimum: alt.exclusiveMinimum,
    exclusive_maximum: alt.exclusiveMaximum,
    max_length: alt.maxLength,
    format: alt.format,
    pattern: alt.pattern,
  };
  // zod's integers carry ±Number.MAX_SAFE_INTEGER as bounds: no rule a person needs to see
  const real = (v: unknown) => v !== undefined && !(typeof v === "number" && Math.abs(v) >= Number.MAX_SAFE_INTEGER);
  return Object.fromEntries(Object.entries(rules).filter(([, v]) => real(v)));
}

function optionType(s: JsonSchema): Omit<OptionJson, "name"> {
  const alt = s.anyOf?.find((x) => x.type !== "null") ?? s;
  const rules = valueRules(s, alt);
  if (alt.enum) return { type: "enum", default: s.default ?? alt.default ?? null, possible_values: alt.enum, ...rules };
  const t = Array.isArray(alt.type) ? alt.type[0] : alt.type;
  const type = t === "number" ? "float" : t === "object" ? "dictionary" : t === "array" ? "array" : (t ?? "string");
  return { type, default: s.default ?? alt.default ?? null, ...rules };
}

const optionCache = new WeakMap<OperationHandler, OptionJson[]>();

/** The options of a handler, from its schema. */
export function optionsOf(h: OperationHandler): OptionJson[] {
  let opts = optionCache.get(h);
  if (!opts) {
    const schema = z.toJSONSchema(h.params, { io: "input", unrepresentable: "any" }) as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    const required = new Set(schema.required ?? []);
    opts = Object.entries(schema.properties ?? {}).map(([name, s]) => ({
      name,
      ...optionType(s),
      ...(required.has(name) && s.default === undefined ? { required: true } : {}),
    }));
    optionCache.set(h, opts);
  }
  return opts;
}
