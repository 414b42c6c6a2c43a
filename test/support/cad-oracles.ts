/**
 * Oracles of the CAD tests (native-cad, native-dwg): ImageMagick's identify of a file, and Ghostscript drawing an
 * EPS to PNG so a rendered drawing can be judged not blank. Tools outside our code.
 */
import { spawnSync } from "node:child_process";

/** identify of the first frame of `path`: format, size in pixels, mean brightness and mean red/green (0–1). */
export function identifyFile(path: string): {
  format: string;
  width: number;
  height: number;
  mean: number;
  red: number;
  green: number;
} {
  const r = spawnSync("identify", ["-format", "%m %w %h %[fx:mean] %[fx:mean.r] %[fx:mean.g]\n", path], {
    encoding: "utf8",
  });
  const [format, w, h, mean, red, green] = r.stdout.split("\n")[0]!.split(" ");
  return {
    format: format!,
    width: Number(w),
    height: Number(h),
    mean: Number(mean),
    red: Number(red),
    green: Number(green),
  };
}

/**
 * Draws the EPS at `path` to `<path>.png` with Ghostscript (-dSAFER, cropped to its bounding box, 72 dpi).
 * @returns the PNG's path
 * @throws Error with Ghostscript's stderr when it fails
 */
export function epsToPng(path: string): string {
  const png = `${path}.png`;
  const gs = spawnSync("gs", [
    "-q",
    "-dSAFER",
    "-dBATCH",
    "-dNOPAUSE",
    "-dEPSCrop",
    "-sDEVICE=png16m",
    "-r72",
    `-sOutputFile=${png}`,
    path,
  ]);
  if (gs.status !== 0) throw new Error(`gs could not draw ${path}: ${gs.stderr?.toString()}`);
  return png;
}
