/**
 * optimize for PNG (lossless recompression, metadata stripped) and JPG (progressive re-encode at
 * the profile's quality, metadata stripped, never above the input's own quality), contract §6.
 * `result.bytes_saved` (and `original_size`) report what was saved; an output that would not be
 * smaller is the input itself (bytes_saved 0).
 */
import type { z } from "zod";
import type { ImageFormat } from "../../engines/imagemagick/types";
import { IMAGEMAGICK_ENGINE } from "../../engines/imagemagick/version";
import type { OperationHandler, OutputFile } from "../types";
import { engineOf, imageEngine, imageFile, inputFormatOf, outputName, readImage, unwrapImageResult } from "./common";
import { optimizeParams } from "./schemas";

export const imageOptimize: OperationHandler<z.infer<typeof optimizeParams>> = {
  operation: "optimize",
  engine: IMAGEMAGICK_ENGINE.name,
  engineVersion: IMAGEMAGICK_ENGINE.version,
  formats: [{ input: "png", output: "png" }, { input: "jpg", output: "jpg" }],
  params: optimizeParams,
  credits: 1,
  takesInput: true,
  async run(inputs, p, ctx) {
    const engine = imageEngine(ctx);
    const files: OutputFile[] = [];
    let original = 0, saved = 0, last;
    for (const [i, input] of inputs.entries()) {
      const format: ImageFormat = inputFormatOf(input, p.input_format, "optimize");
      const bytes = await readImage(input, ctx);
      last = unwrapImageResult(await engine.run({
        op: "optimize", input: bytes, inputFormat: format, outputFormat: format,
        options: { profile: p.profile, quality: p.quality },
      }), input.filename);
      const out = last.outputs[0];
      original += bytes.byteLength;
      saved += bytes.byteLength - out.data.byteLength;
      files.push(imageFile(outputName(p.filename, input.filename, format, i + 1, false), out));
    }
    return { files, extra: { bytes_saved: saved, original_size: original }, engine: last && engineOf(last) };
  },
};
