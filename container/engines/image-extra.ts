/**
 * Image formats native ImageMagick 6 neither reads nor writes, turned into and out of PNG around it
 * (issue 34; imagemagick.ts calls these):
 * - icns in: icnsutils' icns2png takes every icon of the family out; the largest is the picture;
 * - icns out: the picture padded (transparent) to the smallest square icon size that holds it, at most
 *   512×512 (smaller pictures are not enlarged), written by png2icns;
 * - odd in: an OpenDocument Drawing, its first page exported as PDF by LibreOffice Draw through the office
 *   pool (documents loaded hidden, macros never run, links not updated: container/office) and rendered by
 *   Ghostscript; a zip that would expand beyond the office limit is refused unopened;
 * - odd out: odd.ts's drawing of the PNG, one page the picture's size;
 * - xps → svg: MuPDF's mutool draws the first page as SVG (text as glyph outlines), the page's size in points;
 *   mutool reads the page's parts from the package only.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { officePool, refuseZipBomb } from "./libreoffice.ts";
import { bytesSource } from "../lib/zip-edit.ts";
import { oddOfPng } from "./odd.ts";
import { which } from "../tools.ts";
import { renderArgs } from "./postscript.ts";
import type { LocalFile } from "../../native-protocol/frame.ts";
import { NativeError, check, get, place, put, run, tool, why, type NativeCall } from "./common.ts";

/** Square icon sizes png2icns writes (icnsutils 0.8: is32/il32/ih32/it32/ic08/ic09). */
const ICNS_SIZES = [16, 32, 48, 128, 256, 512];

/** Writes the PNG of an icns (its largest icon) as in.bin in the call's folder. */
export async function icnsToPng(call: NativeCall, data: Uint8Array | LocalFile): Promise<void> {
  await place(call, "in.icns", data);
  await run(call, "mkdir", ["icons"]);
  const r = await run(call, tool(call, "icnsutils").path, ["-x", "-o", "icons", "in.icns"]);
  check(r, "icns2png", (t) => new NativeError("OPEN_FAILED", `icns2png could not read this icns: ${why(t)}`));
  // icns2png names each icon <stem>_<w>x<h>x<depth>.png
  const icons = (await readdir(join(call.work, "icons")))
    .map((n) => ({ n, w: Number(/_(\d+)x(\d+)x\d+\.png$/.exec(n)?.[1] ?? 0) }))
    .filter((i) => i.w > 0)
    .sort((a, b) => b.w - a.w);
  if (!icons.length) throw new NativeError("OPEN_FAILED", "This icns holds no icon icns2png can take out.");
  await put(call, "in.bin", await get(call, join("icons", icons[0]!.n)));
}

/** The icns of the PNG `name` (in the call's folder) of `width`×`height`: answers its bytes and icon size. */
export async function pngToIcns(
  call: NativeCall,
  name: string,
  width: number,
  height: number,
): Promise<{ data: Uint8Array; size: number }> {
  const size = ICNS_SIZES.find((s) => s >= Math.max(width, height)) ?? 512;
  const box = `${size}x${size}`;
  const im = tool(call, "imagemagick").path;
  const r = await run(call, im, [
    `png:${name}`,
    "-resize",
    `${box}>`,
    "-background",
    "none",
    "-gravity",
    "center",
    "-extent",
    box,
    "png32:icon.png",
  ]);
  check(r, "ImageMagick", (t) => new NativeError("CONVERSION_FAILED", `ImageMagick: ${why(t)}`));
  tool(call, "icnsutils");
  const p = await run(call, which("png2icns") ?? "png2icns", [`${name}.icns`, "icon.png"]);
  check(p, "png2icns", (t) => new NativeError("CONVERSION_FAILED", `png2icns could not write the icns: ${why(t)}`));
  return { data: await get(call, `${name}.icns`), size };
}

/** Renders an odd's first page (LibreOffice Draw → PDF → Ghostscript) as in.bin (PNG) at `dpi`. */
export async function oddToPng(call: NativeCall, data: Uint8Array, dpi: number): Promise<void> {
  tool(call, "libreoffice");
  const expanded = await refuseZipBomb(bytesSource(data), "This odd");
  if (expanded === null)
    throw new NativeError("OPEN_FAILED", "This odd is not an OpenDocument Drawing (not a zip package).");
  const input = await put(call, "in.odg", data);
  try {
    await officePool(call.root).convert({
      input,
      output: join(call.work, "in.pdf"),
      format: "pdf",
      pages: "1",
      timeoutMs: call.timeoutMs,
    });
  } catch (err) {
    throw new NativeError("OPEN_FAILED", `LibreOffice Draw could not open this odd: ${(err as Error).message}`);
  }
  const g = await run(call, tool(call, "ghostscript").path, renderArgs("in.pdf", "in.bin", dpi));
  check(
    g,
    "Ghostscript",
    (t) => new NativeError("CONVERSION_FAILED", `Ghostscript could not render the odd: ${why(t)}`),
  );
}

/** The odd of the PNG `name` in the call's folder. */
export async function pngToOdd(call: NativeCall, name: string, width: number, height: number, dpi: number) {
  return oddOfPng(await get(call, name), width, height, dpi);
}

/** The first page of an XPS as SVG by mutool (the image kind's `run` output for xps → svg). */
export async function xpsToSvg(call: NativeCall, data: Uint8Array | LocalFile) {
  await place(call, "in.xps", data);
  const r = await run(call, tool(call, "mupdf").path, ["convert", "-F", "svg", "-o", "page.svg", "in.xps", "1"]);
  check(r, "mutool", (t) => new NativeError("OPEN_FAILED", `mutool could not read this xps: ${why(t)}`));
  const svg = await get(call, "page1.svg");
  const head = new TextDecoder().decode(svg.subarray(0, 400));
  const [w, h] = (/viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(head) ?? []).slice(1).map(Number);
  return { outputs: [{ data: svg, format: "svg", width: w ?? 0, height: h ?? 0, frames: 1 }], wasmMemoryBytes: 0 };
}
