/**
 * Helpers shared by the PDF operations: reading an input as a PDF under budget, naming outputs,
 * cancellation, and the small zod pieces their parameter schemas share.
 */
import type { PDFDocument } from "@cantoo/pdf-lib";
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import { checkBytes, openPdf, PDFLIB_ENGINE, type PdfBudget } from "../../engines/pdflib";
import { extensionOf } from "../io/filenames";
import type { InputFile, OperationContext, OperationHandler, OutputFile } from "../types";
import { checkPages } from "./pages";

/** `pages` parameter: a page list (pages.ts); length-capped so parsing stays cheap. */
export const pagesParam = z
  .string()
  .max(1000)
  .optional()
  .describe('1-based pages and ranges, e.g. "1,3,5-7"; "5-" = page 5 to the last page; absent = all pages');

/** Booleans as SDKs send them: true/false, or the strings "true"/"false"/"1"/"0" (form posts). */
export const boolParam = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
  .transform((v) => v === true || v === "true" || v === "1")
  .optional();

/** creation-time check of `pages` for handlers' `check()`. */
export function checkPagesParam(params: { pages?: string }): string[] {
  return checkPages(params.pages);
}

/** Throws the cancellation error when the task's signal is aborted (between pages and files). */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new TaskError("CANCELLED", "The task was cancelled.");
}

/**
 * Reads input `file` and opens it as a PDF: the byte budget is checked on `file.size` before the
 * bytes are read; the page budget right after parsing.
 * @throws TaskError OVER_BUDGET | OPEN_FAILED | INVALID_PASSWORD | FILE_NOT_FOUND
 */
export async function readPdf(file: InputFile, ctx: OperationContext, password?: string, budget?: PdfBudget): Promise<PDFDocument> {
  checkBytes(file.size, file.filename, budget);
  const bytes = await file.bytes();
  throwIfAborted(ctx.signal);
  return openPdf(bytes, { filename: file.filename, password, budget });
}

/** File name without its extension ("report.final.pdf" → "report.final"). */
export function baseName(filename: string): string {
  const ext = extensionOf(filename);
  return ext ? filename.slice(0, filename.length - ext.length - 1) : filename;
}

/**
 * Name of output `index` (1-based) of a multi-output task: the `filename` parameter with `%d`
 * replaced by `index` (printf-style, contract §6 "filename"), else `<base>-<index>.<ext>`.
 */
export function numberedName(filename: string | undefined, input: string, index: number, ext: string): string {
  if (filename && /%0?\d*d/.test(filename)) return filename.replace(/%(0?)(\d*)d/, (_, z, w) => String(index).padStart(Number(w || 0), z ? "0" : " "));
  const base = filename ? baseName(filename) : baseName(input);
  return `${base}-${index}.${ext}`;
}

/**
 * Name of the single output made from one input: `filename` when given (the first output; later
 * ones get "-2", "-3" before the extension), else the input's base name with `ext`.
 */
export function singleName(filename: string | undefined, input: string, ext: string, ordinal = 1): string {
  const name = filename ?? `${baseName(input)}.${ext}`;
  if (ordinal === 1 || !filename) return name;
  return `${baseName(name)}-${ordinal}.${extensionOf(name) || ext}`;
}

/** An OutputFile for PDF bytes. */
export function pdfFile(filename: string, data: Uint8Array): OutputFile {
  return { filename, data, contentType: "application/pdf" };
}

/**
 * Throws INVALID_CONVERSION_TYPE unless every input is a PDF by `input_format` or extension; files
 * without an extension pass here and are judged by their header when opened.
 */
export function requirePdfInputs(inputs: InputFile[], operation: string, inputFormat?: string): void {
  if (inputs.length === 0) throw new TaskError("INVALID_CONVERSION_TYPE", `${operation} needs at least one input file.`);
  for (const f of inputs) {
    const fmt = inputFormat ?? extensionOf(f.filename);
    if (fmt && fmt !== "pdf") {
      throw new TaskError("INVALID_CONVERSION_TYPE", `${operation} takes PDF files; ${f.filename} is ${fmt}. Convert it to PDF first.`);
    }
  }
}

/** The descriptor fields every pdf-lib page operation shares: PDF in, PDF out, 1 credit (contract §7). */
export const PDF_TO_PDF: Pick<OperationHandler, "engine" | "engineVersion" | "formats" | "credits" | "takesInput"> = {
  engine: PDFLIB_ENGINE.name,
  engineVersion: PDFLIB_ENGINE.version,
  formats: [{ input: "pdf", output: "pdf" }],
  credits: 1,
  takesInput: true,
};
