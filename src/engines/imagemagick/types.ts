/**
 * The ImageMagick engine seam: what operations call and what the engine Worker serves over RPC.
 *
 * Everything here is plain, structured-clone-serializable data (bytes in, bytes out), because in
 * the Worker `ctx.engines.imagemagick` is a service-binding stub to the engine Worker
 * (wasm/imagemagick/worker.ts) and in Node it is the in-process engine (engine.ts). Failures come
 * back as data (`{ok: false, error}`), not thrown classes: class identity does not survive RPC
 * (DESIGN.md principle 4). Operations turn them back into TaskError with `unwrapImageResult`.
 */
import type { TaskFailure } from "../errors";
import type { WatermarkPlacement } from "../placement";

/** Canonical image format names (lower-case file extensions) the engines know (formats.ts says which way each goes). */
export type ImageFormat = "png" | "jpg" | "webp" | "gif" | "tiff" | "bmp" | "ico" | "avif" | "heic" | "svg" | "jxl" | "psd";

/** How a resize fits the requested box (contract §6, CloudConvert `fit`). */
export type Fit = "max" | "crop" | "scale";

/** Resize/encode options of `convert` (contract §6 image→image). Sizes in pixels. */
export interface ConvertOptions {
  width?: number;
  height?: number;
  /** max: fit inside, never upscale (default); crop: fill then crop centred; scale: exact size. */
  fit?: Fit;
  /** Remove EXIF/ICC/comments. */
  strip?: boolean;
  /** 1–100, for lossy encoders (jpg, webp, avif, jxl; heic on the native engine). */
  quality?: number;
  /** Apply the EXIF orientation and reset it to top-left (default true). */
  auto_orient?: boolean;
  /** Pixels per inch written into the output (and the SVG rasterisation density). */
  pixel_density?: number;
  /**
   * Every frame (TIFF page, GIF frame) as an output of its own, in order, when the output format
   * holds one image (png, jpg, …): image → PDF takes a multi-page TIFF this way. Default: first frame.
   */
  all_frames?: boolean;
}

/** Options of `thumbnail` (contract §6). */
export interface ThumbnailOptions {
  width?: number;
  height?: number;
  fit?: Fit;
  /** Number of thumbnails, one per frame of a multi-frame input (default 1). */
  count?: number;
}

/** Where a watermark goes and how it looks (engines/placement.ts); margins in pixels here. */
export type { WatermarkPlacement };

/** Options of `watermark`: text (with `text`) or image (with the request's `extra` bytes). */
export interface WatermarkOptions extends WatermarkPlacement {
  /** Text in any shipped script (engines/text/faces.ts); lines split at \n. */
  text?: string;
  /** Point size = pixels at 72 dpi (default 40); ignored when font_width_percent is given. */
  font_size?: number;
  /** Width of the text block as a percentage (1–100) of the input width; the font size follows. */
  font_width_percent?: number;
  /** `#RRGGBB` or `#RRGGBBAA` (default #000000). */
  font_color?: string;
  /** One of the shipped font names or a CloudConvert alias (fonts.ts), for WinAnsi text; "Bold" names pick the bold script faces. */
  font_name?: string;
  /** Alignment of the lines of a multi-line text within its block (default center). */
  font_align?: "left" | "center" | "right";
  /** Width of the watermark image in pixels (the height follows unless image_height is given too). */
  image_width?: number;
  /** Height of the watermark image in pixels (the width follows unless image_width is given too). */
  image_height?: number;
  /** Width of the watermark image as a percentage of the input width (wins over image_width/height; aspect kept). */
  image_width_percent?: number;
  /** above (default) or below the image: below shows only where the image is transparent. */
  layer?: "above" | "below";
}

/** Options of `optimize` (contract §6: profile + quality). */
export interface OptimizeOptions {
  /** web (default) | print | archive | mrc | max — mapped to a JPEG quality when `quality` is absent. */
  profile?: "web" | "print" | "archive" | "mrc" | "max";
  quality?: number;
}

/** Pre-decode budget (issue 3: one operation must stay well inside a 128 MB isolate). */
export interface ImageBudget {
  /** Largest input in bytes. */
  maxBytes: number;
  /** Largest declared width × height of one frame, in pixels. */
  maxPixels: number;
  /** Most frames a file may declare. */
  maxFrames: number;
  /** Largest width × height × frames actually decoded at once (animations kept whole). */
  maxTotalPixels: number;
  /** Largest estimated peak of one call (WASM memory + JS copies), bytes; model in memory.ts. */
  maxMemoryBytes: number;
}

/**
 * Defaults for a 128 MB isolate: 24 MP is the most a JPEG can declare (its thumbnails decode at
 * 1/8 scale, ~17 MB); full-size work is bounded by the memory estimate (memory.ts), 120 MB.
 */
export const DEFAULT_IMAGE_BUDGET: ImageBudget = {
  maxBytes: 32 * 1024 * 1024,
  maxPixels: 24_000_000,
  maxFrames: 500,
  maxTotalPixels: 24_000_000,
  maxMemoryBytes: 120_000_000,
};

interface RequestBase {
  /** The input file's bytes. */
  input: Uint8Array;
  /** Input format, canonical (`jpg`, not `jpeg`). */
  inputFormat: ImageFormat;
  /** Output format, canonical. */
  outputFormat: ImageFormat;
  /** Overrides of DEFAULT_IMAGE_BUDGET for this call. */
  budget?: Partial<ImageBudget>;
}

/** One engine call. `op` selects the pipeline and the type of `options`. */
export type ImageRunRequest =
  | (RequestBase & { op: "convert"; options: ConvertOptions })
  | (RequestBase & { op: "thumbnail"; options: ThumbnailOptions })
  | (RequestBase & { op: "optimize"; options: OptimizeOptions })
  | (RequestBase & {
      op: "watermark";
      options: WatermarkOptions;
      /** The watermark image's bytes (image watermark); absent for a text watermark. */
      extra?: Uint8Array;
      extraFormat?: ImageFormat;
    });

/** One produced image. */
export interface ImageRunOutput {
  data: Uint8Array;
  format: ImageFormat;
  width: number;
  height: number;
  frames: number;
  /** The image's resolution in pixels per inch (horizontal), when its file records one. */
  ppi?: number;
}

/** Result of one engine call, as data. */
export type ImageRunResult =
  | {
      ok: true;
      outputs: ImageRunOutput[];
      /** Real ImageMagick version, e.g. "7.1.2-30". */
      engineVersion: string;
      /** Size of magick's WebAssembly.Memory after the call (it never shrinks, so it is the peak). */
      wasmMemoryBytes: number;
      /** Time spent inside the engine, milliseconds. */
      ms: number;
    }
  | { ok: false; error: TaskFailure; engineVersion: string };

/** What `ctx.engines.imagemagick` holds: the in-process engine or the engine Worker's RPC stub. */
export interface ImageMagickEngine {
  /** Runs one operation. Never rejects for bad input: failures come back as `{ok: false}`. */
  run(request: ImageRunRequest): Promise<ImageRunResult>;
  /** Initialises the engine if needed and reports the ImageMagick version and memory in use. */
  info(): Promise<{ engineVersion: string; wasmMemoryBytes: number }>;
}
