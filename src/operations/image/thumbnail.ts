/**
 * thumbnail for images (contract §6): png | jpg | webp, width, height, fit (max default: inside
 * the box, never enlarged; crop; scale), count (thumbnails of the first frames of an animation or
 * multi-page TIFF, named `<base>-1.png`, `-2`, … or by `filename` with `%d`).
 */
import type { z } from "zod";
import { READABLE_FORMATS } from "../../engines/imagemagick/formats";
import type { ImageFormat } from "../../engines/imagemagick/types";
import { IMAGEMAGICK_ENGINE } from "../../engines/imagemagick/version";
import type { FormatPair, OperationHandler, OutputFile } from "../types";
import { engineOf, imageEngine, imageFile, inputFormatOf, outputName, readImage, unwrapImageResult } from "./common";
import { thumbnailParams } from "./schemas";

/** Thumbnail outputs (contract §6). */
export const THUMBNAIL_OUTPUTS: ImageFormat[] = ["png", "jpg", "webp"];

export const THUMBNAIL_PAIRS: FormatPair[] = READABLE_FORMATS.flatMap((input) => THUMBNAIL_OUTPUTS.map((output) => ({ input, output })));

export const imageThumbnail: OperationHandler<z.infer<typeof thumbnailParams>> = {
  operation: "thumbnail",
  engine: IMAGEMAGICK_ENGINE.name,
  engineVersion: IMAGEMAGICK_ENGINE.version,
  formats: THUMBNAIL_PAIRS,
  params: thumbnailParams,
  credits: 1,
  takesInput: true,
  requiresOutputFormat: true,
  async run(inputs, p, ctx) {
    const engine = imageEngine(ctx);
    const outputFormat = p.output_format as ImageFormat;
    const files: OutputFile[] = [];
    let last;
    for (const input of inputs) {
      const inputFormat = inputFormatOf(input, p.input_format, "thumbnail");
      const bytes = await readImage(input, ctx);
      last = unwrapImageResult(await engine.run({
        op: "thumbnail", input: bytes, inputFormat, outputFormat,
        options: { width: p.width, height: p.height, fit: p.fit, count: p.count },
      }), input.filename);
      const numbered = (p.count ?? 1) > 1;
      last.outputs.forEach((out, i) => {
        const index = p.filename ? files.length + 1 : i + 1; // `filename` names every output of the task
        files.push(imageFile(outputName(p.filename, input.filename, outputFormat, index, numbered), out));
      });
    }
    return { files, engine: last && engineOf(last) };
  },
};
