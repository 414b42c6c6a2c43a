/**
 * watermark on PDFs: text and/or an image (JPEG/PNG from the task named by `image`), on the pages
 * of `pages`, above or below the page content, with opacity, rotation, position and margins
 * (watermark-params.ts), drawn by the routed PDF engine (engines/kinds/pdf.ts `watermark`).
 */
import { TaskError } from "../../engines/errors";
import { useEngine } from "../../engines/use";
import { readInput } from "../kit";
import type { OperationHandler } from "../types";
import { perDocument, PDF_TO_PDF } from "./common";
import { checkWatermark, watermarkParams, type WatermarkParams } from "./watermark-params";

export const watermarkPdf: OperationHandler<WatermarkParams> = {
  operation: "watermark",
  ...PDF_TO_PDF,
  params: watermarkParams,
  taskRefs: ["image"],
  check: checkWatermark,
  async run(inputs, p, ctx) {
    let image: { data: Uint8Array; filename: string } | undefined;
    if (p.image) {
      const files = await ctx.taskFiles(p.image);
      if (files.length === 0)
        throw new TaskError("FILE_NOT_FOUND", `image: task ${p.image} has no file to use as the watermark image.`);
      const { row } = useEngine(ctx, "pdf", "watermark");
      image = { filename: files[0].filename, data: await readInput(files[0], ctx, row, "watermark image") };
    }
    const { image: _task, password, ...mark } = p;
    return perDocument(
      "watermark",
      inputs,
      p,
      ctx,
      (engine, input) => engine.watermark?.({ input, mark, image }),
      password,
    );
  },
};
