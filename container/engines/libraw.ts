/**
 * Camera raw photos (issue 34) with LibRaw's `dcraw_emu` (Debian's libraw-bin): the sensor data is
 * demosaiced (AHD), not the embedded thumbnail taken, with the camera's own white balance (`-w`), in
 * sRGB (`-o 1`), turned upright by the raw's orientation (dcraw's default flip), as an 8-bit TIFF;
 * native ImageMagick (imagemagick.ts) then writes the asked format with the convert/thumbnail
 * options. Raw files whose image data LibRaw cannot decode (a stripped or truncated file, an
 * unsupported camera) end in OPEN_FAILED with LibRaw's words.
 *
 * Files (issue 49): the engine takes files (`files: true`): a raw the Worker streams (over the row's `streamOver`, a
 * 100 MP medium-format raw is over 64 MiB) is in the call's folder already and is moved to raw.in; LibRaw's TIFF is
 * handed to ImageMagick as the file it is, never read into this process, and ImageMagick's outputs go back as files.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { LocalFile } from "../../native-protocol/frame.ts";
import type { ImageRunRequest } from "../../native-protocol/image.ts";
import { NativeError, check, fileOf, place, run, tool, why, type NativeCall, type NativeEngineDef } from "./common.ts";
import { runImageMagick } from "./imagemagick.ts";

/** dcraw_emu's arguments: camera white balance, sRGB, AHD interpolation, TIFF to `out`, from `input`. */
export function dcrawArgs(input: string, out: string): string[] {
  return ["-w", "-o", "1", "-q", "3", "-T", "-Z", out, input];
}

/**
 * convert / thumbnail of a camera raw: LibRaw demosaics, ImageMagick writes.
 * @throws NativeError UNSUPPORTED | OPEN_FAILED (LibRaw cannot decode it) | what runImageMagick throws
 */
async function runRaw(req: ImageRunRequest, call: NativeCall) {
  const libraw = tool(call, "libraw");
  tool(call, "imagemagick");
  if (req.op !== "convert" && req.op !== "thumbnail")
    throw new NativeError("UNSUPPORTED", `The native LibRaw engine does not do ${req.op}.`);
  await place(call, "raw.in", fileOf(req.input, `This ${req.inputFormat} file`));
  const r = await run(call, libraw.path, dcrawArgs("raw.in", "raw.tiff"));
  check(
    r,
    "LibRaw",
    (t) => new NativeError("OPEN_FAILED", `LibRaw could not decode this ${req.inputFormat} file: ${why(t)}`),
  );
  let tiff: LocalFile;
  try {
    const path = join(call.work, "raw.tiff");
    tiff = new LocalFile(path, (await stat(path)).size);
  } catch {
    throw new NativeError(
      "OPEN_FAILED",
      `LibRaw could not decode this ${req.inputFormat} file: ${why(`${r.stderr}\n${r.stdout}`) || "no image came out"}`,
    );
  }
  // the TIFF is already upright (LibRaw applied the raw's orientation) and carries no orientation tag
  return runImageMagick({ ...req, input: tiff, inputFormat: "tiff" } as ImageRunRequest, call);
}

/** LibRaw's version (the image kind's `info`). */
async function info(_req: unknown, call: NativeCall) {
  return { wasmMemoryBytes: 0, engineVersion: tool(call, "libraw").version };
}

/** Native LibRaw + ImageMagick (kind image: run, info); it takes files (issue 49). */
export const libraw = { kind: "image", methods: { run: runRaw, info }, files: true } satisfies NativeEngineDef<"image">;

export default libraw;
