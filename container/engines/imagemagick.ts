/**
 * Native ImageMagick (Debian's IM 6, or IM 7's `magick` where installed) for images over the
 * Worker's budget (issue 12: "a 60-megapixel image … now finishes on the native engine"). It serves
 * the image kind's `run` with the same request vocabulary as the WASM engine
 * (src/engines/kinds/image.ts): convert and thumbnail; watermark and optimize answer
 * UNSUPPORTED and stay with the WASM engine. Pixel work beyond ImageMagick's own resource policy
 * (memory, map, disk, area) fails as OVER_BUDGET.
 *
 * Large images (issue 49): the engine takes files (`files: true`): an input the Worker streams (over the row's
 * `streamOver`) is in the call's folder already and is moved to in.bin, never read into this process, and outputs are
 * answered as files streamed back from disk. ImageMagick itself keeps a large picture's pixel cache on disk in the
 * call's folder past a share of the tool's memory limit ({@link magickEnv}).
 */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { ConvertOptions, Fit, ImageRunRequest, ThumbnailOptions } from "../../native-protocol/image.ts";
import {
  NativeError,
  bytesOf,
  check,
  fileOf,
  get,
  localFile,
  place,
  put,
  run,
  tool,
  why,
  type NativeCall,
  type NativeEngineDef,
} from "./common.ts";
import { POSTSCRIPT_INPUTS, POSTSCRIPT_OUTPUTS, distillArgs, postScriptOf, readPpm, renderArgs } from "./postscript.ts";
import { icnsToPng, oddToPng, pngToIcns, pngToOdd, xpsToSvg } from "./image-extra.ts";

/** Output formats that keep several frames (animation, multi-page). */
const ANIMATED = new Set(["gif", "webp", "tiff"]);
/** Most frames one call decodes (the WASM engine's maxFrames, src/engines/imagemagick/budget.ts). */
const MAX_FRAMES = 500;

/**
 * ImageMagick's coder name for a canonical format (src/engines/native/rows.ts NATIVE_IMAGE_INPUTS /
 * NATIVE_IMAGE_OUTPUTS list the same formats). No JXL: Debian 12's ImageMagick 6 has no JXL coder.
 */
export const CODER: Record<string, string> = {
  jpg: "jpeg",
  png: "png",
  webp: "webp",
  gif: "gif",
  tiff: "tiff",
  bmp: "bmp",
  ico: "ico",
  avif: "avif",
  heic: "heic",
  svg: "svg",
  psd: "psd",
  ppm: "ppm",
  tga: "tga",
  jp2: "jp2",
  // issue 34: rendered by Ghostscript (inputs) or written through postscript.ts (outputs): Debian's policy refuses IM's own coders
  eps: "png",
  ps: "png",
  xps: "png",
  pdf: "ppm",
  // issue 34: read and written as PNG around ImageMagick (image-extra.ts: icnsutils, LibreOffice Draw, odd.ts)
  icns: "png",
  odd: "png",
};

/**
 * Outputs written without alpha: JPEG has none, and IM 6.9.11's HEIC/AVIF writer (libheif 1.15)
 * drops it, which would expose whatever colour transparent pixels hold. They are flattened on white,
 * as the WASM engine does for JPEG.
 */
const OPAQUE = new Set(["jpg", "heic", "avif", ...POSTSCRIPT_OUTPUTS]);

/**
 * Most bytes of pixels (the PPM ImageMagick writes) turned into eps/ps/pdf here: postscript.ts encodes the picture in
 * this process's memory (about three times its size at the peak), so a larger one is OVER_BUDGET rather than held:
 * 160 MiB, 56 million RGB pixels, a 50 MP camera's photo (a 24 MP raw is 69 MiB: the catalogue's cr3 → eps/ps/pdf),
 * ~480 MB of the server at the peak. A large TIFF scan → pdf is the libtiff row's (container/engines/libtiff.ts), which
 * copies its strips on disk.
 */
export const POSTSCRIPT_MAX_PIXEL_BYTES = 160 * 1024 * 1024;

/**
 * Most bytes of an input read into this process for a step that needs it in memory (an OpenDocument Drawing's zip
 * directory): the Worker's byte threshold, under which the input arrives as bytes anyway.
 */
const HELD_INPUT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * ImageMagick's resource limits for one call's runs (issue 49: a 300 MB scan under a lowered NATIVE_MEMORY_MB): its
 * pixel cache may take a quarter of the tool's address-space limit (RLIMIT_AS, `call.memoryBytes`) on the heap
 * (MAGICK_MEMORY_LIMIT) and another quarter memory-mapped (MAGICK_MAP_LIMIT) — the other half is the program, its
 * coders' libraries and their row buffers — and the rest goes to a disk cache in the call's folder
 * (MAGICK_TEMPORARY_PATH; its folder is the call's disk reservation, container/disk-budget.ts). Debian's policy.xml
 * (/etc/ImageMagick-6) caps these from above (memory 256 MiB, map 512 MiB: a higher limit is lowered to the policy's)
 * and bounds the rest: width and height 16K pixels, area 128 megapixels, disk 1 GiB of cache; an image past them
 * fails "cache resources exhausted" / "width or height exceeds limit", which {@link runImageMagick} answers
 * OVER_BUDGET.
 */
export function magickEnv(call: Pick<NativeCall, "memoryBytes" | "work">): Record<string, string> {
  const quarter = `${Math.max(16, Math.floor(call.memoryBytes / 4 / 2 ** 20))}MiB`;
  return { MAGICK_MEMORY_LIMIT: quarter, MAGICK_MAP_LIMIT: quarter, MAGICK_TEMPORARY_PATH: call.work };
}

/** The resize arguments for a box and fit (contract §6 `fit`). */
function resize(o: { width?: number; height?: number; fit?: Fit }, thumb: boolean): string[] {
  if (!o.width && !o.height) return [];
  const box = `${o.width ?? ""}x${o.height ?? ""}`;
  const op = thumb ? "-thumbnail" : "-resize";
  if (o.fit === "scale" && o.width && o.height) return [op, `${box}!`];
  if (o.fit === "crop" && o.width && o.height) return [op, `${box}^`, "-gravity", "center", "-extent", box];
  return [op, thumb ? box : `${box}>`];
}

/**
 * convert and thumbnail of one image with native ImageMagick (the image kind's `run`); also the
 * second step of a camera raw (libraw.ts hands it LibRaw's demosaiced TIFF).
 * @throws NativeError UNSUPPORTED | OPEN_FAILED | OVER_BUDGET | CONVERSION_FAILED | TIMEOUT
 */
export async function runImageMagick(req: ImageRunRequest, call: NativeCall) {
  const im = tool(call, "imagemagick");
  if (req.op !== "convert" && req.op !== "thumbnail")
    throw new NativeError("UNSUPPORTED", `The native ImageMagick engine does not do ${req.op}.`);
  // issue 34: xps → svg is MuPDF's (image-extra.ts), not a raster
  const input = fileOf(req.input, `This ${req.inputFormat} image`);
  if (req.inputFormat === "xps" && req.outputFormat === "svg" && req.op === "convert") return xpsToSvg(call, input);
  const inCoder = CODER[req.inputFormat];
  const outCoder = CODER[req.outputFormat];
  if (!inCoder || !outCoder || req.outputFormat === "svg")
    throw new NativeError(
      "UNSUPPORTED",
      `${req.inputFormat} → ${req.outputFormat} is not converted by the native ImageMagick engine.`,
    );
  // convert's or thumbnail's options: the fields the other one has are absent
  const o = req.options as ConvertOptions & ThumbnailOptions;
  if (POSTSCRIPT_INPUTS.has(req.inputFormat)) {
    // Ghostscript renders the first page (its PNG is what ImageMagick reads as in.bin)
    const gs = tool(call, "ghostscript");
    await place(call, "in.ps", input);
    const g = await run(call, gs.path, renderArgs("in.ps", "in.bin", o.pixel_density ?? 150));
    check(
      g,
      "Ghostscript",
      (t) => new NativeError("OPEN_FAILED", `Ghostscript could not render this ${req.inputFormat}: ${why(t)}`),
    );
  } else if (req.inputFormat === "xps") {
    // libgxps renders the first page (it reads the page's parts from the package only)
    await place(call, "in.xps", input);
    const g = await run(call, tool(call, "gxps").path, [
      "-f",
      "1",
      "-l",
      "1",
      "-r",
      String(o.pixel_density ?? 150),
      "in.xps",
      "page",
    ]);
    check(g, "libgxps", (t) => new NativeError("OPEN_FAILED", `libgxps could not render this xps: ${why(t)}`));
    await put(call, "in.bin", await get(call, "page-1.png"));
  } else if (req.inputFormat === "icns") await icnsToPng(call, input);
  else if (req.inputFormat === "odd")
    await oddToPng(call, await bytesOf(input, HELD_INPUT_MAX_BYTES, "This odd"), o.pixel_density ?? 96);
  else await place(call, "in.bin", input);
  const env = magickEnv(call);
  const viaPostScript = POSTSCRIPT_OUTPUTS.has(req.outputFormat);
  const thumb = req.op === "thumbnail";
  // Frames read, counted from the start: ImageMagick stops decoding after the last one asked for (a GIF
  // of 40,000 frames takes IM 6 minutes even to ping in full). Animated outputs keep at most MAX_FRAMES.
  const frames = thumb
    ? `[0-${Math.max(0, (o.count ?? 1) - 1)}]`
    : o.frame !== undefined
      ? `[${Math.max(0, Math.floor(o.frame))}]` // one page of a scan (issue 44's per-page convert)
      : // a PSD's images after the first are its layers, not frames: the first is the merged picture
        ANIMATED.has(req.outputFormat) && req.inputFormat !== "psd"
        ? `[0-${MAX_FRAMES - 1}]`
        : "[0]";
  const out = viaPostScript
    ? "ppm:out.ppm"
    : thumb && (o.count ?? 1) > 1
      ? `${outCoder}:out-%d.${req.outputFormat}`
      : `${outCoder}:out.${req.outputFormat}`;
  const animation = !thumb && req.inputFormat === "gif" && ANIMATED.has(req.outputFormat);
  const args = [
    `${inCoder}:in.bin${frames}`,
    ...(animation ? ["-coalesce"] : []), // whole frames before resizing an animation (GIF frames may be partial)
    // a TGA's origin (BottomLeft) is applied by IM 6's reader already and kept as its orientation: -auto-orient would flip it twice
    ...(o.auto_orient === false || req.inputFormat === "tga" ? [] : ["-auto-orient"]),
    ...resize(o, thumb),
    // an ICO entry is at most 256 × 256 (ICONDIR stores each side in one byte): fitted inside it, aspect kept, as the
    // WebAssembly row does (transform.ts prepareForFormat); IM 6 refuses a larger one ("width or height exceeds limit")
    ...(req.outputFormat === "ico" ? ["-resize", "256x256>"] : []),
    ...(OPAQUE.has(req.outputFormat) ? ["-background", "white", "-alpha", "remove", "-alpha", "off"] : []),
    ...(o.strip || thumb ? ["-strip"] : []),
    ...(o.quality ? ["-quality", String(o.quality)] : []),
    ...(o.pixel_density ? ["-units", "PixelsPerInch", "-density", String(o.pixel_density)] : []),
    ...(viaPostScript ? ["-depth", "8"] : []), // postscript.ts writes 8-bit samples
    out,
  ];
  const r = await run(call, im.path, args, { env });
  check(r, "ImageMagick", (t) =>
    /cache resources exhausted|width or height exceeds|memory allocation failed|area/i.test(t)
      ? new NativeError(
          "OVER_BUDGET",
          `The image needs more than the native engine's ImageMagick resource limits: ${why(t)}`,
        )
      : new NativeError(
          /no decode delegate|improper image header|corrupt|insufficient image data|not a|unable to (read|decode) image/i.test(
            t,
          )
            ? "OPEN_FAILED"
            : "CONVERSION_FAILED",
          // the reader's own complaint, not the "no images defined" that follows it
          `ImageMagick: ${why(t, /^(convert|magick)(-im6\.q16)?: (?!no images defined)/)}`,
        ),
  );
  if (viaPostScript) return { ...(await postScriptOutput(req.outputFormat, call)), ms: r.ms };
  const names = (await readdir(call.work))
    .filter((n) => n.startsWith("out"))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  const outputs = [];
  for (const n of names) {
    const id = await run(call, im.path, ["-ping", `${outCoder}:${n}`, "-format", "%w %h\\n", "info:"], { env });
    const [w, h] = id.stdout.trim().split("\n")[0]!.split(" ").map(Number);
    if (req.outputFormat === "icns") {
      const icon = await pngToIcns(call, n, w ?? 0, h ?? 0);
      outputs.push({ data: icon.data, format: req.outputFormat, width: icon.size, height: icon.size, frames: 1 });
      continue;
    }
    outputs.push({
      data:
        req.outputFormat === "odd"
          ? await pngToOdd(call, n, w ?? 0, h ?? 0, o.pixel_density ?? 96)
          : await localFile(call, n), // streamed back from disk on a framed call, read into the answer otherwise
      format: req.outputFormat,
      width: w ?? 0,
      height: h ?? 0,
      frames: Math.max(1, id.stdout.trim().split("\n").length),
    });
  }
  return { outputs, wasmMemoryBytes: 0, ms: r.ms };
}

/** The picture ImageMagick wrote as out.ppm, as eps/ps (postscript.ts) or a PDF of it (Ghostscript's pdfwrite). */
async function postScriptOutput(format: string, call: NativeCall) {
  const size = (await stat(join(call.work, "out.ppm"))).size;
  if (size > POSTSCRIPT_MAX_PIXEL_BYTES)
    throw new NativeError(
      "OVER_BUDGET",
      `The picture is ${Math.round(size / 2 ** 20)} MiB of pixels; the native engine writes ${format} of at most ` +
        `${POSTSCRIPT_MAX_PIXEL_BYTES / 2 ** 20} MiB of pixels (reduce width/height).`,
    );
  const ppm = await get(call, "out.ppm");
  const { width, height } = readPpm(ppm);
  let data = postScriptOf(ppm, format === "eps" ? "eps" : "ps");
  if (format === "pdf") {
    await put(call, "out.ps", data);
    const g = await run(call, tool(call, "ghostscript").path, distillArgs("out.ps", "out.pdf"));
    check(
      g,
      "Ghostscript",
      (t) => new NativeError("CONVERSION_FAILED", `Ghostscript could not write the PDF: ${why(t)}`),
    );
    data = await get(call, "out.pdf");
  }
  return { outputs: [{ data, format, width, height, frames: 1 }], wasmMemoryBytes: 0 };
}

/** The engine's version (the image kind's `info`). */
async function info(_req: unknown, call: NativeCall) {
  return { wasmMemoryBytes: 0, engineVersion: tool(call, "imagemagick").version };
}

/** Native ImageMagick (kind image: run, info). */
export const imagemagick = {
  kind: "image",
  methods: { run: runImageMagick, info },
  files: true,
} satisfies NativeEngineDef<"image">;

export default imagemagick;
