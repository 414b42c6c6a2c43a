/**
 * GIMP's own images (XCF) by GIMP 2.10 (Debian's gimp, its batch console `gimp-console-2.10`): the image's visible
 * layers merged at the canvas size with their transparency (what GIMP's "Export As" writes), as a PNG; native
 * ImageMagick (imagemagick.ts) then writes the asked format with the convert/thumbnail options. GIMP is the one reader
 * of XCF 2.10 ("gimp xcf v011" and later: 64-bit offsets, zlib tiles, high bit depths): Debian's ImageMagick 6 fails on
 * it ("memory allocation failed") and no WebAssembly build reads it.
 *
 * Before GIMP runs, the XCF header is read here: a file that does not start with "gimp xcf " is OPEN_FAILED, a canvas
 * over MAX_CANVAS_PIXELS is OVER_BUDGET (a few bytes can declare 100 000 × 100 000), unopened. The Script-Fu program
 * is fixed text naming only the call's own files (in.xcf, out.png): nothing of the input reaches it. XCF references no
 * external file, so nothing is fetched. GIMP's profile (plug-in registry, fonts cache: its first start takes ~25 s,
 * later ones 4–10 s) is copied from the server's work root into the call's folder and kept there after the first
 * good run, so concurrent calls never share a profile being written.
 *
 * Files (issue 49): the engine takes files (`files: true`): an XCF the Worker streams (over the row's `streamOver`) is
 * in the call's folder already and is moved to in.xcf (only its 22-byte header is read here); GIMP's PNG is handed to
 * ImageMagick as the file it is, and ImageMagick's outputs go back as files.
 */
import { cp, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { LocalFile } from "../../native-protocol/frame.ts";
import type { ImageRunRequest } from "../../native-protocol/image.ts";
import {
  NativeError,
  check,
  fileOf,
  head,
  place,
  run,
  tool,
  why,
  type NativeCall,
  type NativeEngineDef,
} from "./common.ts";
import { runImageMagick } from "./imagemagick.ts";

/** The largest canvas GIMP is asked to open, pixels (a 600 dpi A2 scan is ~35 million). */
export const MAX_CANVAS_PIXELS = 100_000_000;

/** The canvas an XCF header declares ("gimp xcf file\0" or "gimp xcf vNNN\0", then width and height, big-endian). */
export function xcfCanvas(data: Uint8Array): { version: string; width: number; height: number } | undefined {
  const head = new TextDecoder("latin1").decode(data.subarray(0, 14));
  const m = /^gimp xcf (file|v\d{3})\0$/.exec(head);
  if (!m || data.length < 22) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return { version: m[1]!, width: view.getUint32(14), height: view.getUint32(18) };
}

/** GIMP's batch program: load in.xcf, merge the visible layers clipped to the canvas, write out.png (alpha kept). */
const SCRIPT =
  '(let* ((image (car (gimp-xcf-load RUN-NONINTERACTIVE "in.xcf" "in.xcf")))' +
  " (layer (car (gimp-image-merge-visible-layers image CLIP-TO-IMAGE))))" +
  ' (file-png-save2 RUN-NONINTERACTIVE image layer "out.png" "out.png" 0 9 0 0 0 0 0 0 0))';

/** Runs GIMP's console on in.xcf in the call's folder with a profile of its own; the merged picture, out.png. */
async function flatten(call: NativeCall, what: string): Promise<LocalFile> {
  const gimp = tool(call, "gimp");
  const kept = join(call.root, "gimp-profile");
  const profile = join(call.work, "gimp-profile");
  const warm = await stat(kept).then(
    () => true,
    () => false,
  );
  if (warm) await cp(kept, profile, { recursive: true });
  const args = ["-i", "-n", "-d", "-f", "--no-shm", "-c", "--batch-interpreter", "plug-in-script-fu-eval"];
  const r = await run(call, gimp.path, [...args, "-b", SCRIPT, "-b", "(gimp-quit 0)"], {
    env: { GIMP2_DIRECTORY: profile, XDG_CACHE_HOME: join(call.work, "cache"), XDG_CONFIG_HOME: call.work },
  });
  const fail = (t: string) =>
    new NativeError("OPEN_FAILED", `GIMP could not read ${what}: ${why(t, /Error: |corrupt|failed/i)}`);
  check(r, "GIMP", fail);
  // a failed load still exits 0 ("batch command experienced an execution error"): out.png is the verdict
  const path = join(call.work, "out.png");
  const png = await stat(path).then(
    (st) => (st.isFile() ? new LocalFile(path, st.size) : undefined),
    () => undefined,
  );
  if (!png) throw fail(`${r.stderr}\n${r.stdout}`);
  if (!warm) {
    const next = `${kept}.${process.pid}.${Date.now()}`;
    await cp(profile, next, { recursive: true });
    await rename(next, kept).catch(() => rm(next, { recursive: true, force: true }));
  }
  return png;
}

/**
 * convert / thumbnail of an XCF: GIMP merges the visible layers, ImageMagick writes.
 * @throws NativeError UNSUPPORTED | OPEN_FAILED (no XCF header, GIMP cannot read it) | OVER_BUDGET (a canvas over
 *   MAX_CANVAS_PIXELS) | what runImageMagick throws
 */
async function runXcf(req: ImageRunRequest, call: NativeCall) {
  tool(call, "imagemagick");
  if (req.op !== "convert" && req.op !== "thumbnail")
    throw new NativeError("UNSUPPORTED", `The native GIMP engine does not do ${req.op}.`);
  // the header (22 bytes) is all this process reads of the file
  const input = fileOf(req.input, "This XCF file");
  const canvas = xcfCanvas(await head(input, 22));
  if (!canvas) throw new NativeError("OPEN_FAILED", 'The input is not a GIMP XCF image (no "gimp xcf" header).');
  if (canvas.width * canvas.height > MAX_CANVAS_PIXELS)
    throw new NativeError(
      "OVER_BUDGET",
      `This XCF file declares a ${canvas.width} × ${canvas.height} canvas; at most ${MAX_CANVAS_PIXELS / 1e6} million pixels are opened.`,
    );
  await place(call, "in.xcf", input);
  const png = await flatten(call, "this XCF file");
  return runImageMagick({ ...req, input: png, inputFormat: "png" } as ImageRunRequest, call);
}

/** GIMP's version (the image kind's `info`). */
async function info(_req: unknown, call: NativeCall) {
  return { wasmMemoryBytes: 0, engineVersion: tool(call, "gimp").version };
}

/** Native GIMP + ImageMagick (kind image: run, info); it takes files (issue 49). */
export const gimp = { kind: "image", methods: { run: runXcf, info }, files: true } satisfies NativeEngineDef<"image">;

export default gimp;
