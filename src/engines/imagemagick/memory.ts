/**
 * Memory estimate of one engine call, checked before decoding (issue 3: "sized so that one
 * operation stays well inside 128 MB"). Linear model, bytes per pixel, measured with magick-wasm
 * 0.0.43 (ImageMagick 7.1.2 Q8) in Node on 10.7 MP and 24 MP photos (WebAssembly.Memory growth;
 * scripts/bench-image.mjs prints the same peaks):
 *
 * | step                         | measured                          | model (B/px) |
 * |------------------------------|-----------------------------------|-------------:|
 * | instance after init          | 16.8 MB                           | 17 MB fixed  |
 * | decode JPEG/PNG RGB          | +31.5 MB @10.7 MP, +82 MB @24 MP  | 4 (RGBA)     |
 * | decode HEIC (libheif)        | +83 MB @12.2 MP (whole call)      | 6            |
 * | decode camera raw (LibRaw)   | +141 MB @6.1 MP NEF, +161 MB @8 MP DNG, +209 MB @10.1 MP RW2 (RSS, PNG encode taken off) | 24 |
 * | resize (source + target live)| +16 MB 10.7 → 3 MP                | 2 × (out + √(in·out)) |
 * | encode JPEG, optimize-coding | +77 MB @10.7 MP                   | 7.5          |
 * | encode JPEG, plain Huffman   | +0                                | 0.5          |
 * | encode PNG                   | +77 MB @10.7 MP, +123 MB @24 MP   | 7.5          |
 * | encode WEBP                  | +95 MB @10.7 MP, +158 MB @24 MP   | 9            |
 * | encode GIF (dither cache)    | +71 MB @16 kpx, +106 MB @10.7 MP; 31-frame 320×240 GIF 97 MB in all | 80 MB + 4 |
 * | encode TIFF (blob doubling)  | +67 MB @10.7 MP                   | 6.5          |
 * | encode BMP (blob doubling)   | +152 MB @10.7 MP                  | 14.5         |
 * | encode AVIF (libaom)         | +68 MB @1.7 MP, +115 MB @3.8 MP   | 44           |
 * | encode JXL (libjxl, effort 3)| +34 MB @0.48 MP, +125 MB @1.9 MP, +252 MB @4.3 MP | 70 |
 * | encode PSD (layer + merged)  | +28 MB @1.9 MP, +66 MB @4.3 MP, +255 MB @12.2 MP; file 6 B/px | 27 (21 + the JS copy) |
 *
 * The sum is conservative where decoders free their buffers before encoding (a 12 MP HEIC → PNG
 * peaks at 100 MB but is estimated at 185 MB and refused); it must never be below the measured
 * peak. JPEG inputs decoded for a smaller box use libjpeg's DCT scaling (1/2, 1/4, 1/8), which is why a
 * 24 MP JPEG thumbnail stays at ~17 MB. The estimate adds the JS-side bytes (input and output
 * copies) so it can be compared with the isolate's 128 MB.
 */
import { TaskError } from "../errors";
import type { ResizePlan } from "./geometry";
import type { ImageHeader } from "./sniff";
import type { ImageBudget, ImageFormat } from "../kinds/image";
import { RAW_FORMATS } from "../../../native-protocol/image";

const BASE = 17e6;
/**
 * The input's bytes held at once: the runner's, the engine's copy into WebAssembly memory and the decoder's blobs.
 * 2 until issue 49, when a 15.6 MB noise PNG → PNG at a 2× estimate of 80 MB measured 116 MB with its input
 * (test/engines-heavy/isolate-memory.test.ts); 4, with PNG's encoder at 18 bytes a pixel, keeps the estimate above the
 * measured peak.
 */
const INPUT_COPIES = 4;
const DECODE: Partial<Record<ImageFormat, number>> = {
  heic: 6,
  avif: 6,
  // LibRaw's raw buffer, its 4 × 16-bit working image and the 16-bit RGB it hands ImageMagick (raw.ts)
  // (24 until issue 49: a 1.65 MP noise DNG → PNG at the estimate's edge measured 102 MB with its input)
  ...Object.fromEntries(RAW_FORMATS.map((f) => [f, 30])),
};
const ENCODE: Partial<Record<ImageFormat, number>> = {
  jpg: 0.5,
  // 7.5 until issue 49: a 16-bit noise PNG → PNG measured 46 bytes a pixel in all (isolate-memory.test.ts)
  png: 18,
  webp: 9,
  gif: 4,
  tiff: 6.5,
  bmp: 14.5,
  avif: 44,
  ico: 14.5,
  heic: 44,
  svg: 0,
  jxl: 70,
  psd: 27,
  // an odd is a PNG in a stored zip: the PNG's cost and its copy into the package (odd.ts)
  odd: 9,
};
/**
 * ImageMagick's colour quantizer allocates a 2^24-entry dither cache for every GIF it writes: +71 MB measured at 16 kpx
 * (the table above; 80 MB until issue 49 made the input count 4× and the budget 100 MB, when the measured figure, which
 * with 4 B/px more stays above +106 MB at 10.7 MP, lets a page-size GIF through again).
 */
const GIF_FIXED = 72e6;
/** JPEG output up to this size is written with optimized Huffman tables (and progressive in optimize). */
export const JPEG_OPTIMIZE_MAX_PIXELS = 4_000_000;

/** Shape of one call, in pixels (the header's sizes; a resize is planned, not yet done). */
export interface MemoryPlan {
  inputBytes: number;
  inputFormat: ImageFormat;
  /** width × height of one decoded frame (after DCT scaling for JPEG). */
  decodedPixels: number;
  /** Frames decoded and kept at once. */
  frames: number;
  /** width × height of one output frame. */
  outputPixels: number;
  outputFormat: ImageFormat;
  /** Extra pixels held alongside (watermark layer), 0 when none. */
  extraPixels?: number;
}

/** libjpeg's DCT scale (1, 2, 4 or 8) for decoding w×h to at least box×box. */
export function jpegScale(w: number, h: number, box: number | undefined): number {
  if (!box || box <= 0) return 1;
  let s = 1;
  while (s < 8 && Math.min(w, h) / (s * 2) >= box) s *= 2;
  return s;
}

/** Estimated peak bytes (WASM memory + JS copies) of a call. */
export function estimateBytes(p: MemoryPlan): number {
  const decode = (DECODE[p.inputFormat] ?? 4) * p.decodedPixels;
  const frames = Math.max(1, p.frames);
  const animated = frames > 1 ? 2 * 4 * p.decodedPixels * frames : 0; // frames + their coalesced copies
  const resize =
    p.outputPixels !== p.decodedPixels ? 2 * (p.outputPixels + Math.sqrt(p.decodedPixels * p.outputPixels)) : 0;
  const jpegCost = p.outputPixels <= JPEG_OPTIMIZE_MAX_PIXELS ? 7.5 : ENCODE.jpg!;
  const encode =
    (p.outputFormat === "jpg" ? jpegCost : (ENCODE[p.outputFormat] ?? 14.5)) * p.outputPixels +
    (p.outputFormat === "gif" ? GIF_FIXED : 0);
  const extra = 8 * (p.extraPixels ?? 0);
  return BASE + INPUT_COPIES * p.inputBytes + decode + animated + resize + encode + extra;
}

/**
 * Refuses a call whose estimate exceeds `budget.maxMemoryBytes`.
 * @throws TaskError OVER_BUDGET naming the estimate, the limit and what to change
 */
export function checkMemory(p: MemoryPlan, budget: ImageBudget, what: string): void {
  const need = estimateBytes(p);
  if (need > budget.maxMemoryBytes) {
    const mb = (n: number) => `${Math.round(n / 1e6)} MB`;
    throw new TaskError(
      "OVER_BUDGET",
      `Processing the ${what} into ${p.outputFormat.toUpperCase()} needs about ${mb(need)} of engine memory; this engine's budget is ${mb(budget.maxMemoryBytes)}. Ask for a smaller width/height or a lighter output format.`,
    );
  }
}

/**
 * The MemoryPlan of decoding `header` (`frames` at once, JPEG scaled for a `hintSide` box),
 * resizing by `plan` and encoding to `outputFormat`.
 */
export function memoryPlan(
  input: Uint8Array,
  header: ImageHeader,
  frames: number,
  outputFormat: ImageFormat,
  plan: ResizePlan | null,
  hintSide?: number,
  extraPixels = 0,
): MemoryPlan {
  const s = header.format === "jpg" ? jpegScale(header.width, header.height, hintSide) : 1;
  const decodedPixels = Math.ceil(header.width / s) * Math.ceil(header.height / s);
  let outputPixels = plan ? plan.resize.w * plan.resize.h : decodedPixels;
  if (outputFormat === "ico") outputPixels = Math.min(outputPixels, 256 * 256);
  return {
    inputBytes: input.byteLength,
    inputFormat: header.format,
    decodedPixels,
    frames,
    outputPixels,
    outputFormat,
    extraPixels,
  };
}
