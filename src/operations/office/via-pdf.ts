/**
 * Office documents in the PDF operations (issue 12: "merge, thumbnail and watermark of office inputs
 * work by converting to PDF first"): a document is converted by the office engine (LibreOffice in
 * the native engine) and the PDF operation runs on the result, as if a convert task had come first.
 */
import { TaskError } from "../../engines/errors";
import { OFFICE_INPUTS } from "../../engines/registry";
import { useEngine } from "../../engines/use";
import { extensionOf } from "../io/filenames";
import { baseName, engineCall, readInput } from "../kit";
import type { InputFile, OperationContext, OperationHandler } from "../types";

const OFFICE: ReadonlySet<string> = new Set(OFFICE_INPUTS);

/** True when `filename` (or the task's `input_format`) is an office format LibreOffice reads. */
export function isOfficeFile(filename: string, inputFormat?: string): boolean {
  return OFFICE.has((inputFormat ?? extensionOf(filename)).toLowerCase());
}

/**
 * The PDF of one office document, by the office engine of this host.
 * @throws TaskError ENGINE_UNAVAILABLE (no office engine here) | the engine's code (OPEN_FAILED, INVALID_PASSWORD, …)
 */
export async function officePdf(ctx: OperationContext, file: InputFile, password?: string): Promise<Uint8Array> {
  const { engine, row } = useEngine(ctx, "office", "convert");
  const data = await readInput(file, ctx, row);
  const r = await engineCall(
    engine.convert({ input: { data, filename: file.filename, password }, format: "pdf" }),
    file.filename,
    row.name,
  );
  return r.data;
}

/** `file` as a PDF input: same task and base name, `.pdf`, converted (opened with `password`) when first read. */
export function asPdfInput(ctx: OperationContext, file: InputFile, password?: string): InputFile {
  let pdf: Promise<Uint8Array> | undefined;
  return {
    ...file,
    filename: `${baseName(file.filename)}.pdf`,
    bytes: () => (pdf ??= officePdf(ctx, file, password)),
  };
}

/**
 * A handler of kind office that converts its inputs to PDF and runs the PDF handler `pdf` on them
 * (thumbnail, watermark of a DOCX…); the engines the PDF step needs are found by kind (use.ts).
 * `formats` are the office inputs × the PDF handler's outputs.
 */
export function viaPdf<P>(pdf: OperationHandler<P>): OperationHandler<P> {
  const outputs = [...new Set(pdf.formats.map((f) => f.output))];
  return {
    ...pdf,
    kind: "office",
    formats: OFFICE_INPUTS.flatMap((input) => outputs.map((output) => ({ input, output }))),
    async run(inputs, p, ctx) {
      for (const f of inputs) {
        if (!isOfficeFile(f.filename, p.input_format))
          throw new TaskError(
            "INVALID_CONVERSION_TYPE",
            `${pdf.operation} of office documents: ${f.filename} is not one.`,
          );
      }
      // the password opens the office document; the PDF made of it is not encrypted (issue 32: it was dropped here)
      const { input_format: _office, password, ...rest } = p as P & { input_format?: string; password?: string };
      const { engine: pdfEngine, ...out } = await pdf.run(
        inputs.map((f) => asPdfInput(ctx, f, password)),
        rest as typeof p,
        { ...ctx, route: undefined },
      );
      // the task reports the office engine routing chose; the engine of the PDF step is in the result
      return { ...out, extra: { ...out.extra, ...(pdfEngine ? { pdf_engine: pdfEngine.name } : {}) } };
    },
  };
}
