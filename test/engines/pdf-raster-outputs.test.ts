/**
 * pdf → bmp, gif, tiff, ico, psd (issue 32): PDFium renders the page, the WebAssembly ImageMagick re-encodes it.
 * Oracles: identify (format, size) and pdftoppm's rendering of the same page compared by ink (raster-oracle).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { convertOfficePdfToImage, convertPdfToImage } from "../../src/operations/pdf/rasterize";
import { DEFAULT_RASTER_BUDGET } from "../../src/engines/pdfium/types";
import { nodeImageMagickEngine } from "../../src/runtime/node/imagemagick";
import { nodePdfiumEngine } from "../../src/runtime/node/pdfium";
import { CORPUS, corpusInput, dataOf, testContext, tmpFile } from "../support/pdf-helpers";
import { matches, type Raster } from "../support/raster-oracle";

const ctx = testContext({ engines: { pdfium: nodePdfiumEngine(), imagemagick: nodeImageMagickEngine() } });
const PDF = "pdf/gotenberg-pages_12.pdf";

/** Any image (first frame) as raw RGB through ImageMagick's `convert … ppm:-`. */
function rgb(path: string): Raster {
  const ppm: Uint8Array = execFileSync("convert", [`${path}[0]`, "-flatten", "-depth", "8", "ppm:-"], {
    maxBuffer: 1 << 28,
  });
  const header = new TextDecoder().decode(ppm.subarray(0, 40)).match(/^P6\s+(\d+)\s+(\d+)\s+255\s/)!;
  return { w: +header[1]!, h: +header[2]!, px: ppm.subarray(header[0].length) };
}

describe("pdf → the catalogue's other raster outputs", () => {
  it.each([
    ["bmp", "BMP"],
    ["gif", "GIF"],
    ["tiff", "TIFF"],
    ["psd", "PSD"],
  ])("%s: page 2 at 72 ppi, the page pdftoppm renders", async (out, magick) => {
    const r = await convertPdfToImage.run(
      [corpusInput(PDF)],
      { output_format: out, pages: "2", pixel_density: 72 },
      ctx,
    );
    const files = r.files;
    expect(files.map((f) => f.filename)).toEqual([`gotenberg-pages_12-2.${out}`]);
    const path = tmpFile(dataOf(files[0]!), out);
    const ref = rgb(
      tmpFile(execFileSync("pdftoppm", ["-r", "72", "-f", "2", "-l", "2", "-singlefile", `${CORPUS}/${PDF}`]), "ppm"),
    );
    expect(execFileSync("identify", ["-format", "%m %w %h\n", path], { encoding: "utf8" }).split("\n")[0]).toBe(
      `${magick} ${ref.w} ${ref.h}`,
    );
    const m = matches(rgb(path), ref);
    expect(m.ok, m.why).toBe(true);
  });

  it("ico: each page fitted inside 256 × 256 (ICO's limit)", async () => {
    const r = await convertPdfToImage.run([corpusInput(PDF)], { output_format: "ico", pages: "1" }, ctx);
    const path = tmpFile(dataOf(r.files[0]!), "ico");
    const [fmt, w, h] = execFileSync("identify", ["-format", "%m %w %h", path], { encoding: "utf8" }).split(" ");
    expect(fmt).toBe("ICO");
    expect(Math.max(Number(w), Number(h))).toBe(256);
  });

  it("a page over PDFium's page budget at 150 ppi: refused for a pdf (native's), drawn at the density that fits for an office document's PDF, the pixels pdftoppm draws at that density, with a warning", async () => {
    const scan = "scans/ocrmypdf-multipage.pdf"; // page 2: 2160 × 2160 pt, 20 MP at 150 ppi
    const refused = await convertPdfToImage
      .run([corpusInput(scan)], { output_format: "png", pages: "2" }, ctx)
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "OVER_BUDGET" });
    const r = await convertOfficePdfToImage.run([corpusInput(scan)], { output_format: "png", pages: "2" }, ctx);
    const warnings = (r.extra as { warnings?: string[] }).warnings ?? [];
    const density = Number(/drawn at (\d+) ppi/.exec(warnings.join(" "))?.[1]);
    expect(density).toBeGreaterThan(40);
    const path = tmpFile(dataOf(r.files[0]!), "png");
    const ref = rgb(
      tmpFile(
        execFileSync("pdftoppm", ["-r", String(density), "-f", "2", "-l", "2", "-singlefile", `${CORPUS}/${scan}`], {
          maxBuffer: 64 << 20,
        }),
        "ppm",
      ),
    );
    const [w, h] = execFileSync("identify", ["-format", "%w %h", path], { encoding: "utf8" }).split(" ").map(Number);
    expect([w, h]).toEqual([ref.w, ref.h]);
    expect(w! * h!).toBeLessThanOrEqual(DEFAULT_RASTER_BUDGET.maxPagePixels);
    // the scanned photo page, downsampled by two renderers: the same picture (RMSE, ImageMagick's compare)
    const refPng = execFileSync(
      "pdftoppm",
      ["-png", "-r", String(density), "-f", "2", "-l", "2", "-singlefile", `${CORPUS}/${scan}`],
      { maxBuffer: 64 << 20 },
    );
    const cmp = spawnSync("compare", ["-metric", "RMSE", path, tmpFile(refPng, "png"), "null:"], { encoding: "utf8" });
    expect(Number(/\(([\d.e-]+)\)/.exec(cmp.stderr)?.[1]), cmp.stderr).toBeLessThan(0.08);
    // an asked density is kept, and refused over the budget
    await expect(
      convertOfficePdfToImage.run([corpusInput(scan)], { output_format: "png", pages: "2", pixel_density: 150 }, ctx),
    ).rejects.toMatchObject({ code: "OVER_BUDGET" });
  });
});
