/**
 * Presentations → SWF (issue 32). LibreOffice 7.4 has no Flash export any more (Impress's flash_Export filter was
 * removed in LibreOffice 7.0: `soffice --convert-to swf` answers "no export filter"), so the slides of LibreOffice's
 * PDF are drawn by poppler's pdftoppm (96 dpi: a 10-inch slide is 960 pixels wide) and muxed by ffmpeg's swf muxer,
 * one JPEG frame (DefineBitsJPEG2) per slide at 1 frame per second. The SWF is a slide show that plays through and
 * loops — no per-slide stop and click navigation, no vector shapes or animations as Impress's old export had.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { NativeError, check, get, run, tool, why, type NativeCall } from "./common.ts";

/** The most slides written into one SWF. */
export const MAX_SLIDES = 500;
/** Slide resolution, dots per inch. */
const DPI = 96;

/**
 * The SWF of the PDF at `pdf` (LibreOffice's export of a presentation): one frame per page.
 * @throws NativeError ENGINE_UNAVAILABLE (no ffmpeg) | OVER_BUDGET (more than MAX_SLIDES) | CONVERSION_FAILED | TIMEOUT
 */
export async function slidesToSwf(
  call: NativeCall,
  pdf: string,
  filename: string,
): Promise<{ data: Uint8Array; pages: number }> {
  const ffmpeg = tool(call, "ffmpeg").path;
  const fail = (what: string) => (t: string) =>
    new NativeError("CONVERSION_FAILED", `${what} could not make the SWF of ${filename}: ${why(t)}`);
  const info = await run(call, "pdfinfo", [pdf]);
  check(info, "pdfinfo", fail("pdfinfo"));
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info.stdout)?.[1] ?? 0);
  if (pages > MAX_SLIDES)
    throw new NativeError("OVER_BUDGET", `${filename} has ${pages} slides; an SWF holds at most ${MAX_SLIDES}.`);
  check(
    await run(call, "pdftoppm", ["-r", String(DPI), "-jpeg", pdf, join(call.work, "slide")]),
    "pdftoppm",
    fail("pdftoppm"),
  );
  const slides = (await readdir(call.work)).filter((f) => /^slide-\d+\.jpg$/.test(f)).sort();
  if (!slides.length) throw new NativeError("CONVERSION_FAILED", `${filename}: no slide was drawn.`);
  // pdftoppm pads the numbers to the same width, so the sorted names are the slide order
  const r = await run(call, ffmpeg, [
    "-hide_banner",
    "-nostdin",
    "-y",
    "-framerate",
    "1",
    "-pattern_type",
    "glob",
    "-i",
    join(call.work, "slide-*.jpg"),
    "-c:v",
    "mjpeg",
    "-q:v",
    "3",
    "-f",
    "swf",
    join(call.work, "out.swf"),
  ]);
  check(r, "ffmpeg", fail("ffmpeg"));
  return { data: await get(call, "out.swf"), pages: slides.length };
}
