/**
 * The formats the magick-wasm build (ImageMagick 7.1.2 Q8) can really read and write, verified by
 * test/unit/image-formats.test.ts against Debian's `identify` and `exiftool`. Pure data: the engine
 * table (registry.ts) imports this without pulling in the engine, and operations read it there.
 *
 * Verified facts (magick-wasm 0.0.43, `Magick.supportedFormats` and real encodes):
 * - HEIC is read-only: writing fails with "NoEncodeDelegateForThisImageFormat `HEIC'" (the build has
 *   libheif with an AV1 encoder but no HEVC encoder). HEIC output is the native engine's
 *   (Debian 12's ImageMagick 6 with libheif 1.15 + x265: engines/native/rows.ts NATIVE_IMAGE_OUTPUTS).
 * - AVIF reads and writes.
 * - JXL (libjxl) writes; identify (IM 6) cannot read it, exiftool says "JXL Codestream" and
 *   Debian's ffmpeg (libjxl 0.7) decodes it. Written at libjxl effort 3 (transform.ts): at effort 7
 *   (the default) a 1.9 MP photo took 8.9 s and 80 B/px, at effort 3 0.7 s and 65 B/px for a file
 *   3 % larger at the same PSNR. It needs ~70 B/px of engine memory, so the engine's memory budget
 *   refuses JXL outputs above ~1.3 MP (OVER_BUDGET, memory.ts); no native engine writes JXL
 *   (Debian 12's ImageMagick 6 has no JXL coder).
 * - PSD writes: the picture as one layer plus the merged image (identify sees 2 images, exiftool
 *   LayerCount 1). Photoshop's merged image of a transparent picture is matted, so semi-transparent
 *   pixels of frame 0 differ from the source; the layer is exact.
 * - JXL is offered as an output only: reading it would need a header reader for the pre-decode
 *   budget (budget.ts), which does not exist yet. PPM (Netpbm P1–P6) and PSD are read (issue 47) with
 *   their header readers (sniff-more.ts); only their first image is decoded: a PSD's merged picture
 *   (its other images are layers, as the native row reads it), a Netpbm file's first image.
 * - EPS and PS are written by ImageMagick's own PostScript coders (no Ghostscript: that is only for
 *   reading PostScript): Level 3 (EPS3/PS3) with Flate-compressed samples, flattened on white, one
 *   pixel per point, a PS page of the picture's size (issue 47; codec.ts, transform.ts). Ghostscript
 *   renders them back to the input's pixels (test/engines-heavy/image-formats.test.ts).
 * - ICO is written only up to 256×256 (larger inputs are fitted into 256×256) and has no magic
 *   bytes, so it is always decoded with an explicit format.
 * - SVG renders with ImageMagick's internal MSVG renderer (the default SVG coder shells out to
 *   inkscape, which cannot exist in WASM) and is offered only as an input to raster outputs.
 */
import type { ImageFormat } from "../kinds/image";
import { imageFormatsOf } from "../image-formats";
import { RAW_FORMATS } from "../../../native-protocol/image";

/**
 * Formats ImageMagick decodes: engines/image-formats.ts, the one table (wasm "r"), and the camera raws through the
 * build's LibRaw (raw.ts, issue 47: small raws in a Worker, any size in a browser; the rest go to the native LibRaw).
 */
export const READABLE_FORMATS: readonly ImageFormat[] = [...imageFormatsOf("wasm", "r"), ...RAW_FORMATS];

/** Formats ImageMagick (in WebAssembly) encodes (engines/image-formats.ts, the one table: wasm "w"). */
export const WRITABLE_FORMATS: readonly ImageFormat[] = imageFormatsOf("wasm", "w");

/** Outputs that keep every frame of a multi-frame input (animation or pages); others take frame 1. */
export const MULTI_FRAME_OUTPUTS: readonly ImageFormat[] = ["gif", "webp", "tiff"];

/** Outputs with lossy quality (1–100) in the WASM engine (JXL: quality 100 is lossless). */
export const LOSSY_OUTPUTS: readonly ImageFormat[] = ["jpg", "webp", "avif", "jxl"];

/** Inputs that need `svg` handling (rasterised, so only raster outputs of convert). */
export const SVG_OUTPUTS: readonly ImageFormat[] = ["png", "jpg"];
