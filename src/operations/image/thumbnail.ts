/**
 * thumbnail for images (contract §6): png | jpg | webp, width, height, fit (max default: inside
 * the box, never enlarged; crop; scale), count (thumbnails of the first frames of an animation or
 * multi-page TIFF, named `<base>-1.png`, `-2`, … or by `filename` with `%d`).
 */
import type { z } from "zod";
import { IMAGE_INPUTS, NATIVE_ONLY_IMAGE_INPUTS } from "../../engines/registry";
import type { ImageFormat } from "../../engines/kinds/image";
import { useEngine } from "../../engines/use";
import { engineCall, outputName, readInput } from "../kit";
import type { FormatPair, OperationHandler, OutputFile } from "../types";
import { imageFile, inputFormatOf } from "./common";
import { thumbnailParams } from "./schemas";

/** Thumbnail outputs (contract §6). */
export const THUMBNAIL_OUTPUTS: ImageFormat[] = ["png", "jpg", "webp"];

export const THUMBNAIL_PAIRS: FormatPair[] = [...IMAGE_INPUTS, ...NATIVE_ONLY_IMAGE_INPUTS].flatMap((input) =>
  THUMBNAIL_OUTPUTS.map((output) => ({ input, output })),
);

export const imageThumbnail: OperationHandler<z.infer<typeof thumbnailParams>> = {
  operation: "thumbnail",
  kind: "image",
  formats: THUMBNAIL_PAIRS,
  params: thumbnailParams,
  credits: 1,
  takesInput: true,
  requiresOutputFormat: true,
  async run(inputs, p, ctx) {
    const { engine, row } = useEngine(ctx, "image", "thumbnail");
    const outputFormat = p.output_format as ImageFormat;
    const files: OutputFile[] = [];
    let version = row.version;
    for (const input of inputs) {
      const inputFormat = inputFormatOf(input, p.input_format, "thumbnail");
      const r = await engineCall(
        engine.run({
          op: "thumbnail",
          input: await readInput(input, ctx, row),
          inputFormat,
          outputFormat,
          options: { width: p.width, height: p.height, fit: p.fit, count: p.count },
        }),
        input.filename,
        row.name,
      );
      version = r.engineVersion;
      // `filename` names every output of the task (numbered across inputs); else each input's frames are numbered
      const numbered = (p.count ?? 1) > 1 && !p.filename;
      r.outputs.forEach((out, i) => {
        const index = p.filename ? files.length + 1 : i + 1;
        files.push(
          imageFile(
            outputName({ filename: p.filename, input: input.filename, ext: outputFormat, index, numbered }),
            out,
          ),
        );
      });
    }
    return { files, engine: { name: row.name, version } };
  },
};
