/**
 * Pieces shared by the PDF operations: the zod parameters they have in common, the check that
 * every input is a PDF, the descriptor of a PDF → PDF row, and the loop that runs one PDF engine
 * method per input document.
 */
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import { checkPages } from "../../engines/kinds/pdf-pages";
import {
  addDropped,
  type DroppedStructure,
  type PdfData,
  type PdfEngine,
  type PdfInput,
  type PdfOut,
  type PdfPagesOut,
  type PdfStreamableInput,
} from "../../engines/kinds/pdf";
import type { EngineRow } from "../../engines/registry";
import { useEngine } from "../../engines/use";
import { extensionOf } from "../io/filenames";
import { engineCall, outputName, readInput, readInputOrStream, throwIfAborted } from "../kit";
import type { InputFile, OperationContext, OperationHandler, OperationOutput, OutputFile } from "../types";

/** `pages` parameter: a page list (engines/kinds/pdf-pages.ts); length-capped so parsing stays cheap. */
export const pagesParam = z
  .string()
  .max(1000)
  .optional()
  .describe('1-based pages and ranges, e.g. "1,3,5-7"; "5-" = page 5 to the last page; absent = all pages');

/** `password` of an operation that reads an encrypted PDF (user or owner password). */
export const passwordParam = z.string().max(256).optional().describe("Opens an encrypted input PDF");

/** Booleans as SDKs send them: true/false, or the strings "true"/"false"/"1"/"0" (form posts). */
export const boolParam = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
  .transform((v) => v === true || v === "true" || v === "1")
  .optional();

/** creation-time check of `pages` for handlers' `check()`. */
export function checkPagesParam(params: { pages?: string }): string[] {
  return checkPages(params.pages);
}

/** An OutputFile for PDF bytes. */
export function pdfFile(filename: string, data: PdfData): OutputFile {
  return { filename, data, contentType: "application/pdf" };
}

/**
 * Throws INVALID_CONVERSION_TYPE unless every input is a PDF by `input_format` or extension; files
 * without an extension pass here and are judged by their header when opened.
 */
export function requirePdfInputs(inputs: InputFile[], operation: string, inputFormat?: string): void {
  if (inputs.length === 0)
    throw new TaskError("INVALID_CONVERSION_TYPE", `${operation} needs at least one input file.`);
  for (const f of inputs) {
    const fmt = inputFormat ?? extensionOf(f.filename);
    if (fmt && fmt !== "pdf") {
      throw new TaskError(
        "INVALID_CONVERSION_TYPE",
        `${operation} takes PDF files; ${f.filename} is ${fmt}. Convert it to PDF first.`,
      );
    }
  }
}

/** The descriptor fields every PDF → PDF row shares: PDF engine kind, 1 credit (contract §7). */
export const PDF_TO_PDF: Pick<OperationHandler, "kind" | "formats" | "credits" | "takesInput"> = {
  kind: "pdf",
  formats: [{ input: "pdf", output: "pdf" }],
  credits: 1,
  takesInput: true,
};

/**
 * Runs one PDF engine method per input document (one output each, named like its input) with the
 * routed PDF engine, handing it each input's bytes. `call` returns undefined when the engine lacks the method
 * (UNSUPPORTED, so routing passes the task on).
 */
export function perDocument(
  operation: string,
  inputs: InputFile[],
  p: { filename?: string; input_format?: string },
  ctx: OperationContext,
  call: (engine: PdfEngine, input: PdfInput) => Promise<PdfOut> | undefined,
  password?: string,
): Promise<OperationOutput> {
  return eachDocument(operation, inputs, p, ctx, call, password, async (file, row) => readInput(file, ctx, row));
}

/**
 * {@link perDocument} for the page operations that stream (issue 49: extract, rotate, encrypt, decrypt, watermark): a
 * row that takes streams (the native qpdf, `budget.streamOver`) gets a large input as a stream and may answer a stream;
 * others bytes. `again` reads the same input once more (a stream is read once: the watermark's second call); with
 * `streamAlways(row)` true a row that takes streams gets every input as one, whatever its size (so two reads never hold
 * two copies). The engines' `warnings` (options accepted but not honoured) end in result.warnings.
 */
export function perDocumentStreamed(
  operation: string,
  inputs: InputFile[],
  p: { filename?: string; input_format?: string },
  ctx: OperationContext,
  call: (
    engine: PdfEngine,
    input: PdfStreamableInput,
    again: () => Promise<PdfStreamableInput>,
    row: EngineRow,
  ) => Promise<PdfPagesOut> | undefined,
  password?: string,
  streamAlways?: (row: EngineRow) => boolean,
): Promise<OperationOutput> {
  return eachDocument(operation, inputs, p, ctx, call, password, (file, row) =>
    readInputOrStream(file, ctx, row, "input", streamAlways?.(row) ? Infinity : 0),
  );
}

async function eachDocument<I extends PdfStreamableInput>(
  operation: string,
  inputs: InputFile[],
  p: { filename?: string; input_format?: string },
  ctx: OperationContext,
  call: (
    engine: PdfEngine,
    input: I,
    again: () => Promise<I>,
    row: EngineRow,
  ) => Promise<PdfOut | PdfPagesOut> | undefined,
  password: string | undefined,
  read: (file: InputFile, row: EngineRow) => Promise<I["data"]>,
): Promise<OperationOutput> {
  requirePdfInputs(inputs, operation, p.input_format);
  const { engine, row } = useEngine(ctx, "pdf", operation);
  const files: OutputFile[] = [];
  const dropped: DroppedStructure = {};
  const warnings = new Set<string>();
  let version = row.version;
  for (const [i, file] of inputs.entries()) {
    throwIfAborted(ctx.signal);
    const again = async () => ({ data: await read(file, row), filename: file.filename, password }) as I;
    const r = await engineCall(call(engine, await again(), again, row), "", row.name);
    version = r.engineVersion;
    addDropped(dropped, r.dropped);
    for (const w of ("warnings" in r ? r.warnings : undefined) ?? []) warnings.add(w);
    files.push(
      pdfFile(
        outputName({ filename: p.filename, input: file.filename, ext: "pdf", index: i + 1, numbered: false }),
        r.data,
      ),
    );
  }
  const extra = { ...droppedExtra(dropped).extra, ...(warnings.size ? { warnings: [...warnings] } : {}) };
  return { files, ...(Object.keys(extra).length ? { extra } : {}), engine: { name: row.name, version } };
}

/** The task result's `dropped` (what the outputs could not keep of the inputs' structure), only when something was. */
export function droppedExtra(dropped: DroppedStructure): { extra?: { dropped: DroppedStructure } } {
  return Object.keys(dropped).length > 0 ? { extra: { dropped } } : {};
}
