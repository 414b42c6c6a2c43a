/**
 * The image kind's request (src/engines/kinds/image.ts) as the Worker sends it to an image engine
 * — ImageMagick in WebAssembly or the native engine's ImageMagick (container/engines/imagemagick.ts):
 * formats, the options of convert, thumbnail, watermark and optimize (CloudConvert's vocabulary,
 * contract §6), the budget, and {@link ImageRunRequest}. Sizes in pixels.
 */
import type { LocalFile, StreamedBytes } from "./frame.ts";
import type { WatermarkPlacement } from "./placement.ts";

/**
 * Camera raw formats (issue 34): read by LibRaw in the native engine (container/engines/libraw.ts),
 * demosaiced with the camera's white balance and orientation. Extensions as cameras write them.
 */
export const RAW_FORMATS = [
  "3fr",
  "arw",
  "cr2",
  "cr3",
  "crw",
  "dcr",
  "dng",
  "erf",
  "kdc",
  "mos",
  "mrw",
  "nef",
  "nrw",
  "orf",
  "pef",
  "raf",
  "raw",
  "rw2",
  "sr2",
  "srw",
  "x3f",
] as const;

/** A camera raw format ({@link RAW_FORMATS}). */
export type RawFormat = (typeof RAW_FORMATS)[number];

/** Canonical image format names (lower-case file extensions) the engines know (each engine's row says which way each goes). */
export type ImageFormat =
  | "png"
  | "jpg"
  | "webp"
  | "gif"
  | "tiff"
  | "bmp"
  | "ico"
  | "avif"
  | "heic"
  | "svg"
  | "jxl"
  | "psd"
  | "ppm"
  | "tga"
  | "jp2"
  | "eps"
  | "ps"
  | "pdf"
  | "xps"
  | "icns"
  | "odd"
  | "xcf"
  | RawFormat;

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
  /**
   * Only this frame (0-based TIFF page, GIF frame) is decoded and converted, under the per-frame budget (issue 44:
   * image → PDF streams a multi-page scan one page at a time instead of holding every page). Past the last frame:
   * OPEN_FAILED. Wins over `all_frames`.
   */
  frame?: number;
}

/** Options of `thumbnail` (contract §6). */
export interface ThumbnailOptions {
  width?: number;
  height?: number;
  fit?: Fit;
  /** Number of thumbnails, one per frame of a multi-frame input (default 1). */
  count?: number;
}

/** Options of `watermark`: text (with `text`) or image (with the request's `extra` bytes). */
export interface WatermarkOptions extends WatermarkPlacement {
  /** Text in any shipped script (src/engines/text/faces.ts); lines split at \n. */
  text?: string;
  /** Point size = pixels at 72 dpi (default 40); ignored when font_width_percent is given. */
  font_size?: number;
  /** Width of the text block as a percentage (1–100) of the input width; the font size follows. */
  font_width_percent?: number;
  /** `#RRGGBB` or `#RRGGBBAA` (default #000000). */
  font_color?: string;
  /** One of the shipped font names or a CloudConvert alias (src/engines/fonts.ts), for WinAnsi text; "Bold" names pick the bold script faces. */
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
  /** Largest estimated peak of one call (WASM memory + JS copies), bytes (the WebAssembly engine's model: src/engines/imagemagick/memory.ts). */
  maxMemoryBytes: number;
}

/**
 * The input of convert and thumbnail (issue 49): its bytes, or for the native image rows a stream of known length
 * (StreamedBytes) the Worker sends on the framed wire over the row's `streamOver`, which reaches the native engine as a
 * file in its call's folder (LocalFile), so a 300 MB scan is held whole by neither side. The WebAssembly engine answers
 * UNSUPPORTED to anything but bytes. Modelled on native-protocol/pdf.ts PdfStreamableInput.
 */
export type ImageStreamableInput = Uint8Array | StreamedBytes | LocalFile;

interface RequestBase<I = Uint8Array> {
  /** The input file's bytes (convert and thumbnail: {@link ImageStreamableInput}). */
  input: I;
  /** Input format, canonical (`jpg`, not `jpeg`). */
  inputFormat: ImageFormat;
  /** Output format, canonical. */
  outputFormat: ImageFormat;
  /** Overrides of the engine's default budget for this call (src/engines/imagemagick/budget.ts DEFAULT_IMAGE_BUDGET). */
  budget?: Partial<ImageBudget>;
}

/** One engine call. `op` selects the pipeline and the type of `options`. */
export type ImageRunRequest =
  | (RequestBase<ImageStreamableInput> & { op: "convert"; options: ConvertOptions })
  | (RequestBase<ImageStreamableInput> & { op: "thumbnail"; options: ThumbnailOptions })
  | (RequestBase & { op: "optimize"; options: OptimizeOptions })
  | (RequestBase & {
      op: "watermark";
      options: WatermarkOptions;
      /** The watermark image's bytes (image watermark); absent for a text watermark. */
      extra?: Uint8Array;
      extraFormat?: ImageFormat;
    });
