/**
 * libtiff's tiff2pdf (issue 49): a TIFF scan → PDF, every page of the TIFF a page of the PDF, sized by its recorded
 * resolution (XResolution/YResolution, else 72 ppi: 1 px = 1 pt), its strips copied into the PDF as they are (JPEG,
 * CCITT G4, Deflate pass through; uncompressed stays uncompressed; LZW and the rest decoded to raw samples), one page
 * at a time. So a 300 MB scan of three A4 pages at 600 dpi takes ~1 s and ~105 MB (one page's samples, measured),
 * where native ImageMagick cannot write it at all: Debian's policy.xml refuses its PDF coder, and its PostScript path
 * (postscript.ts) holds the picture in the server's memory. The input arrives as a file in the call's folder
 * (`files: true`) and the PDF goes back as one, streamed from disk.
 *
 * Only convert tiff → pdf without resizing; anything else answers UNSUPPORTED, so routing hands it on (to native
 * ImageMagick).
 */
import { dirname, join } from "node:path";
import { existsSync } from "node:fs";
import type { ImageRunRequest } from "../../native-protocol/image.ts";
import { which } from "../tools.ts";
import {
  NativeError,
  check,
  fileOf,
  localFile,
  place,
  run,
  tool,
  why,
  type NativeCall,
  type NativeEngineDef,
} from "./common.ts";

/** The pages of a TIFF and its first page's size, from tiffinfo's listing (one "TIFF Directory" per page). */
export function tiffPagesOf(listing: string): { pages: number; width: number; height: number } {
  const pages = listing.match(/^TIFF Directory at offset/gm)?.length ?? 0;
  const m = /Image Width: (\d+) Image Length: (\d+)/.exec(listing);
  return { pages, width: Number(m?.[1] ?? 0), height: Number(m?.[2] ?? 0) };
}

/** tiffinfo of the same libtiff-tools as tiff2pdf (beside it, else on PATH). */
function tiffinfoOf(tiff2pdf: string): string {
  const beside = join(dirname(tiff2pdf), "tiffinfo");
  const path = existsSync(beside) ? beside : which("tiffinfo");
  if (!path) throw new NativeError("ENGINE_UNAVAILABLE", "tiffinfo is not installed in the native engine.");
  return path;
}

/**
 * convert tiff → pdf with tiff2pdf (the image kind's `run`). `pixel_density` overrides the pages' resolution (their
 * size in points); width/height (a resize) are UNSUPPORTED here. tiff2pdf's own allocation limit (-m) is half the
 * tool's memory limit, so a page too large to hold ends OVER_BUDGET rather than in a failed malloc.
 * @throws NativeError UNSUPPORTED | OPEN_FAILED | OVER_BUDGET | CONVERSION_FAILED | TIMEOUT
 */
async function runTiff2Pdf(req: ImageRunRequest, call: NativeCall) {
  const t2p = tool(call, "tiff2pdf");
  if (req.op !== "convert" || req.inputFormat !== "tiff" || req.outputFormat !== "pdf")
    throw new NativeError("UNSUPPORTED", `The libtiff engine converts tiff → pdf only, not ${req.op} of this file.`);
  const o = req.options;
  if (o.width || o.height || o.frame !== undefined)
    throw new NativeError("UNSUPPORTED", "tiff2pdf does not resize or pick a page; native ImageMagick does.");
  await place(call, "in.tif", fileOf(req.input, "This tiff"));
  const info = await run(call, tiffinfoOf(t2p.path), ["in.tif"], { maxOutput: 64 * 1024 * 1024 });
  const { pages, width, height } = tiffPagesOf(info.stdout);
  if (info.code !== 0 || pages === 0)
    throw new NativeError("OPEN_FAILED", `libtiff could not read this tiff: ${why(`${info.stderr}\n${info.stdout}`)}`);
  const mib = Math.max(16, Math.floor(call.memoryBytes / 2 / 2 ** 20));
  // a page's size is its recorded resolution, else 72 ppi (1 px = 1 pt, as pdf-lib's route sizes it: pdflib/images.ts);
  // pixel_density overrides the recorded one
  const ppi = String(o.pixel_density ?? 72);
  const density = ["-u", "i", "-x", ppi, "-y", ppi, ...(o.pixel_density ? ["-r", "o"] : [])];
  const r = await run(call, t2p.path, ["-m", String(mib), ...density, "-o", "out.pdf", "in.tif"]);
  check(r, "tiff2pdf", (text) =>
    /memory|malloc|allocat/i.test(text)
      ? new NativeError("OVER_BUDGET", `A page of this tiff needs more than the native engine's memory: ${why(text)}`)
      : new NativeError(
          /can't open|cannot read|not a tiff|bad magic|unsupported|invalid/i.test(text)
            ? "OPEN_FAILED"
            : "CONVERSION_FAILED",
          `tiff2pdf: ${why(text)}`,
        ),
  );
  return {
    outputs: [{ data: await localFile(call, "out.pdf"), format: "pdf", width, height, frames: pages }],
    wasmMemoryBytes: 0,
    ms: r.ms,
  };
}

/** The engine's version (the image kind's `info`). */
async function info(_req: unknown, call: NativeCall) {
  return { wasmMemoryBytes: 0, engineVersion: tool(call, "tiff2pdf").version };
}

/** libtiff's tiff2pdf (kind image: run, info); it takes files (issue 49). */
export const libtiff = {
  kind: "image",
  methods: { run: runTiff2Pdf, info },
  files: true,
} satisfies NativeEngineDef<"image">;

export default libtiff;
