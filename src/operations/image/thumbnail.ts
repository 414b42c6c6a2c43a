/**
 * thumbnail for images (contract §6): png | jpg | webp, width, height, fit (max default: inside
 * the box, never enlarged; crop; scale), count (thumbnails of the first frames of an animation or
 * multi-page TIFF, named `<base>-1.png`, `-2`, … or by `filename` with `%d`).
 */
import type { z } from "zod";
import { IMAGE_INPUTS, listedPairs } from "../../engines/registry";
import type { ImageFormat } from "../../engines/kinds/image";
import { useEngine } from "../../engines/use";
import { outputName } from "../kit";
import type { FormatPair, OperationHandler } from "../types";
import { eachImage, imageFile } from "./common";
import { thumbnailParams } from "./schemas";

/** Thumbnail outputs (contract §6). */
export const THUMBNAIL_OUTPUTS: ImageFormat[] = ["png", "jpg", "webp"];

/** Every image input some row reads (the WebAssembly engine's, and those native rows list for thumbnail) × the outputs. */
export const THUMBNAIL_PAIRS: FormatPair[] = [
  ...new Set([...IMAGE_INPUTS, ...listedPairs("image", "thumbnail").map((p) => p.input)]),
].flatMap((input) => THUMBNAIL_OUTPUTS.map((output) => ({ input, output })));

export const imageThumbnail: OperationHandler<z.infer<typeof thumbnailParams>> = {
  operation: "thumbnail",
  kind: "image",
  formats: THUMBNAIL_PAIRS,
  params: thumbnailParams,
  credits: 1,
  takesInput: true,
  requiresOutputFormat: true,
  async run(inputs, p, ctx) {
    const outputFormat = p.output_format as ImageFormat;
    const options = { width: p.width, height: p.height, fit: p.fit, count: p.count };
    // `filename` names every output of the task (numbered across inputs); else each input's frames are numbered
    const numbered = (p.count ?? 1) > 1 && !p.filename;
    return eachImage(
      useEngine(ctx, "image", "thumbnail"),
      ctx,
      "thumbnail",
      inputs,
      p,
      () => ({ outputFormat, options }),
      (outputs, input, files) =>
        outputs.map((out, i) => {
          const index = p.filename ? files.length + i + 1 : i + 1;
          return imageFile(
            outputName({ filename: p.filename, input: input.filename, ext: outputFormat, index, numbered }),
            out,
          );
        }),
    );
  },
};
