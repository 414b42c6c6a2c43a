/**
 * pdf/split-pages: one PDF per page, named `<name>-1.pdf`, `<name>-2.pdf` … (or the `filename`
 * parameter with `%d` replaced by the page number). Document info (Title, Author, Producer …) is
 * copied into every part.
 */
import { z } from "zod";
import { useEngine } from "../../engines/use";
import { engineCall, outputName, readInput, throwIfAborted } from "../kit";
import type { OperationHandler, OutputFile } from "../types";
import { passwordParam, pdfFile, requirePdfInputs, PDF_TO_PDF } from "./common";

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
    let version = row.version;
    for (const file of inputs) {
      throwIfAborted(ctx.signal);
      const input = { data: await readInput(file, ctx, row), filename: file.filename, password: p.password };
      const r = await engineCall(engine.split?.({ input }), "", row.name);
      version = r.engineVersion;
      r.parts.forEach((data, i) => files.push(pdfFile(outputName({ filename: p.filename, input: file.filename, ext: "pdf", index: i + 1, numbered: true }), data)));
    }
    return { files, engine: { name: row.name, version } };
  },
};
