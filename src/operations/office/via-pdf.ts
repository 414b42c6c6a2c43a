/**
 * Office documents in the PDF operations (issue 12): a handler of kind office that converts its
 * inputs to PDF (pdf/from-office.ts) and runs a PDF handler on the result, as if a convert task had
 * come first.
 */
import { TaskError } from "../../engines/errors";
import { OFFICE_INPUTS } from "../../engines/registry";
import { asPdfInput, isOfficeFile } from "../pdf/from-office";
import type { OperationHandler } from "../types";

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
