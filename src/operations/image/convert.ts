/**
 * convert (image → image) with the image engines: every pair the WASM build verifiably reads and
 * writes (registry.ts IMAGE_INPUTS / IMAGE_OUTPUTS; test/unit/image-formats.test.ts checks each with
 * Debian's `identify`), plus svg → png|jpg rendered by ImageMagick's internal SVG renderer, plus the
 * outputs only the native ImageMagick writes (HEIC: registry.ts NATIVE_IMAGE_OUTPUTS). Which engine
 * lists which pair is the engine table's business (registry.ts rows' formats), so a native-only
 * output appears in the catalogue only where the native engine is deployed.
 */
import type { z } from "zod";
import type { ImageFormat } from "../../engines/kinds/image";
import {
  IMAGE_INPUTS,
  IMAGE_OUTPUTS,
  IMAGE_SVG_OUTPUTS,
  NATIVE_IMAGE_INPUTS,
  NATIVE_IMAGE_OUTPUTS,
  IMAGE_PDF_INPUTS,
  RAW_INPUTS,
  listedPairs,
} from "../../engines/registry";
import { useEngine } from "../../engines/use";
import type { FormatPair, OperationHandler } from "../types";
import { eachImage } from "./common";
import { convertParams } from "./schemas";

/** Outputs only the native engine writes (HEIC), offered for the inputs it reads (NATIVE_IMAGE_INPUTS). */
const NATIVE_ONLY_OUTPUTS: readonly ImageFormat[] = NATIVE_IMAGE_OUTPUTS.filter((f) => !IMAGE_OUTPUTS.includes(f));

/** The pairs of the inputs the WebAssembly engine reads, with the native-only outputs of those the native one reads. */
const EDGE_INPUT_PAIRS: FormatPair[] = IMAGE_INPUTS.flatMap((input) =>
  [
    ...(input === "svg" ? IMAGE_SVG_OUTPUTS : IMAGE_OUTPUTS),
    ...(input === "svg" || !(NATIVE_IMAGE_INPUTS as readonly string[]).includes(input) ? [] : NATIVE_ONLY_OUTPUTS),
  ]
    // images → pdf stays pdf-lib's where it takes the input (pdf/from-images.ts)
    .filter((output) => output !== "pdf" || !(IMAGE_PDF_INPUTS as readonly string[]).includes(input))
    .map((output) => ({ input, output })),
);
const edgePair = new Set(EDGE_INPUT_PAIRS.map((p) => `${p.input}>${p.output}`));

/** Every (input, output) pair convert offers, by some image engine. */
export const CONVERT_PAIRS: FormatPair[] = [
  ...EDGE_INPUT_PAIRS,
  // inputs only native rows read (issue 34: tga, jp2, xps…; GIMP's xcf), as their rows list them, and the camera
  // raws' pairs only the native LibRaw row lists (raw → heic: an output the WebAssembly engine does not write)
  ...listedPairs("image", "convert").filter(
    (p) =>
      (!(IMAGE_INPUTS as readonly string[]).includes(p.input) || (RAW_INPUTS as readonly string[]).includes(p.input)) &&
      !edgePair.has(`${p.input}>${p.output}`) &&
      // images → pdf are pdf/from-images.ts's (the libtiff row's tif → pdf too)
      !(p.output === "pdf" && (IMAGE_PDF_INPUTS as readonly string[]).includes(p.input)),
  ),
];

export const imageConvert: OperationHandler<z.infer<typeof convertParams>> = {
  operation: "convert",
  kind: "image",
  formats: CONVERT_PAIRS,
  params: convertParams,
  credits: 1,
  takesInput: true,
  requiresOutputFormat: true,
  async run(inputs, p, ctx) {
    const outputFormat = p.output_format as ImageFormat;
    const { width, height, fit, strip, quality, auto_orient, pixel_density } = p;
    const options = { width, height, fit, strip, quality, auto_orient, pixel_density };
    return eachImage(useEngine(ctx, "image", "convert"), ctx, "convert", inputs, p, () => ({ outputFormat, options }));
  },
};
