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
import type { StreamedBytes } from "../../../native-protocol/frame";
import type { TaskFailure } from "../errors";
import type { ImageFormat, ImageRunRequest } from "../../../native-protocol/image";
import { RAW_FORMATS, type RawFormat } from "../../../native-protocol/image";
import { IMAGE_FORMAT_TABLE } from "../image-formats";

/** Every {@link ImageFormat}, in one list: the one table's (engines/image-formats.ts), then the camera raws. */
export const IMAGE_FORMATS: readonly ImageFormat[] = [
  ...(Object.keys(IMAGE_FORMAT_TABLE) as (keyof typeof IMAGE_FORMAT_TABLE)[]),
  ...RAW_FORMATS,
];

const ALIASES: Record<string, ImageFormat> = {
  jpeg: "jpg",
  jpe: "jpg",
  jfif: "jpg",
  tif: "tiff",
  heif: "heic",
  dib: "bmp",
  cur: "ico",
  pnm: "ppm",
  j2k: "jp2",
  jpf: "jp2",
  epsf: "eps",
  epsi: "eps",
  oxps: "xps",
  svgz: "svg", // gzip of an SVG: the SVG renderer (resvg) inflates it, within its budget (issue 47)
};

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

/**
 * Other names of an image format that CloudConvert's catalogue lists as inputs of their own (reference
 * cloudconvert-catalogue.md, Image: jfif, jpeg, tif beside jpg and tiff). A file named `photo.jpeg` or `scan.tif`, or
 * `input_format: "jpeg"`, routes as its canonical format (src/operations/registry.ts `route`), and GET /v2/operations
 * lists these names beside the canonical ones (src/api/operations.ts).
 */
export const LISTED_INPUT_ALIASES: Readonly<Record<string, ImageFormat>> = { jpeg: "jpg", jfif: "jpg", tif: "tiff" };

/** MIME type of each image format (an output's `contentType`). */
export const MIME: Record<ImageFormat, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  tiff: "image/tiff",
  bmp: "image/bmp",
  ico: "image/vnd.microsoft.icon",
  avif: "image/avif",
  heic: "image/heic",
  svg: "image/svg+xml",
  jxl: "image/jxl",
  psd: "image/vnd.adobe.photoshop",
  ppm: "image/x-portable-pixmap",
  tga: "image/x-tga",
  jp2: "image/jp2",
  eps: "application/postscript",
  ps: "application/postscript",
  pdf: "application/pdf",
  xps: "application/vnd.ms-xpsdocument",
  icns: "image/icns",
  odd: "application/vnd.oasis.opendocument.graphics",
  xcf: "image/x-xcf",
  ...(Object.fromEntries(RAW_FORMATS.map((f) => [f, "image/x-raw"])) as Record<RawFormat, string>),
};

/** The request vocabulary, shared with the native engine (native-protocol/image.ts). */
export type {
  ConvertOptions,
  Fit,
  ImageBudget,
  ImageFormat,
  ImageRunRequest,
  ImageStreamableInput,
  OptimizeOptions,
  ThumbnailOptions,
  WatermarkOptions,
} from "../../../native-protocol/image";
export type { WatermarkPlacement } from "../../../native-protocol/placement";

/**
 * What an image engine answers an output's data as: bytes, or (issue 49) from the native engine on a streamed call (an
 * input sent as a stream) a stream for an output over the answer threshold (operations/kit.ts heldBytes reads it
 * where bytes are needed). The WebAssembly engines answer bytes only (their factories say so: `ImageEngine<Uint8Array>`).
 */
export type ImageData = Uint8Array | StreamedBytes;

/** One produced image; `D` is its data's type ({@link ImageData}). */
export interface ImageRunOutput<D extends ImageData = ImageData> {
  /** Its bytes, or a stream of them ({@link ImageData}). */
  data: D;
  format: ImageFormat;
  width: number;
  height: number;
  frames: number;
  /** The image's resolution in pixels per inch (horizontal), when its file records one. */
  ppi?: number;
}

/** Result of one engine call, as data; `D` is its outputs' data type. */
export type ImageRunResult<D extends ImageData = ImageData> =
  | {
      ok: true;
      outputs: ImageRunOutput<D>[];
      /** The engine's real version, e.g. ImageMagick "7.1.2-30". */
      engineVersion: string;
      /** Size of the engine's WebAssembly.Memory after the call, bytes (it never shrinks, so it is the peak; 0 natively). */
      wasmMemoryBytes: number;
      /** Time spent inside the engine, milliseconds. */
      ms: number;
    }
  | { ok: false; error: TaskFailure; engineVersion: string };

/**
 * An image engine: the in-process engine or an engine Worker's RPC stub (`ctx.engines.imagemagick`, …), or the native
 * engine's rows; `D` is its outputs' data type (bytes for the WebAssembly engines, {@link ImageData} for the kind).
 */
export interface ImageEngine<D extends ImageData = ImageData> {
  /** Runs one operation. Never rejects for bad input: failures come back as `{ok: false}`. */
  run(request: ImageRunRequest): Promise<ImageRunResult<D>>;
  /** Initialises the engine if needed and reports its version and the WebAssembly memory in use, bytes. */
  info(): Promise<{ engineVersion: string; wasmMemoryBytes: number }>;
}
