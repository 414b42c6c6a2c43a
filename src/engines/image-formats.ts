/**
 * The one table of image formats (issue 46 item 2: the lists were written out again in kinds/image.ts,
 * imagemagick/formats.ts and native/rows.ts): every {@link ImageFormat} but the camera raws, in one row each, with
 * which way each ImageMagick engine takes it through image convert and thumbnail. The lists the rest of the code
 * imports are derived from it: kinds/image.ts IMAGE_FORMATS, imagemagick/formats.ts READABLE_FORMATS and
 * WRITABLE_FORMATS (the WebAssembly build), native/rows.ts NATIVE_IMAGE_INPUTS and NATIVE_IMAGE_OUTPUTS (Debian's
 * ImageMagick 6). Why a format goes the way it does is said where those lists are documented. Pure data.
 */
import type { ImageFormat, RawFormat } from "../../native-protocol/image";

/** Which way an engine takes a format: "r" reads it, "w" writes it, "rw" both, "" neither. */
export type ImageWay = "" | "r" | "w" | "rw";

/** The ImageMagick engines the table speaks of: `wasm` the WebAssembly build (row "imagemagick"), `native` Debian's (row "imagemagick-native"). */
export type ImageEngine = "wasm" | "native";

/**
 * Each image format (the camera raws are LibRaw's: native-protocol/image.ts RAW_FORMATS) and its ways per engine,
 * in the order the derived lists keep.
 */
export const IMAGE_FORMAT_TABLE: Readonly<Record<Exclude<ImageFormat, RawFormat>, Record<ImageEngine, ImageWay>>> = {
  png: { wasm: "rw", native: "rw" },
  jpg: { wasm: "rw", native: "rw" },
  webp: { wasm: "rw", native: "rw" },
  gif: { wasm: "rw", native: "rw" },
  tiff: { wasm: "rw", native: "rw" },
  bmp: { wasm: "rw", native: "rw" },
  ico: { wasm: "rw", native: "rw" },
  avif: { wasm: "rw", native: "rw" },
  // HEIC: the WASM build has no HEVC encoder; the native one writes it with libheif's x265
  heic: { wasm: "r", native: "rw" },
  // SVG: rasterised (MSVG in WASM), an input only
  svg: { wasm: "r", native: "r" },
  // JXL: no JXL coder in Debian's ImageMagick 6
  jxl: { wasm: "w", native: "" },
  // issue 34: Photoshop documents (the merged image); the WASM build reads them too since issue 47 (header reader)
  psd: { wasm: "rw", native: "rw" },
  // issue 34: Netpbm, Truevision Targa and JPEG 2000 (openjpeg), which ImageMagick 6 reads natively (Netpbm in WASM
  // too since issue 47)
  ppm: { wasm: "r", native: "r" },
  tga: { wasm: "", native: "r" },
  jp2: { wasm: "", native: "r" },
  // issue 34: PostScript rendered by Ghostscript (-dSAFER), first page, before ImageMagick reads it; written through
  // container/engines/postscript.ts (and Ghostscript's pdfwrite for pdf); eps/ps by the WASM build's own coders (issue 47)
  eps: { wasm: "w", native: "rw" },
  ps: { wasm: "w", native: "rw" },
  // PDF: written by ImageMagick's own PDF writer in WASM (issue 47; a pixel a point, Flate samples), by Ghostscript's
  // pdfwrite of the native PostScript; the inputs pdf-lib embeds (pdflib/images.ts) stay pdf-lib's
  pdf: { wasm: "w", native: "w" },
  // issue 34: XPS, first page rendered by libgxps (xpstopng)
  xps: { wasm: "", native: "r" },
  // issue 34: Apple icons (the largest icon by icns2png, written by png2icns) and OpenDocument Drawings (first page by
  // LibreOffice Draw; the picture written as one by container/engines/odd.ts, and since issue 47 by the WASM build
  // too: imagemagick/odd.ts, the same package)
  icns: { wasm: "", native: "rw" },
  odd: { wasm: "w", native: "rw" },
  // GIMP's images: read by the native GIMP row (container/engines/gimp.ts), neither ImageMagick (ImageMagick 6 fails on
  // XCF 2.10)
  xcf: { wasm: "", native: "" },
};

/** The formats of {@link IMAGE_FORMAT_TABLE} that `engine` takes `way` ("r" or "w"), in the table's order. */
export function imageFormatsOf(engine: ImageEngine, way: "r" | "w"): ImageFormat[] {
  return (Object.keys(IMAGE_FORMAT_TABLE) as (keyof typeof IMAGE_FORMAT_TABLE)[]).filter((f) =>
    IMAGE_FORMAT_TABLE[f][engine].includes(way),
  );
}
