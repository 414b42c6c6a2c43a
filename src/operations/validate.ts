/**
 * Parameter validation of one task against its operation's handlers (issue 2: unknown operations
 * and bad parameters are refused with 422 before anything runs).
 *
 * Rules: `null` means absent (PHP sends nulls, contract §5.3); the common parameters
 * (service-spec "Parameters common to processing tasks") are checked here once; the handler is
 * picked from the input and output formats (and the `engine` pin) before any parameter is judged,
 * so a parameter is refused by the handler that would run the task.
 *
 * Issue 31 ("Options: accept what CloudConvert accepts"): a key the handler declares is judged, and
 * an invalid value is a 422 naming the field; a key it does not declare (an option of another
 * engine, a Job Builder default, `some_other_option`), or one its `inapplicable` says does not
 * apply to the other parameters (audio_bitrate with audio_codec copy), is accepted, left out of
 * the parameters, and listed under {@link IGNORED_KEY}, from which the runner writes one warning
 * per key into the task's result.warnings (runner/execute.ts). Among several handlers that fit the
 * formats, the ones declaring the most of the submitted keys are judged (so an option is honoured
 * by the handler that knows it, and a bad value of it is refused rather than ignored by another).
 */
import { z } from "zod";
import { ENGINES } from "../engines/registry";
import { answersTo } from "../engines/routing";
import { candidatesOf, fitsFormats, handlersOf, routedInputFormat } from "./registry";
import type { OperationHandler } from "./types";

const format = z
  .string()
  .regex(/^[a-z0-9.]{1,16}$/i, "must be a file format such as png or pdf")
  .transform((s) => s.toLowerCase());

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
    .refine(
      (s) => !/[\/\\\x00-\x1f]/.test(s) && s !== "." && s !== "..",
      "must be a plain file name without slashes or control characters",
    )
    .optional(),
  timeout: z.number().int().optional(),
});

const COMMON_KEYS = new Set([...Object.keys(commonParams.shape), "name", "redirect"]);

/** The parameter under which validation hands the ignored keys to the runner (never a user's key: those are dropped). */
export const IGNORED_KEY = "$ignored";

/** A submitted key that was accepted and ignored; `why` when it is known but does not apply (else: not supported). */
export interface IgnoredOption {
  key: string;
  why?: string;
}

/** The ignored keys carried in validated `params` (empty when none). */
export function ignoredOf(params: Record<string, unknown>): IgnoredOption[] {
  const v = params[IGNORED_KEY];
  return Array.isArray(v) ? (v as IgnoredOption[]) : [];
}

/** `params` without the ignored-keys entry, as handlers receive them. */
export function withoutIgnored<T extends Record<string, unknown>>(params: T): T {
  if (!(IGNORED_KEY in params)) return params;
  const { [IGNORED_KEY]: _i, ...rest } = params;
  return rest as T;
}

function zodMessages(prefix: string, err: z.ZodError): string[] {
  return err.issues.map((i) => {
    const path = i.path.length ? i.path.join(".") : prefix;
    return `${path}: ${i.message}`;
  });
}

type Judged = { params: Record<string, unknown>; ignored: IgnoredOption[] } | { errors: string[] };

/** How many of the submitted keys `h` declares (common keys aside). */
function knownCount(h: OperationHandler, cleaned: Record<string, unknown>): number {
  const known = shapeOf(h.params);
  return Object.keys(cleaned).filter(
    (k) =>
      !COMMON_KEYS.has(k) &&
      (Object.hasOwn(known, k) || (Object.hasOwn(OPTION_ALIASES, k) && OPTION_ALIASES[k]! in known)),
  ).length;
}

/**
 * CloudConvert's older names of options, honoured as the current one (contract §6: `page_range` is the old docs' name
 * of `pages`, still sent by Job Builder payloads in public code; issue 31).
 */
export const OPTION_ALIASES: Readonly<Record<string, string>> = { page_range: "pages" };

/** `raw` with each alias renamed to the option it stands for, when the handler declares that option and it was not also given. */
function withAliases(raw: Record<string, unknown>, known: Set<string>): Record<string, unknown> {
  let out = raw;
  for (const [alias, name] of Object.entries(OPTION_ALIASES)) {
    if (!(alias in raw) || known.has(alias) || !known.has(name) || name in raw) continue;
    const { [alias]: value, ...rest } = out;
    out = { ...rest, [name]: value };
  }
  return out;
}

/**
 * Judges `cleaned` against one handler: messages for invalid values of the keys it declares, or
 * its parameters with defaults and the keys it ignores (not declared, or `inapplicable`).
 */
function judge(h: OperationHandler, submitted: Record<string, unknown>): Judged {
  const known = new Set(Object.keys(shapeOf(h.params)));
  const cleaned = withAliases(submitted, known);
  // own keys only: a key named like an Object.prototype member (constructor) is no refused parameter (issue 45)
  const refused = Object.keys(cleaned).filter(
    (k) => !known.has(k) && h.refusedParams && Object.hasOwn(h.refusedParams, k) && h.refusedParams[k],
  );
  if (refused.length) return { errors: refused.map((k) => `${k}: ${h.refusedParams![k]}`) };
  const own = pick(cleaned, (k) => known.has(k));
  const ignored: IgnoredOption[] = Object.keys(cleaned)
    .filter((k) => !known.has(k) && !COMMON_KEYS.has(k))
    .map((key) => ({ key }));
  const parsed = h.params.safeParse(own);
  if (!parsed.success) return { errors: zodMessages("parameters", parsed.error) };
  const data = parsed.data as Record<string, unknown>;
  const extra = h.check?.(data as never) ?? [];
  if (extra.length) return { errors: extra };
  // with the task's output_format, a common key its params leave out (issue 47: convert's csv options were judged
  // against an undefined output and always dropped)
  const judged = "output_format" in cleaned ? { ...data, output_format: cleaned.output_format } : data;
  const moot = h.inapplicable?.(judged as never) ?? [];
  for (const m of moot) {
    delete data[m.key];
    ignored.push(m);
  }
  return { params: data, ignored };
}

/**
 * Validates `raw` (the task object minus name/operation/input/ignore_error). `inputHint` is the
 * format the task's first input will probably have (graph/parse.ts infers it from the input task:
 * its output_format, filename or URL), used to pick the handler when `input_format` is absent.
 * Returns the parameters with defaults applied, or messages (without the task prefix).
 */
export function validateTaskParams(
  handlers: OperationHandler[],
  raw: Record<string, unknown>,
  inputHint?: string,
): { params: Record<string, unknown> } | { errors: string[] } {
  const cleaned = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== null && v !== ""));
  const common = commonParams.safeParse(pick(cleaned, (k) => COMMON_KEYS.has(k)));
  if (!common.success) return { errors: zodMessages("parameters", common.error) };
  const { input_format, output_format, engine } = common.data;
  const operation = handlers[0].operation;
  if (!output_format && handlers.some((h) => h.requiresOutputFormat)) return { errors: ["output_format is required."] };
  const q = { input: routedInputFormat(handlers, input_format, output_format), output: output_format };
  const what = [input_format && `from ${input_format}`, output_format && `to ${output_format}`]
    .filter(Boolean)
    .join(" ");
  const byFormat = handlers.filter((h) => fitsFormats(h.formats, q.input, q.output));
  if (byFormat.length === 0) {
    const reason = output_format
      ? handlers
          .map((h) =>
            h.refusedOutputs && Object.hasOwn(h.refusedOutputs, output_format)
              ? h.refusedOutputs[output_format]
              : undefined,
          )
          .find(Boolean)
      : undefined;
    if (reason) return { errors: [`output_format: ${reason}`] };
    return {
      errors: [
        `${operation} ${what} is not supported by this server (see GET /v2/operations?filter[operation]=${operation}).`,
      ],
    };
  }
  let fit = [...new Set(candidatesOf(byFormat, { ...q, pin: engine }).map((c) => c.handler))];
  if (engine && fit.length === 0) {
    const here = [...new Set(candidatesOf(byFormat, q).map((c) => c.engine.name))].join(", ");
    const known = ENGINES.some((e) => answersTo(e, engine));
    return {
      errors: [
        `engine: ${engine} ${known ? "cannot run" : "is not an engine of this server for"} ${operation}${what ? ` ${what}` : ""}; engines here that do: ${here || "none"} (or leave engine out).`,
      ],
    };
  }
  // without input_format, the format the input will probably have picks the handler first
  const hint = routedInputFormat(handlers, inputHint, output_format);
  const hinted = !input_format && hint ? fit.filter((h) => fitsFormats(h.formats, hint, output_format)) : fit;
  if (!input_format && inputHint && hinted.length === 0) {
    const anyFits = fit.some((h) => {
      const j = judge(h, cleaned);
      return "params" in j && j.ignored.length === 0;
    });
    if (!anyFits)
      return {
        errors: [
          `${operation} from ${inputHint} (the format of its input)${output_format ? ` to ${output_format}` : ""} is not supported by this server (see GET /v2/operations?filter[operation]=${operation}).`,
        ],
      };
  } else {
    fit = hinted;
  }
  // the handlers that declare the most of the submitted keys judge them (table order among equals)
  const counts = new Map(fit.map((h) => [h, knownCount(h, cleaned)]));
  const most = Math.max(...counts.values());
  let firstErrors: string[] | null = null;
  for (const h of fit.filter((x) => counts.get(x) === most)) {
    const judged = judge(h, cleaned);
    if ("params" in judged)
      return {
        params: {
          ...common.data,
          ...judged.params,
          ...(judged.ignored.length ? { [IGNORED_KEY]: judged.ignored } : {}),
        },
      };
    firstErrors ??= judged.errors;
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

/** The operation table as the job graph's parser asks of it (graph/parse.ts TaskCatalog): handlers by operation, parameters checked here. */
export const TASK_CATALOG = { handlersOf, validateParams: validateTaskParams };
