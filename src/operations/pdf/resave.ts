/**
 * convert pdf → pdf (issue 31, "Smaller differences": the PHP SDK's README job converts an
 * uploaded PDF to pdf; CloudConvert lists the pair): a re-save of each input through the PDF
 * engine that does page work (extract of `pages`, all pages when absent: the document info,
 * outlines, links and form fields of the pages kept stay, `result.dropped` counts what did not),
 * then, with `pdf_a`, the pdf/a step (PDF/A-2b, Ghostscript in the native engine) on the result.
 * `password` opens an encrypted input; the output is not encrypted. Over pdf-lib's budget the routed native qpdf
 * re-saves (issue 49), the input streamed to it and the result streamed back; `pdf_a` then hands that result on to
 * Ghostscript as it came (a stream when large), within Ghostscript's byte budget (OVER_BUDGET past it).
 */
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import { addDropped, type DroppedStructure, type PdfData } from "../../engines/kinds/pdf";
import { useEngine } from "../../engines/use";
import { engineCall, heldBytes, outputName, readInputOrStream, throwIfAborted } from "../kit";
import type { OperationHandler, OutputFile } from "../types";
import {
  boolParam,
  checkPagesParam,
  droppedExtra,
  pagesParam,
  passwordParam,
  pdfFile,
  PDF_TO_PDF,
  requirePdfInputs,
} from "./common";

const params = z.object({
  pages: pagesParam,
  pdf_a: boolParam.describe("Write PDF/A-2b (as pdf/a with conformance_level 2b)"),
  password: passwordParam,
});

export const pdfResave: OperationHandler<z.infer<typeof params>> = {
  operation: "convert",
  ...PDF_TO_PDF,
  params,
  requiresOutputFormat: true,
  check: checkPagesParam,
  async run(inputs, p, ctx) {
    requirePdfInputs(inputs, "convert", p.input_format);
    // the routed engine re-saves (pdf-lib, or over its budget the native qpdf); the pdf/a step finds its own
    const steps = { ...ctx, route: undefined };
    const pagesEngine = useEngine(ctx, "pdf", "convert", { input: "pdf", output: "pdf" });
    const files: OutputFile[] = [];
    const dropped: DroppedStructure = {};
    let ran = { name: pagesEngine.row.name, version: pagesEngine.row.version };
    for (const [i, file] of inputs.entries()) {
      throwIfAborted(ctx.signal);
      const data = await readInputOrStream(file, ctx, pagesEngine.row);
      const saved = await engineCall(
        pagesEngine.engine.extract?.({
          input: { data, filename: file.filename, password: p.password },
          pages: p.pages ?? "1-",
        }),
        "",
        pagesEngine.row.name,
      );
      addDropped(dropped, saved.dropped);
      let out: PdfData = saved.data;
      ran = { name: pagesEngine.row.name, version: saved.engineVersion };
      if (p.pdf_a) {
        throwIfAborted(ctx.signal);
        const a = useEngine(steps, "pdf", "pdf/a");
        const size = out instanceof Uint8Array ? out.byteLength : out.length;
        if (!(out instanceof Uint8Array) && size > a.row.budget.maxBytes) {
          await out.stream.cancel().catch(() => {});
          throw new TaskError(
            "OVER_BUDGET",
            `${file.filename} re-saved is ${size} bytes; the ${a.row.name} engine writes PDF/A of files up to ${a.row.budget.maxBytes} bytes.`,
          );
        }
        // a row that takes streams (the native Ghostscript, issue 49) gets the re-saved file as it came back
        if (a.row.budget.streamOver === undefined) out = await heldBytes(out);
        const r = await engineCall(
          a.engine.pdfa?.({ input: { data: out, filename: file.filename }, conformance: "2b" }),
          "",
          a.row.name,
        );
        out = r.data;
        ran = { name: a.row.name, version: r.engineVersion };
      }
      files.push(
        pdfFile(
          outputName({ filename: p.filename, input: file.filename, ext: "pdf", index: i + 1, numbered: false }),
          out,
        ),
      );
    }
    return { files, ...droppedExtra(dropped), engine: ran };
  },
};
