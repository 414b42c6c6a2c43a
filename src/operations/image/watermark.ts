/**
 * watermark on images (contract §6): `text` in a shipped font, or `image` = the name of a task in
 * the same job whose first file is the watermark (its transparency kept). The output keeps the
 * input's format when ImageMagick can write it (HEIC → jpg, SVG → png otherwise), or
 * `output_format` when given.
 */
import type { z } from "zod";
import { IMAGE_INPUTS, IMAGE_OUTPUTS } from "../../engines/registry";
import type { ImageFormat } from "../../engines/kinds/image";
import type { EngineRow } from "../../engines/registry";
import { fontNameFor } from "../../engines/fonts";
import { useEngine } from "../../engines/use";
import { readTaskFile } from "../kit";
import type { FormatPair, OperationContext, OperationHandler } from "../types";
import { eachImage, inputFormatOf } from "./common";
import { checkWatermark, watermarkParams } from "./schemas";

/** Output format when `output_format` is absent. */
export function defaultWatermarkOutput(input: ImageFormat): ImageFormat {
  if (IMAGE_OUTPUTS.includes(input)) return input;
  return input === "heic" ? "jpg" : "png";
}

export const WATERMARK_PAIRS: FormatPair[] = IMAGE_INPUTS.map((input) => ({
  input,
  output: defaultWatermarkOutput(input),
}));

async function watermarkImage(
  name: string,
  ctx: OperationContext,
  row: EngineRow,
): Promise<{ bytes: Uint8Array; format: ImageFormat }> {
  const { file, data } = await readTaskFile(ctx, name, row, "watermark image");
  return { bytes: data, format: inputFormatOf(file, undefined, "watermark") };
}

type Params = z.infer<typeof watermarkParams>;

export const imageWatermark: OperationHandler<Params> = {
  operation: "watermark",
  kind: "image",
  formats: WATERMARK_PAIRS,
  params: watermarkParams,
  credits: 1,
  takesInput: true,
  taskRefs: ["image"],
  check: checkWatermark,
  async run(inputs, p, ctx) {
    const used = useEngine(ctx, "image", "watermark");
    const mark = p.image ? await watermarkImage(p.image, ctx, used.row) : undefined;
    const { image: _image, ...options } = p as Params & Record<string, unknown>;
    const font = fontNameFor(p.font_name);
    options.font_name = font.name;
    const out = await eachImage(used, ctx, "watermark", inputs, p, (_input, inputFormat) => ({
      outputFormat: (p.output_format as ImageFormat | undefined) ?? defaultWatermarkOutput(inputFormat),
      options: pickWatermarkOptions(options),
      extra: mark?.bytes,
      extraFormat: mark?.format,
    }));
    return { ...out, ...(font.warning ? { extra: { warnings: [font.warning] } } : {}) };
  },
};

/** Only the engine's own options cross to the engine (no common params such as filename). */
function pickWatermarkOptions(p: Record<string, unknown>): Omit<Params, "image"> {
  const keys = Object.keys(watermarkParams.shape).filter((k) => k !== "image");
  return Object.fromEntries(keys.filter((k) => p[k] !== undefined).map((k) => [k, p[k]])) as Omit<Params, "image">;
}
