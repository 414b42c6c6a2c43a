/**
 * Shared fixtures of the image-* unit tests: the in-process ImageMagick engine (one per test file),
 * corpus files, an OperationContext, and the oracle: Debian's ImageMagick 6 `identify` (installed
 * by .ci/run), never the engine under test.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { testContext } from "./context";
import type { InputFile, OperationContext, OperationOutput, OutputFile } from "../../src/operations/types";
import { nodeImageMagickEngine } from "../../src/runtime/node/imagemagick";
import type { ImageEngine } from "../../src/engines/kinds/image";

export { CORPUS } from "./corpus";
import { CORPUS } from "./corpus";

/** Bytes of a corpus file (path relative to the corpus). */
export function corpus(rel: string): Uint8Array {
  return new Uint8Array(readFileSync(join(CORPUS, rel)));
}

/** A corpus file as an operation input. */
export function corpusInput(rel: string, filename = basename(rel)): InputFile {
  const path = join(CORPUS, rel);
  return {
    filename,
    size: statSync(path).size,
    fromTask: "import",
    key: `corpus/${rel}`,
    bytes: async () => new Uint8Array(readFileSync(path)),
  };
}

/** In-memory bytes as an operation input. */
export function bytesInput(filename: string, data: Uint8Array): InputFile {
  return { filename, size: data.byteLength, fromTask: "previous", key: `memory/${filename}`, bytes: async () => data };
}

/** An operation's answer whose outputs are bytes in memory, as every engine's are (only imports stream into storage). */
export type BytesOutput = OperationOutput & { files: (OutputFile & { data: Uint8Array })[] };

let engine: ImageEngine<Uint8Array> | undefined;
/** The in-process engine (ImageMagick is initialised on first use). */
export function imageMagick(): ImageEngine<Uint8Array> {
  engine ??= nodeImageMagickEngine();
  return engine;
}

/** A context with the ImageMagick engine; `taskFiles` and others can be overridden. */
export function imageContext(over: Partial<OperationContext> = {}): OperationContext {
  return testContext({ engines: { imagemagick: imageMagick() }, ...over });
}

/** What Debian's identify says about one file. `format` is IM6's name (AVIF reads as HEIC there). */
export interface Identified {
  format: string;
  width: number;
  height: number;
  frames: number;
  /** True when the image has an alpha channel. */
  alpha: boolean;
  /** Largest width and height over all frames. */
  maxWidth: number;
  maxHeight: number;
}

/** IM6 magick names by canonical extension, as `identify` prints them. */
export const IDENTIFY_NAME: Record<string, string> = {
  png: "PNG",
  jpg: "JPEG",
  webp: "WEBP",
  gif: "GIF",
  tiff: "TIFF",
  bmp: "BMP",
  ico: "ICO",
  avif: "HEIC",
  heic: "HEIC",
};

/**
 * Runs `identify` on bytes (stdin). `hint` prefixes the coder for formats without magic bytes
 * (ico). Returns the first frame's facts and the frame count.
 */
export function identify(data: Uint8Array, hint?: string): Identified {
  const out = execFileSync("identify", ["-format", "%m %w %h %A\n", `${hint ? hint + ":" : ""}-`], {
    input: data,
    stdio: ["pipe", "pipe", "pipe"],
  })
    .toString()
    .trim()
    .split("\n");
  const [format, w, h, alpha] = out[0].split(" ");
  const sizes = out.map((line) => line.split(" ").slice(1, 3).map(Number));
  return {
    format,
    width: Number(w),
    height: Number(h),
    frames: out.length,
    alpha: /^(True|Blend)$/i.test(alpha),
    maxWidth: Math.max(...sizes.map((s) => s[0])),
    maxHeight: Math.max(...sizes.map((s) => s[1])),
  };
}

/** Mean colour of a region of the first frame (Debian `convert` as the oracle): [r, g, b] in 0–255. */
export function meanColour(data: Uint8Array, crop: string, hint?: string): [number, number, number] {
  const out = execFileSync(
    "convert",
    [
      `${hint ? hint + ":" : ""}-[0]`,
      "-crop",
      crop,
      "+repage",
      "-alpha",
      "off",
      "-scale",
      "1x1!",
      "-format",
      "%[fx:int(255*r)] %[fx:int(255*g)] %[fx:int(255*b)]",
      "info:",
    ],
    { input: data, stdio: ["pipe", "pipe", "pipe"] },
  )
    .toString()
    .trim()
    .split(" ")
    .map(Number);
  return [out[0], out[1], out[2]];
}
