/**
 * watermark on a video (issue 13): `text` drawn with ffmpeg's drawtext in a shipped DejaVu face,
 * or `image` = the name of a task of the job whose first file is overlaid (its transparency kept),
 * placed and faded as on images (position_*, margin_*, opacity, image_width[_percent]). The output
 * keeps the input's container unless `output_format` says otherwise (a container ffmpeg cannot
 * write, such as mpg, becomes mp4); the audio is copied when the container stays.
 */
import type { z } from "zod";
import { VIDEO_INPUTS, VIDEO_OUTPUTS, type VideoOutput } from "../../../native-protocol/media/formats";
import { fontNameFor, resolveFont } from "../../engines/fonts";
import { useEngine } from "../../engines/use";
import { formatOf, readTaskFile } from "../kit";
import type { OperationHandler } from "../types";
import { checkWatermarkSource as checkWatermark } from "../watermark-params";
import { eachMedia } from "./common";
import { watermarkParams } from "./schemas";

type Params = z.infer<typeof watermarkParams>;
const OUTPUTS: readonly string[] = VIDEO_OUTPUTS.filter((f) => f !== "gif");

export const mediaWatermark: OperationHandler<Params> = {
  operation: "watermark",
  kind: "media",
  formats: VIDEO_INPUTS.filter((f) => f !== "gif").flatMap((input) => OUTPUTS.map((output) => ({ input, output }))),
  params: watermarkParams,
  credits: 1,
  takesInput: true,
  taskRefs: ["image"],
  check: checkWatermark,
  async run(inputs, p, ctx) {
    const { engine, row } = useEngine(ctx, "media", "watermark");
    const mark = p.image ? await readTaskFile(ctx, p.image, row, "watermark image") : undefined;
    const image = mark && { data: mark.data, filename: mark.file.filename };
    const { image: _image, font_name, rotation, ...rest } = p;
    const font = fontNameFor(font_name);
    const options = { ...rest, ...(font.name ? { font_name: resolveFont(font.name) } : {}) };
    const warnings = [
      ...(font.warning ? [font.warning] : []),
      ...(rotation ? [`rotation is not applied to video watermarks; the watermark was placed unrotated.`] : []),
    ];
    const out = await eachMedia({ engine, row }, ctx, "watermark", inputs, p.filename, (input) => {
      const own = formatOf(input, p.input_format);
      const outputFormat = ((p.output_format as string | undefined) ??
        (own && OUTPUTS.includes(own) ? own : "mp4")) as VideoOutput;
      return { outputFormat, options, image };
    });
    return { ...out, ...(warnings.length ? { extra: { warnings } } : {}) };
  },
};
