/**
 * convert: decode → auto-orient → resize per `fit` → strip → density → encode (contract §6
 * image→image options). Multi-frame inputs keep every frame when the output can hold them (gif,
 * webp, tiff; animations are coalesced first so each frame is a full picture); other outputs take
 * the first frame (the largest entry for ICO inputs), or every frame as an output of its own with
 * `all_frames` (each with its resolution, `ppi`).
 */
import { TaskError } from "../../errors";
import { checkImageBudget } from "../budget";
import { rawHeader } from "../raw";
import { decode, encode, encodeFrame } from "../codec";
import { MULTI_FRAME_OUTPUTS, WRITABLE_FORMATS } from "../formats";
import { planResize } from "../geometry";
import { checkMemory, memoryPlan } from "../memory";
import {
  applyPlan,
  checkOutputSize,
  orient,
  ppiOf,
  prepareForFormat,
  setDensity,
  stripKeepingColour,
} from "../transform";
import type { ConvertOptions, ImageBudget, ImageFormat, ImageRunOutput } from "../../kinds/image";

/** Bytes in one format → bytes in another. @throws TaskError (OPEN_FAILED, OVER_BUDGET, CONVERSION_FAILED, UNSUPPORTED) */
export function runConvert(
  input: Uint8Array,
  inputFormat: ImageFormat,
  outputFormat: ImageFormat,
  o: ConvertOptions,
  budget: ImageBudget,
): ImageRunOutput<Uint8Array>[] {
  if (!WRITABLE_FORMATS.includes(outputFormat)) {
    throw new TaskError("UNSUPPORTED", `ImageMagick in WebAssembly cannot write ${outputFormat.toUpperCase()}.`);
  }
  const one = o.frame !== undefined; // a single frame asked for: the per-frame budget holds, whatever the file's total
  const multi = !one && MULTI_FRAME_OUTPUTS.includes(outputFormat);
  const keepFrames = !one && (multi || o.all_frames === true);
  const header = checkImageBudget(input, inputFormat, budget, keepFrames, "input", rawHeader);
  if (one && (!Number.isInteger(o.frame) || o.frame! < 0 || o.frame! >= header.frames))
    throw new TaskError(
      "OPEN_FAILED",
      `The input ${header.format.toUpperCase()} has ${header.frames} frame(s); frame ${o.frame! + 1} does not exist.`,
    );
  const what = `input ${header.format.toUpperCase()}`;
  const side = 2 * Math.max(o.width ?? 0, o.height ?? 0); // square: orientation may swap the axes
  const planned = planResize(header.width, header.height, o); // for the estimate; redone after orienting
  checkOutputSize(header.width, header.height, planned, budget);
  checkMemory(memoryPlan(input, header, keepFrames ? header.frames : 1, outputFormat, planned, side), budget, what);
  const frames = decode(input, header, {
    frames: keepFrames ? Infinity : 1,
    ...(one ? { frameIndex: o.frame } : {}),
    what,
    density: header.format === "svg" ? o.pixel_density : undefined,
    sizeHint: side ? { w: side, h: side } : undefined,
  });
  try {
    if (frames.length > 1 && (header.format === "gif" || header.format === "webp")) frames.coalesce();
    if (o.auto_orient !== false) for (const f of frames) orient(f);
    for (const f of frames) {
      // per frame: pages of a TIFF may differ in size (coalesced animation frames do not)
      const plan = planResize(f.width, f.height, o);
      checkOutputSize(f.width, f.height, plan, budget);
      applyPlan(f, plan);
      if (o.strip) stripKeepingColour(f);
      if (o.pixel_density) setDensity(f, o.pixel_density);
      prepareForFormat(f, outputFormat, o.quality, o.pixel_density);
    }
    if (!multi && frames.length > 1) {
      return [...frames].map((f, i) => ({
        data: encodeFrame(f, outputFormat, `output ${outputFormat.toUpperCase()} (frame ${i + 1})`),
        format: outputFormat,
        width: f.width,
        height: f.height,
        frames: 1,
        ppi: ppiOf(f),
      }));
    }
    const data = encode(frames, outputFormat, `output ${outputFormat.toUpperCase()}`);
    return [
      {
        data,
        format: outputFormat,
        width: frames[0].width,
        height: frames[0].height,
        frames: frames.length,
        ppi: ppiOf(frames[0]),
      },
    ];
  } finally {
    frames.dispose();
  }
}
