/**
 * The operation registry: the one explicit table where operations plug in (issue 2; DESIGN.md
 * principle 1 — never by import side effect), and the routing of a task to its candidates: the
 * handlers whose formats fit, each paired with the engines of its kind that can run it, in the
 * engine table's order (engines/routing.ts). Overlaps between handlers (an image and a PDF
 * watermark, say) are ordered by the engine table, not by the position of handlers here.
 */
import { TaskError } from "../engines/errors";
import { canonicalFormat } from "../engines/kinds/image";
import type { EngineRow } from "../engines/registry";
import { enginesFor, fallbackOnly, type EngineOrder } from "../engines/routing";
import { ENGINES } from "../engines/registry";
import { extensionOf } from "./io/filenames";
import { importBase64, importRaw } from "./io/import-inline";
import { importUrl } from "./io/import-url";
import { exportUrl, importUpload } from "./io/upload-export";
import { ARCHIVE_HANDLERS } from "./archive";
import { IMAGE_HANDLERS } from "./image";
import { COMMAND_HANDLERS } from "./command";
import { CAD_HANDLERS } from "./cad";
import { EBOOK_HANDLERS } from "./ebook";
import { FONT_HANDLERS } from "./font";
import { MEDIA_HANDLERS } from "./media";
import { METADATA_HANDLERS } from "./metadata";
import { OFFICE_HANDLERS } from "./office";
import { PDF_HANDLERS } from "./pdf";
import { VECTOR_HANDLERS } from "./vector";
import { WEB_HANDLERS } from "./web";
import { TASK_NAME } from "./web/schemas";
import { STORAGE_ALIASES, STORAGE_HANDLERS } from "./storage";
import type { FormatPair, OperationHandler } from "./types";

/** Every handler this server runs. */
export const HANDLERS: OperationHandler[] = [
  // import and export (issue 2)
  importUrl,
  importRaw,
  importBase64,
  importUpload,
  exportUrl,
  // storage imports and exports: S3, Azure Blob, Google Cloud Storage, OpenStack, SFTP (issue 35; src/stores/)
  ...STORAGE_HANDLERS,
  // images (issue 3)
  ...IMAGE_HANDLERS,
  // metadata and metadata/write (issue 5)
  ...METADATA_HANDLERS,
  // PDF toolkit: page operations and rasterizing (issue 4)
  ...PDF_HANDLERS,
  // office documents and command lines, in the native engine (issue 12)
  ...OFFICE_HANDLERS,
  ...COMMAND_HANDLERS,
  // vector drawings, in the native engine's Inkscape (issue 33)
  ...VECTOR_HANDLERS,
  // audio and video (issue 13)
  ...MEDIA_HANDLERS,
  // web pages: capture-website, html/md → pdf/images (issue 14)
  ...WEB_HANDLERS,
  // archive, and convert from an archive (issue 15)
  ...ARCHIVE_HANDLERS,
  // fonts, ebooks and CAD drawings, in the native engine (issue 33)
  ...FONT_HANDLERS,
  ...EBOOK_HANDLERS,
  ...CAD_HANDLERS,
];

const byOperation = new Map<string, OperationHandler[]>();
for (const h of HANDLERS) {
  const list = byOperation.get(h.operation) ?? [];
  list.push(h);
  byOperation.set(h.operation, list);
}

/** Handlers of one operation, or undefined when the operation is unknown. */
export function handlersOf(operation: string): OperationHandler[] | undefined {
  return byOperation.get(STORAGE_ALIASES[operation] ?? operation);
}

/** Whether a task of `operation` with `params` runs inside its JobDO without a queue hop (OperationHandler.inline). */
export function runsInline(operation: string, params: Record<string, unknown>): boolean {
  const hs = handlersOf(operation);
  return !!hs?.length && hs.every((h) => h.inline?.(params as never) === true);
}

/** Parameter names of `operation` whose values name other tasks (union over its handlers). */
export function taskRefKeys(operation: string): string[] {
  return [...new Set((handlersOf(operation) ?? []).flatMap((h) => h.taskRefs ?? []))];
}

/**
 * Task names referenced by the parameters of a task of `operation` (watermark `image`, …): only values that are task
 * names (a header_template may hold the HTML itself, web/schemas.ts).
 */
export function taskRefsOf(operation: string, params: Record<string, unknown>): string[] {
  return taskRefKeys(operation)
    .map((k) => params[k])
    .filter((v): v is string => typeof v === "string" && TASK_NAME.test(v));
}

/** Parameter names of `operation` that hold credentials (union of its handlers' `secretParams`): masked in payloads, dropped when the task ends. */
export function secretKeysOf(operation: string): string[] {
  return [...new Set((handlersOf(operation) ?? []).flatMap((h) => h.secretParams ?? []))];
}

/**
 * `params` without the credentials of `operation` (issue 35: secrets "are not kept after the task ends"), or null when
 * it holds none. The task's stored row keeps the rest, so its payload and result still read as before.
 */
export function withoutSecrets(operation: string, params: Record<string, unknown>): Record<string, unknown> | null {
  const keys = secretKeysOf(operation).filter((k) => params[k] !== undefined && params[k] !== null);
  if (!keys.length) return null;
  const out = { ...params };
  for (const k of keys) delete out[k];
  return out;
}

/** One way to run a task: a handler and an engine of its kind. */
export interface Candidate {
  handler: OperationHandler;
  engine: EngineRow;
}

/** True when some pair of `formats` takes `input` to `output` (either may be unknown yet). */
export function fitsFormats(formats: readonly FormatPair[], input?: string, output?: string): boolean {
  return formats.some(
    (f) => (!input || f.input === "*" || f.input === input) && (!output || f.output === "*" || f.output === output),
  );
}

/**
 * The input format a task routes as: `input` itself when a handler offers it (with `output`), else its canonical image
 * format when that is another name of one (jpeg, jfif → jpg; tif → tiff: engines/kinds/image.ts) and a handler offers
 * that, else `input` unchanged. CloudConvert lists those names as inputs of their own, so `photo.jpeg` converts as jpg.
 */
export function routedInputFormat(handlers: readonly OperationHandler[], input?: string, output?: string) {
  if (!input || handlers.some((h) => fitsFormats(h.formats, input, output))) return input;
  const canonical = canonicalFormat(input);
  return canonical && handlers.some((h) => fitsFormats(h.formats, canonical, output)) ? canonical : input;
}

/** What a task asks for: formats (lower-case), the `engine` pin and the deployment's order. */
export interface CandidateQuery {
  input?: string;
  output?: string;
  pin?: string;
  order?: EngineOrder;
}

/**
 * Every (handler, engine) that can run `operation` for `q`, in routing order: with a pin, the engine of that name before
 * those standing in for it; the candidates of handlers marked `fallback` (types.ts) and of rows offering the pair only in
 * their `fallbackFormats` (routing.ts fallbackOnly) after all others — whatever the engine table or ENGINE_ORDER say,
 * since a fallback keeps less of the document (issue 47: Chrome printing a workbook's HTML after LibreOffice, the table
 * having chrome before the native rows; pandoc's epub after calibre's) —, then within each group the configured order
 * for the operation first, then the engine table's order.
 */
export function candidatesOf(handlers: OperationHandler[], q: CandidateQuery): Candidate[] {
  const out: Candidate[] = [];
  for (const handler of handlers) {
    if (!fitsFormats(handler.formats, q.input, q.output)) continue;
    for (const engine of enginesFor({ kind: handler.kind, operation: handler.operation, ...q }))
      if (!handler.placement || engine.placement === handler.placement) out.push({ handler, engine });
  }
  const preferred = q.order?.[handlers[0]?.operation ?? ""] ?? [];
  // a pin keeps the engine of that name before those standing in for it (routing.ts enginesFor: pin "pandoc" is Debian's
  // pandoc, then pandoc in WebAssembly); a row offering the pair only as a fallback (routing.ts fallbackOnly) comes
  // after every other candidate
  const pin = q.pin?.toLowerCase();
  const n = ENGINES.length;
  const rank = (c: Candidate) => {
    const p = preferred.indexOf(c.engine.name);
    const named = pin && c.engine.name !== pin ? 1 : 0;
    const last = c.handler.fallback || fallbackOnly(c.engine, q.input, q.output) ? 1 : 0;
    return (
      ((named * 2 + last) * (preferred.length + 1) + (p === -1 ? preferred.length : p)) * n +
      ENGINES.findIndex((e) => e.name === c.engine.name)
    );
  };
  return out
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i)
    .map(({ c }) => c);
}

/**
 * The candidates for a task about to run. `inputName` is the first input file's name, whose
 * extension stands for input_format when the task does not give one (service-spec).
 * @throws TaskError UNSUPPORTED (unknown operation) | INVALID_CONVERSION_TYPE (no handler for the formats, contract §2.4)
 *   | ENGINE_UNAVAILABLE (the pinned engine cannot run it)
 */
export function route(
  operation: string,
  params: Record<string, unknown>,
  inputName?: string,
  order?: EngineOrder,
): Candidate[] {
  const handlers = handlersOf(operation);
  if (!handlers) throw new TaskError("UNSUPPORTED", `Operation ${operation} is not supported by this server.`);
  const input =
    (params.input_format as string | undefined) ?? (inputName ? extensionOf(inputName) || undefined : undefined);
  const output = params.output_format as string | undefined;
  const pin = params.engine as string | undefined;
  const found = candidatesOf(handlers, { input: routedInputFormat(handlers, input, output), output, pin, order });
  if (found.length) return found;
  const what = `${operation} from ${input ?? "unknown format"}${output ? ` to ${output}` : ""}`;
  if (pin && candidatesOf(handlers, { input, output, order }).length) {
    throw new TaskError("ENGINE_UNAVAILABLE", `The engine ${pin} cannot run ${what} here.`);
  }
  throw new TaskError("INVALID_CONVERSION_TYPE", `This conversion type is not supported: ${what}.`);
}
