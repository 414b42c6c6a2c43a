/**
 * convert (image → image) with ImageMagick: every pair the WASM build verifiably reads and writes
 * (engines/imagemagick/formats.ts; test/unit/image-formats.test.ts checks each with Debian's
 * `identify`), plus svg → png|jpg rendered by ImageMagick's internal SVG renderer.
 */
import type { z } from "zod";
import { READABLE_FORMATS, SVG_OUTPUTS, WRITABLE_FORMATS } from "../../engines/imagemagick/formats";
import type { ImageFormat } from "../../engines/imagemagick/types";
import { IMAGEMAGICK_ENGINE } from "../../engines/imagemagick/version";
import type { FormatPair, OperationHandler, OutputFile } from "../types";
import { engineOf, imageEngine, imageFile, inputFormatOf, outputName, readImage, unwrapImageResult } from "./common";
import { convertParams } from "./schemas";

/** Every (input, output) pair convert offers. */
export const CONVERT_PAIRS: FormatPair[] = READABLE_FORMATS.flatMap((input) =>
  (input === "svg" ? SVG_OUTPUTS : WRITABLE_FORMATS).map((output) => ({ input, output })),
);

export const imageConvert: OperationHandler<z.infer<typeof convertParams>> = {
  operation: "convert",
  engine: IMAGEMAGICK_ENGINE.name,
  engineVersion: IMAGEMAGICK_ENGINE.version,
  formats: CONVERT_PAIRS,
  params: convertParams,
  credits: 1,
  takesInput: true,
  requiresOutputFormat: true,
  async run(inputs, p, ctx) {
    const engine = imageEngine(ctx);
    const outputFormat = p.output_format as ImageFormat;
    const { width, height, fit, strip, quality, auto_orient, pixel_density } = p;
    const files: OutputFile[] = [];
    let last;
    for (const [i, input] of inputs.entries()) {
      const inputFormat = inputFormatOf(input, p.input_format, "convert");
      const bytes = await readImage(input, ctx);
      last = unwrapImageResult(await engine.run({
        op: "convert", input: bytes, inputFormat, outputFormat,
        options: { width, height, fit, strip, quality, auto_orient, pixel_density },
      }), input.filename);
      files.push(imageFile(outputName(p.filename, input.filename, outputFormat, i + 1, false), last.outputs[0]));
    }
    return { files, engine: last && engineOf(last) };
  },
};
