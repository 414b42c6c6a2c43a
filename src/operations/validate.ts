/**
 * Parameter validation of one task against its operation's handlers (issue 2: unknown operations
 * and bad parameters are refused with 422 before anything runs).
 *
 * Rules: `null` means absent (PHP sends nulls, contract §5.3); the common parameters
 * (service-spec "Parameters common to processing tasks") are checked here once; every other key must
 * be a parameter of a handler able to run the requested formats, so a typo is a clear error.
 */
import { z } from "zod";
import type { OperationHandler } from "./types";

const format = z.string().regex(/^[a-z0-9.]{1,16}$/i, "must be a file format such as png or pdf").transform((s) => s.toLowerCase());

/** Schema of the parameters every operation accepts (service-spec; contract §6). */
export const commonParams = z.object({
  input_format: format.optional(),
  output_format: format.optional(),
  engine: z.string().max(64).optional(),
  engine_version: z.string().max(64).optional(),
  filename: z
    .string()
    .min(1)
    .max(255)
    .refine((s) => !/[\/\\\x00-\x1f]/.test(s) && s !== "." && s !== "..", "must be a plain file name without slashes or control characters")
    .optional(),
  timeout: z.number().int().optional(),
});

const COMMON_KEYS = new Set([...Object.keys(commonParams.shape), "name", "redirect"]);

/** Handlers of an operation that can take `input_format` to `output_format` (either may be unknown yet). */
export function candidates(handlers: OperationHandler[], input?: string, output?: string, engine?: string): OperationHandler[] {
  return handlers.filter(
    (h) =>
      (!engine || h.engine === engine) &&
      h.formats.some((f) => (!input || f.input === "*" || f.input === input) && (!output || f.output === "*" || f.output === output)),
  );
}

function zodMessages(prefix: string, err: z.ZodError): string[] {
  return err.issues.map((i) => {
    const path = i.path.length ? i.path.join(".") : prefix;
    return `${path}: ${i.message}`;
  });
}

/**
 * Validates `raw` (the task object minus name/operation/input/ignore_error).
 * Returns the parameters with defaults applied, or messages (without the task prefix).
 */
export function validateTaskParams(handlers: OperationHandler[], raw: Record<string, unknown>): { params: Record<string, unknown> } | { errors: string[] } {
  const cleaned = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== null && v !== ""));
  const common = commonParams.safeParse(pick(cleaned, (k) => COMMON_KEYS.has(k)));
  if (!common.success) return { errors: zodMessages("parameters", common.error) };
  const { input_format, output_format, engine } = common.data;
  const operation = handlers[0].operation;
  if (!output_format && handlers.some((h) => h.requiresOutputFormat)) return { errors: ["output_format is required."] };
  const fit = candidates(handlers, input_format, output_format, engine);
  if (fit.length === 0) {
    const what = [input_format && `from ${input_format}`, output_format && `to ${output_format}`, engine && `with engine ${engine}`].filter(Boolean).join(" ");
    return { errors: [`${operation} ${what} is not supported by this server (see GET /v2/operations?filter[operation]=${operation}).`] };
  }
  let firstErrors: string[] | null = null;
  for (const h of fit) {
    const known = new Set(Object.keys(shapeOf(h.params)));
    const own = pick(cleaned, (k) => known.has(k) || !COMMON_KEYS.has(k));
    const unknown = Object.keys(own).filter((k) => !known.has(k));
    if (unknown.length) {
      firstErrors ??= unknown.map((k) => `${k}: parameter not supported by ${operation}${h.engine ? ` (engine ${h.engine})` : ""}.`);
      continue;
    }
    const parsed = h.params.safeParse(own);
    if (!parsed.success) {
      firstErrors ??= zodMessages("parameters", parsed.error);
      continue;
    }
    const extra = h.check?.(parsed.data as never) ?? [];
    if (extra.length) {
      firstErrors ??= extra;
      continue;
    }
    return { params: { ...common.data, ...(parsed.data as Record<string, unknown>) } };
  }
  return { errors: firstErrors ?? ["invalid parameters."] };
}

/** The keys of a zod object schema (empty for non-object schemas). */
export function shapeOf(schema: z.ZodType): Record<string, z.ZodType> {
  const s = schema as unknown as { shape?: Record<string, z.ZodType> };
  return s.shape ?? {};
}

function pick(o: Record<string, unknown>, keep: (k: string) => boolean): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([k]) => keep(k)));
}
