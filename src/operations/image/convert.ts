/**
 * convert (image → image) with the image engine: every pair the WASM build verifiably reads and
 * writes (engines/imagemagick/formats.ts; test/unit/image-formats.test.ts checks each with Debian's
 * `identify`), plus svg → png|jpg rendered by ImageMagick's internal SVG renderer.
 */
import type { z } from "zod";
import { READABLE_FORMATS, SVG_OUTPUTS, WRITABLE_FORMATS } from "../../engines/imagemagick/formats";
import type { ImageFormat } from "../../engines/imagemagick/types";
import { useEngine } from "../../engines/use";
import { engineCall, outputName, readInput } from "../kit";
import type { FormatPair, OperationHandler, OutputFile } from "../types";
import { imageFile, inputFormatOf } from "./common";
import { convertParams } from "./schemas";

/** Every (input, output) pair convert offers. */
export const CONVERT_PAIRS: FormatPair[] = READABLE_FORMATS.flatMap((input) =>
  (input === "svg" ? SVG_OUTPUTS : WRITABLE_FORMATS).map((output) => ({ input, output })),
);

export const imageConvert: OperationHandler<z.infer<typeof convertParams>> = {
  operation: "convert",
  kind: "image",
  formats: CONVERT_PAIRS,
  params: convertParams,
  credits: 1,
  takesInput: true,
  requiresOutputFormat: true,
  async run(inputs, p, ctx) {
    const { engine, row } = useEngine(ctx, "image", "convert");
    const outputFormat = p.output_format as ImageFormat;
    const { width, height, fit, strip, quality, auto_orient, pixel_density } = p;
    const files: OutputFile[] = [];
    let version = row.version;
    for (const [i, input] of inputs.entries()) {
      const inputFormat = inputFormatOf(input, p.input_format, "convert");
      const r = await engineCall(engine.run({
        op: "convert", input: await readInput(input, ctx, row), inputFormat, outputFormat,
        options: { width, height, fit, strip, quality, auto_orient, pixel_density },
      }), input.filename, row.name);
      version = r.engineVersion;
      files.push(imageFile(outputName({ filename: p.filename, input: input.filename, ext: outputFormat, index: i + 1, numbered: false }), r.outputs[0]));
    }
    return { files, engine: { name: row.name, version } };
  },
};
