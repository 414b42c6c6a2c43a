/**
 * Poppler's pdftoppm (poppler-utils 22.12, GPL-2.0; already in the image for pdftotext): convert pdf → images and
 * thumbnail of what PDFium in the Worker cannot hold (issue 49) — a page over its 2.2 MP (A4 at 300 ppi: 8.7 MP) or a
 * PDF over its 12 MiB — with PDFium's semantics, so the task reads the same whichever row drew it: the size rule of
 * native-protocol/raster-size.ts (pixel_density, default 150; width/height with fit max/crop/scale) on the page's crop
 * box as displayed (after /Rotate), the same page selection (a sorted set, the first `limit`), the password tried as
 * owner and user password (INVALID_PASSWORD when it does not open), one RGB PNG per page.
 *
 * The PDF arrives as a file in the call's folder (`files: true`: streamed over NATIVE_MAX_BYTES), pdfinfo reads the
 * selected pages' sizes, and pdftoppm draws each page alone (`-f n -l n -singlefile`) at exactly the planned size
 * (`-scale-to-x/-y` the drawn size, `-x/-y/-W/-H` the bitmap: crop's centred window) into a PNG of the folder, answered
 * as a LocalFile (streamed back from disk on a framed call). A page over {@link NATIVE_RASTER_MAX_PAGE_PIXELS} ends
 * OVER_BUDGET before anything is drawn, and a call whose pages add up to over {@link NATIVE_RASTER_MAX_OUTPUT_BYTES}
 * ends OVER_BUDGET when it passes it. Each run is bounded by the call's address-space limit and by POPPLER_MAX_MS
 * (poppler.ts prun: a content-stream bomb ends TIMEOUT). pdftoppm fetches nothing: it reads the file and its
 * embedded fonts, and substitutes missing fonts from the image's fontconfig.
 */
import {
  NATIVE_RASTER_MAX_OUTPUT_BYTES,
  NATIVE_RASTER_MAX_PAGE_PIXELS,
  type PdfRasterRequest,
} from "../../native-protocol/pdf.ts";
import { rasterSize } from "../../native-protocol/raster-size.ts";
import { NativeError, check, fileOf, localFile, place, tool, type NativeCall, type NativeEngineDef } from "./common.ts";
import { popplerFailure, prun, pw } from "./poppler.ts";

/** A page as pdfinfo reports it: crop box size in points (before /Rotate) and /Rotate in degrees. */
interface PageBox {
  width: number;
  height: number;
  rotation: number;
}

/**
 * The sizes and rotations of pages `first`–`last` from `pdfinfo -f first -l last` ("Page    3 size: 595 x 842 pts",
 * "Page    3 rot:  90"; poppler's pdfinfo prints the crop box, as PDFium's FPDF_GetPageWidthF measures).
 */
export function pageBoxes(text: string): Map<number, PageBox> {
  const boxes = new Map<number, PageBox>();
  for (const m of text.matchAll(/^Page\s+(\d+)\s+size:\s+([\d.]+) x ([\d.]+) pts/gm))
    boxes.set(Number(m[1]), { width: Number(m[2]), height: Number(m[3]), rotation: 0 });
  for (const m of text.matchAll(/^Page\s+(\d+)\s+rot:\s+(-?\d+)/gm)) {
    const box = boxes.get(Number(m[1]));
    if (box) box.rotation = (((Number(m[2]) % 360) + 360) % 360) as number;
  }
  return boxes;
}

/** The selected pages: `pages` resolved against `count` as a sorted set (PDFium's resolvePageSet), the first `limit`. */
export function selection(req: Pick<PdfRasterRequest, "pages" | "limit">, count: number): number[] {
  const set = new Set<number>();
  for (const { from, to } of req.pages ?? [{ from: 1, to: null }]) {
    const last = to ?? count;
    const bad = from > count ? from : last > count ? last : 0;
    if (bad)
      throw new NativeError("INVALID_PAGES", `pages: page ${bad} does not exist; the document has ${count} pages.`);
    for (let p = from; p <= last; p++) set.add(p);
  }
  return [...set].sort((a, b) => a - b).slice(0, req.limit ?? Infinity);
}

/**
 * Renders the selected pages to PNG files (the pdf kind's `rasterize`).
 * @throws NativeError INVALID_PASSWORD | OPEN_FAILED | INVALID_PAGES | OVER_BUDGET | CONVERSION_FAILED | TIMEOUT
 */
async function rasterize(req: PdfRasterRequest, call: NativeCall) {
  const started = Date.now();
  tool(call, "poppler");
  const fail = (what: string) => (t: string) => popplerFailure(t, what, req.filename);
  await place(call, "in.pdf", fileOf(req.input, req.filename));
  const info = await prun(call, "pdfinfo", [...pw(req.password), "in.pdf"]);
  check(info, "pdfinfo", fail("pdfinfo"));
  const pageCount = Number(/^Pages:\s+(\d+)/m.exec(info.stdout)?.[1]);
  if (!pageCount) throw new NativeError("OPEN_FAILED", `${req.filename} has no pages pdfinfo can count.`);
  const selected = selection(req, pageCount);
  const first = selected[0]!;
  const last = selected[selected.length - 1]!;
  const sizes = await prun(call, "pdfinfo", [...pw(req.password), "-f", `${first}`, "-l", `${last}`, "in.pdf"]);
  check(sizes, "pdfinfo", fail("pdfinfo"));
  const boxes = pageBoxes(sizes.stdout);
  // every page planned and checked before the first is drawn, as PDFium does
  const plans = selected.map((n) => {
    const box = boxes.get(n);
    if (!box) throw new NativeError("OPEN_FAILED", `${req.filename}: pdfinfo gives no size for page ${n}.`);
    const turned = box.rotation === 90 || box.rotation === 270;
    const r = rasterSize(turned ? box.height : box.width, turned ? box.width : box.height, req);
    if (r.w * r.h > NATIVE_RASTER_MAX_PAGE_PIXELS)
      throw new NativeError(
        "OVER_BUDGET",
        `${req.filename}: page ${n} would be ${r.w} × ${r.h} pixels; the native rasterizer draws at most ${NATIVE_RASTER_MAX_PAGE_PIXELS / 1e6} megapixels a page. Lower pixel_density or set width/height.`,
      );
    return { n, r, turned };
  });
  const pages = [];
  let written = 0;
  for (const { n, r, turned } of plans) {
    const out = `page-${n}`;
    // -scale-to-x/-y size the page before its /Rotate is applied (pdftoppm's default), so a turned page takes them swapped
    const args = [
      ...pw(req.password),
      "-png",
      "-cropbox",
      "-f",
      `${n}`,
      "-l",
      `${n}`,
      "-singlefile",
      "-scale-to-x",
      `${turned ? r.sh : r.sw}`,
      "-scale-to-y",
      `${turned ? r.sw : r.sh}`,
      "-x",
      `${-r.ox}`,
      "-y",
      `${-r.oy}`,
      "-W",
      `${r.w}`,
      "-H",
      `${r.h}`,
      "in.pdf",
      out,
    ];
    const run = await prun(call, "pdftoppm", args);
    check(run, "pdftoppm", fail("pdftoppm"));
    const png = await localFile(call, `${out}.png`).catch(() => {
      throw new NativeError("CONVERSION_FAILED", `pdftoppm drew no image of page ${n} of ${req.filename}.`);
    });
    written += png.size;
    if (written > NATIVE_RASTER_MAX_OUTPUT_BYTES)
      throw new NativeError(
        "OVER_BUDGET",
        `${req.filename}: the pages drawn up to page ${n} take ${Math.round(written / 2 ** 20)} MiB; the native rasterizer writes at most ${NATIVE_RASTER_MAX_OUTPUT_BYTES / 2 ** 30} GiB of images a call. Select fewer pages or lower pixel_density.`,
      );
    pages.push({ page: n, width: r.w, height: r.h, png });
  }
  return { pages, pageCount, ms: Date.now() - started, wasmMemoryBytes: 0 };
}

/** The native pdftoppm (kind pdf: rasterize); it takes files (issue 49). */
export const popplerRasterEngine = {
  kind: "pdf",
  methods: { rasterize },
  files: true,
} satisfies NativeEngineDef<"pdf">;

export default popplerRasterEngine;
