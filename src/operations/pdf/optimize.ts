/**
 * optimize for PDFs (service-spec "optimize"): `profile` web (default), print, archive, mrc or max,
 * by Ghostscript in the native engine. The result says what was saved: `original_size` and
 * `bytes_saved` (summed over the inputs, bytes, as for images) and `unchanged`, the inputs returned
 * as they were because the optimized file would not have been smaller — a "compressed" PDF never
 * grows (issue 12). Inputs over the native row's stream threshold travel to Ghostscript as streams and come back as
 * one (issue 49).
 */
import { z } from "zod";
import { useEngine } from "../../engines/use";
import { engineCall, outputName, readInputOrStream, throwIfAborted } from "../kit";
import type { OperationHandler, OutputFile } from "../types";
import { boolParam, passwordParam, pdfFile, PDF_TO_PDF, requirePdfInputs } from "./common";

const params = z.object({
  profile: z
    .enum(["web", "print", "archive", "mrc", "max"])
    .default("web")
    .describe(
      "web: screen-sized images, RGB; print: 300 dpi, CMYK; archive: recompressed, not downsampled; mrc: scans; max: smallest",
    ),
  password: passwordParam,
  flatten_signatures: boolParam.describe(
    "Draw signatures (and the other annotations) into the pages first, so they still show after the rewrite that invalidates them",
  ),
});

export const pdfOptimize: OperationHandler<z.infer<typeof params>> = {
  operation: "optimize",
  ...PDF_TO_PDF,
  params,
  async run(inputs, p, ctx) {
    requirePdfInputs(inputs, "optimize", p.input_format);
    const { engine, row } = useEngine(ctx, "pdf", "optimize");
    const files: OutputFile[] = [];
    const unchanged: string[] = [];
    let original = 0,
      saved = 0,
      version = row.version;
    for (const [i, file] of inputs.entries()) {
      throwIfAborted(ctx.signal);
      // issue 49: over the row's stream threshold the input reaches Ghostscript as a stream and its output comes back as one
      const input = { data: await readInputOrStream(file, ctx, row), filename: file.filename, password: p.password };
      const r = await engineCall(
        engine.optimize?.({ input, profile: p.profile, ...(p.flatten_signatures ? { flattenSignatures: true } : {}) }),
        file.filename,
        row.name,
      );
      version = r.engineVersion;
      original += r.sizeBefore;
      saved += r.sizeBefore - r.sizeAfter;
      if (r.unchanged) unchanged.push(file.filename);
      files.push(
        pdfFile(
          outputName({ filename: p.filename, input: file.filename, ext: "pdf", index: i + 1, numbered: false }),
          r.data,
        ),
      );
    }
    const extra = {
      profile: p.profile,
      original_size: original,
      bytes_saved: saved,
      unchanged,
      ...(unchanged.length
        ? { note: `Returned unchanged (optimizing would not make them smaller): ${unchanged.join(", ")}.` }
        : {}),
    };
    return { files, extra, engine: { name: row.name, version } };
  },
};
