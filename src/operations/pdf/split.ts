/**
 * pdf/split-pages: one PDF per page, named `<name>-1.pdf`, `<name>-2.pdf` … (or the `filename`
 * parameter with `%d` replaced by the page number). Document info (Title, Author, Producer …) is
 * copied into every part, with the outlines, links, form fields and named destinations of its page;
 * the result's `dropped` counts what the parts could not keep (embedded files are not copied into parts).
 */
import { z } from "zod";
import { useEngine } from "../../engines/use";
import { engineCall, outputName, readInputOrStream, throwIfAborted } from "../kit";
import type { OperationHandler, OutputFile } from "../types";
import { addDropped, type DroppedStructure } from "../../engines/kinds/pdf";
import { droppedExtra, passwordParam, pdfFile, requirePdfInputs, PDF_TO_PDF } from "./common";

/** `password` opens an encrypted input (the parts are written unencrypted). */
const params = z.object({ password: passwordParam });

export const splitPages: OperationHandler<z.infer<typeof params>> = {
  operation: "pdf/split-pages",
  ...PDF_TO_PDF,
  params,
  async run(inputs, p, ctx) {
    requirePdfInputs(inputs, "pdf/split-pages", p.input_format);
    const { engine, row } = useEngine(ctx, "pdf", "pdf/split-pages");
    const files: OutputFile[] = [];
    const dropped: DroppedStructure = {};
    let version = row.version;
    for (const file of inputs) {
      throwIfAborted(ctx.signal);
      // the native qpdf takes a large input as a stream and answers its parts as streams (issue 49)
      const input = { data: await readInputOrStream(file, ctx, row), filename: file.filename, password: p.password };
      const r = await engineCall(engine.split?.({ input }), "", row.name);
      version = r.engineVersion;
      addDropped(dropped, r.dropped);
      r.parts.forEach((data, i) =>
        files.push(
          pdfFile(
            outputName({ filename: p.filename, input: file.filename, ext: "pdf", index: i + 1, numbered: true }),
            data,
          ),
        ),
      );
    }
    return { files, ...droppedExtra(dropped), engine: { name: row.name, version } };
  },
};
