/**
 * thumbnail of a video (issue 13): one frame at `timestamp` (default 10 % of the duration, at most
 * 5 s in, so short clips do not give their first, often black, frame) as png, jpg or webp, sized
 * like image thumbnails (width, height, fit max/crop/scale).
 */
import type { z } from "zod";
import { THUMBNAIL_OUTPUTS, VIDEO_INPUTS } from "../../../native-protocol/media/formats";
import { useEngine } from "../../engines/use";
import type { OperationHandler } from "../types";
import { eachMedia } from "./common";
import { thumbnailParams } from "./schemas";

export const mediaThumbnail: OperationHandler<z.infer<typeof thumbnailParams>> = {
  operation: "thumbnail",
  kind: "media",
  formats: VIDEO_INPUTS.filter((f) => f !== "gif").flatMap((input) =>
    THUMBNAIL_OUTPUTS.map((output) => ({ input, output })),
  ),
  params: thumbnailParams,
  credits: 1,
  takesInput: true,
  requiresOutputFormat: true,
  async run(inputs, p, ctx) {
    const used = useEngine(ctx, "media", "thumbnail");
    const outputFormat = p.output_format as (typeof THUMBNAIL_OUTPUTS)[number];
    const options = { timestamp: p.timestamp, width: p.width, height: p.height, fit: p.fit };
    return eachMedia(used, ctx, "thumbnail", inputs, p.filename, () => ({ outputFormat, options }));
  },
};
