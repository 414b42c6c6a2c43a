/**
 * The operation registry: the one explicit table where operations plug in (issue 2; DESIGN.md
 * principle 1 — never by import side effect). Routing from (operation, input_format, output_format,
 * engine) to a handler is decided here and only here (principle 2).
 */
import { TaskError } from "../engines/errors";
import { extensionOf } from "./io/filenames";
import { importBase64, importRaw } from "./io/import-inline";
import { importUrl } from "./io/import-url";
import { exportUrl, importUpload } from "./io/upload-export";
import { IMAGE_HANDLERS } from "./image";
import { METADATA_HANDLERS } from "./metadata";
import { PDF_HANDLERS } from "./pdf";
import type { OperationHandler } from "./types";
import { candidates } from "./validate";

/** Every handler this server runs, in routing priority order within an operation. */
export const HANDLERS: OperationHandler<any>[] = [
  // import and export (issue 2)
  importUrl, importRaw, importBase64, importUpload, exportUrl,
  // images with ImageMagick in its own engine Worker (issue 3)
  ...IMAGE_HANDLERS,
  // metadata and metadata/write with ExifTool in its own engine Worker (issue 5)
  ...METADATA_HANDLERS,
  // PDF toolkit: page operations on pdf-lib, rasterizing with PDFium (issue 4)
  ...PDF_HANDLERS,
];

const byOperation = new Map<string, OperationHandler<any>[]>();
for (const h of HANDLERS) {
  const list = byOperation.get(h.operation) ?? [];
  list.push(h);
  byOperation.set(h.operation, list);
}

/** Handlers of one operation, or undefined when the operation is unknown. */
export function handlersOf(operation: string): OperationHandler<any>[] | undefined {
  return byOperation.get(operation);
}

/**
 * Chooses the handler for a task about to run. `inputName` is the first input file's name, whose
 * extension stands for input_format when the task does not give one (service-spec).
 * Throws TaskError INVALID_CONVERSION_TYPE when no handler can run it (contract §2.4).
 */
export function route(operation: string, params: Record<string, unknown>, inputName?: string): OperationHandler<any> {
  const handlers = handlersOf(operation);
  if (!handlers) throw new TaskError("UNSUPPORTED", `Operation ${operation} is not supported by this server.`);
  const input = (params.input_format as string | undefined) ?? (inputName ? extensionOf(inputName) || undefined : undefined);
  const output = params.output_format as string | undefined;
  const fit = candidates(handlers, input, output, params.engine as string | undefined);
  if (fit.length === 0) {
    throw new TaskError("INVALID_CONVERSION_TYPE", `This conversion type is not supported: ${operation} from ${input ?? "unknown format"}${output ? ` to ${output}` : ""}.`);
  }
  return fit[0];
}
