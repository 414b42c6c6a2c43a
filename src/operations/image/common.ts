/**
 * Pieces shared by the image operations: the input's canonical image format, the OutputFile of
 * one engine output, and the loop that runs one engine call per input. Engines, budgets, naming and
 * result unwrapping come from the kit (../kit.ts).
 */
import { TaskError } from "../../engines/errors";
import { MIME, canonicalFormat } from "../../engines/kinds/image";
import type { ImageFormat, ImageRunOutput, ImageRunRequest } from "../../engines/kinds/image";
import type { UsedEngine } from "../../engines/use";
import { engineCall, formatOf, outputName, readInput, readInputOrStream } from "../kit";
import type { InputFile, OperationContext, OperationOutput, OutputFile } from "../types";

/** Canonical format of an input from `input_format` or its extension. @throws TaskError INVALID_CONVERSION_TYPE */
export function inputFormatOf(file: InputFile, inputFormat: string | undefined, operation: string): ImageFormat {
  const named = formatOf(file, inputFormat);
  const format = canonicalFormat(named);
  if (!format) {
    throw new TaskError(
      "INVALID_CONVERSION_TYPE",
      `${operation} cannot read ${named ? `${named} files` : `${file.filename} (no extension; set input_format)`}.`,
    );
  }
  return format;
}

/** OutputFile of one engine output. */
export function imageFile(filename: string, out: ImageRunOutput): OutputFile {
  return { filename, data: out.data, contentType: MIME[out.format] };
}

/** What one image request asks beside its op, input and input format: the output format and options. */
export type ImageAsk<O extends ImageRunRequest["op"]> = Omit<
  Extract<ImageRunRequest, { op: O }>,
  "op" | "input" | "inputFormat"
>;

/**
 * Runs `op` of the image engine `used` on each input in turn (convert and thumbnail hand a row that takes streams,
 * registry.ts `budget.streamOver`, an input over its threshold as a stream: issue 49): `ask` says what is asked of an input (given its
 * canonical format, read from `p.input_format` or its name), `take` makes the files of an answer (default: its
 * first output, named as the task's `filename` says or after its input; `files` holds those of earlier inputs).
 * The engine's version is what its last call reported.
 */
export async function eachImage<O extends ImageRunRequest["op"]>(
  { engine, row }: UsedEngine<"image">,
  ctx: OperationContext,
  op: O,
  inputs: InputFile[],
  p: { input_format?: string; filename?: string },
  ask: (input: InputFile, inputFormat: ImageFormat) => ImageAsk<O>,
  take?: (outputs: ImageRunOutput[], input: InputFile, files: OutputFile[]) => OutputFile[],
): Promise<OperationOutput> {
  const files: OutputFile[] = [];
  let version = row.version;
  for (const [i, input] of inputs.entries()) {
    const inputFormat = inputFormatOf(input, p.input_format, op);
    const a = ask(input, inputFormat);
    // convert and thumbnail take a large input as a stream where the row does (issue 49: the native ImageMagick)
    const data =
      op === "convert" || op === "thumbnail"
        ? await readInputOrStream(input, ctx, row)
        : await readInput(input, ctx, row);
    const req = { op, input: data, inputFormat, ...a } as Extract<ImageRunRequest, { op: O }>;
    const r = await engineCall(engine.run(req), input.filename, row.name);
    version = r.engineVersion;
    const name = () =>
      outputName({ filename: p.filename, input: input.filename, ext: a.outputFormat, index: i + 1, numbered: false });
    files.push(...(take ? take(r.outputs, input, files) : [imageFile(name(), r.outputs[0])]));
  }
  return { files, engine: { name: row.name, version } };
}
