/**
 * The image kind (kinds/index.ts): images in, images out (convert, thumbnail, watermark, optimize),
 * with CloudConvert's options as the request vocabulary. Implemented by ImageMagick in WebAssembly
 * (engines/imagemagick, engine Worker wasm/imagemagick; row "imagemagick") and natively (row
 * "imagemagick-native", the native engine). Which formats each engine reads and writes is its row's
 * (engines/registry.ts), not this file's.
 *
 * Everything here is plain, structured-clone-serializable data (bytes in, bytes out), because in the
 * Worker an image engine is a service-binding stub to its engine Worker and in Node the in-process
 * engine. Failures come back as data (`{ok: false, error}`), not thrown classes: class identity does
 * not survive RPC (DESIGN.md principle 4). Operations turn them back into TaskError with
 * `engineCall` (operations/kit.ts).
 */
import type { TaskFailure } from "../errors";
import type { WatermarkPlacement } from "../placement";

/** Canonical image format names (lower-case file extensions) the engines know (each engine's row says which way each goes). */
export type ImageFormat = "png" | "jpg" | "webp" | "gif" | "tiff" | "bmp" | "ico" | "avif" | "heic" | "svg" | "jxl" | "psd";

/** Every {@link ImageFormat}, in one list. */
export const IMAGE_FORMATS: readonly ImageFormat[] = ["png", "jpg", "webp", "gif", "tiff", "bmp", "ico", "avif", "heic", "svg", "jxl", "psd"];

const ALIASES: Record<string, ImageFormat> = { jpeg: "jpg", jpe: "jpg", jfif: "jpg", tif: "tiff", heif: "heic", dib: "bmp", cur: "ico" };

/**
 * Canonical format name for an extension or format string (case-insensitive, a leading dot
 * ignored; aliases such as jpeg, tif, heif mapped), or undefined when it names no {@link ImageFormat}.
 */
export function canonicalFormat(name: string | undefined): ImageFormat | undefined {
  if (!name) return undefined;
  const n = name.toLowerCase().replace(/^\./, "");
  const f = (ALIASES[n] ?? n) as ImageFormat;
  return IMAGE_FORMATS.includes(f) ? f : undefined;
}

/** MIME type of each image format (an output's `contentType`). */
export const MIME: Record<ImageFormat, string> = {
  png: "image/png", jpg: "image/jpeg", webp: "image/webp", gif: "image/gif", tiff: "image/tiff",
  bmp: "image/bmp", ico: "image/vnd.microsoft.icon", avif: "image/avif", heic: "image/heic", svg: "image/svg+xml",
  jxl: "image/jxl", psd: "image/vnd.adobe.photoshop",
};

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
  /** One of the shipped font names or a CloudConvert alias (engines/fonts.ts), for WinAnsi text; "Bold" names pick the bold script faces. */
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
  /** Largest estimated peak of one call (WASM memory + JS copies), bytes (the WebAssembly engine's model: imagemagick/memory.ts). */
  maxMemoryBytes: number;
}

interface RequestBase {
  /** The input file's bytes. */
  input: Uint8Array;
  /** Input format, canonical (`jpg`, not `jpeg`). */
  inputFormat: ImageFormat;
  /** Output format, canonical. */
  outputFormat: ImageFormat;
  /** Overrides of the engine's default budget for this call (imagemagick/budget.ts DEFAULT_IMAGE_BUDGET). */
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
      /** The engine's real version, e.g. ImageMagick "7.1.2-30". */
      engineVersion: string;
      /** Size of the engine's WebAssembly.Memory after the call, bytes (it never shrinks, so it is the peak; 0 natively). */
      wasmMemoryBytes: number;
      /** Time spent inside the engine, milliseconds. */
      ms: number;
    }
  | { ok: false; error: TaskFailure; engineVersion: string };

/** An image engine: the in-process engine or an engine Worker's RPC stub (`ctx.engines.imagemagick`, …). */
export interface ImageEngine {
  /** Runs one operation. Never rejects for bad input: failures come back as `{ok: false}`. */
  run(request: ImageRunRequest): Promise<ImageRunResult>;
  /** Initialises the engine if needed and reports its version and the WebAssembly memory in use, bytes. */
  info(): Promise<{ engineVersion: string; wasmMemoryBytes: number }>;
}
