/**
 * Camera raws in the WebAssembly ImageMagick (issue 47). magick-wasm 0.0.43 is built with LibRaw (`Magick.delegates`
 * lists "raw"): its DNG coder opens every raw LibRaw knows by content, demosaics the sensor data with LibRaw's
 * defaults as ImageMagick sets them (camera white balance, sRGB, AHD) — what the native row runs as `dcraw_emu -w -o 1
 * -q 3` (container/engines/libraw.ts). Measured on the corpus's raws that both decode (a Kodak DC50 KDC, a Nikon NEF,
 * a DNG, a Panasonic RW2): same dimensions, PSNR 49–89 dB (identical for the DNG) against dcraw_emu's TIFF
 * (test/engines-heavy/raw-wasm.test.ts).
 *
 * The size comes first, from LibRaw's own header parse (a ping: no sensor data is unpacked, 1–30 ms), since
 * TIFF-based raws carry a thumbnail as their first image. LibRaw needs ~25 bytes of WebAssembly memory per pixel
 * (memory.ts), so in a 128 MB isolate only small raws (~3 MP) pass the memory budget; larger ones, and every file
 * this LibRaw cannot read, are handed to the native LibRaw (UNSUPPORTED / OVER_BUDGET are hand-off codes,
 * engines/routing.ts), which stays the row for real camera files at the edge. In a browser page (no isolate limit)
 * the same engine decodes raws of any size.
 */
import { MagickFormat, MagickImage, MagickReadSettings } from "@imagemagick/magick-wasm";
import { RAW_FORMATS, type RawFormat } from "../../../native-protocol/image";
import { TaskError } from "../errors";
import type { ImageFormat } from "../kinds/image";
import { discardInstance } from "./magick";
import type { ImageHeader } from "./sniff";

/** The coder that reads every raw (LibRaw decides by content); "DCRAW" would call an external ufraw instead. */
export const RAW_MAGICK_FORMAT = MagickFormat.Dng;

/** Whether `format` is a camera raw. */
export const isRaw = (format: ImageFormat): format is RawFormat => (RAW_FORMATS as readonly string[]).includes(format);

/** A hand-off: the native LibRaw decides about this file (its own error if it cannot read it either). */
const handOff = (format: ImageFormat, why: string) =>
  new TaskError(
    "UNSUPPORTED",
    `LibRaw in WebAssembly could not read this ${format.toUpperCase()} file (${why}); the native LibRaw reads it.`,
  );

/**
 * The size of a raw as LibRaw reads its header (the demosaiced image's, before orientation).
 * @throws TaskError UNSUPPORTED when LibRaw cannot parse it (the native row tries)
 */
export function rawHeader(bytes: Uint8Array, format: RawFormat): ImageHeader {
  const image = MagickImage.create();
  try {
    image.ping(bytes, new MagickReadSettings({ format: RAW_MAGICK_FORMAT }));
    if (image.width <= 0 || image.height <= 0) throw handOff(format, "no image size");
    return { format, width: image.width, height: image.height, frames: 1 };
  } catch (err) {
    if (err instanceof TaskError) throw err;
    throw handOff(format, rawWhy(err));
  } finally {
    image.dispose();
  }
}

/**
 * What a failed raw decode becomes: LibRaw throws C++ exceptions (truncated sensor data, an unknown camera) that
 * leave the instance in an unknown state, so it is dropped (the next call starts a fresh one) and the file is handed
 * to the native LibRaw, which is more lenient with truncated data.
 */
export function rawDecodeFailure(err: unknown, format: RawFormat): TaskError {
  if (!(err instanceof Error)) discardInstance();
  return handOff(format, rawWhy(err));
}

const rawWhy = (err: unknown) =>
  err instanceof Error
    ? err.message
        .replace(/`[^`]*'/g, "")
        .replace(/ @ .*$/, "")
        .trim()
    : "LibRaw stopped";
