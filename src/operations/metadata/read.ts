/**
 * metadata: ExifTool's properties of the input, as `result.metadata` (service-spec "Task
 * results"): property name → string or number, PageCount an integer, SourceFile/FileName the
 * uploaded name. No output files; 0 credits (contract §7). A file ExifTool cannot make sense of
 * still finishes, with ExifTool's own Error/Warning property, as `exiftool -json` prints it.
 * With several inputs, the first one is read (the result holds one file's properties).
 */
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import { useEngine } from "../../engines/use";
import { engineCall, formatOf, readInput } from "../kit";
import type { OperationHandler } from "../types";
import { METADATA_READ_FORMATS } from "./formats";

/** metadata has no parameters of its own (input_format is common; `filename` is not offered). */
export const metadataParams = z.object({});

export const metadataRead: OperationHandler<z.infer<typeof metadataParams>> = {
  operation: "metadata",
  kind: "metadata",
  formats: METADATA_READ_FORMATS.map((input) => ({ input, output: "*" })),
  params: metadataParams,
  credits: 0,
  takesInput: true,
  async run(inputs, p, ctx) {
    const { engine, row } = useEngine(ctx, "metadata", "metadata");
    const input = inputs[0];
    if (!input) throw new TaskError("INVALID_CONVERSION_TYPE", "metadata needs an input file.");
    const bytes = await readInput(input, ctx, row);
    const r = await engineCall(engine.read({ input: bytes, filename: input.filename, format: formatOf(input, p.input_format) }), input.filename, row.name);
    const metadata = r.metadata;
    // the spec's PageCount is an integer: ExifTool prints it as one; keep it so if a version prints a string
    if (typeof metadata.PageCount === "string" && /^\d+$/.test(metadata.PageCount)) metadata.PageCount = Number(metadata.PageCount);
    return { files: [], extra: { metadata }, engine: { name: row.name, version: r.engineVersion } };
  },
};
