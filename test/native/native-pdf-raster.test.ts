/**
 * The native twin of PDFium's rasterize (issue 49): poppler's pdftoppm (row "poppler-raster", container/engines/
 * poppler-raster.ts) takes pdf → images when PDFium hands them on (OVER_BUDGET: a page over its 2.2 MP, a PDF over its
 * 12 MiB), with PDFium's semantics.
 *
 * Oracles, none of them pdftoppm: pdfinfo's page size (points) for the pixel size; Ghostscript (png16m) and PDFium
 * itself (the Node host's engine) as independent renderers, compared with ImageMagick's `compare -metric RMSE`
 * (normalised 0–1). Thresholds: 0.06 against Ghostscript at the same density (text anti-aliased by another rasterizer:
 * measured ~0.02–0.04), 0.08 against PDFium drawn at 144 ppi and scaled up to 300 (the resampling blurs edges), and
 * 0.06 against PDFium at the same size for the requests both can draw.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isStreamed } from "../../native-protocol/frame";
import type { PdfEngine, RasterRequest } from "../../src/engines/kinds/pdf";
import type { EngineInstances } from "../../src/engines/registry";
import { heldBytes } from "../../src/operations/kit";
import type { OperationContext } from "../../src/operations/types";
import { execute } from "../../src/runner/execute";
import { nodeEngines } from "../../src/runtime/node/engines";
import { corpusPath } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { testContext } from "../support/pdf-helpers";
import { scaled } from "../support/time-scale";
import { fileInput } from "../support/disk-input";

let native: NativeServer;
let wasm: EngineInstances;
let scratch: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "native-pdf-raster-"));
  wasm = nodeEngines();
  native = await startNativeEngine();
}, scaled(120_000));

afterAll(async () => {
  await native?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The production table: the WebAssembly rows, then the native ones. */
const context = (): OperationContext => testContext({ engines: { ...wasm, ...native.engines() } });
const popplerRaster = () => native.engines()["poppler-raster"] as PdfEngine;
const pdfium = () => wasm.pdfium as PdfEngine;

let n = 0;
/** Bytes written to a scratch file; its path. */
function save(bytes: Uint8Array, ext = "png"): string {
  const path = join(scratch, `${++n}.${ext}`);
  writeFileSync(path, bytes);
  return path;
}
/** identify's width × height. */
const size = (path: string) => execFileSync("identify", ["-format", "%w %h", `${path}[0]`], { encoding: "utf8" });
/** Normalised RMSE of two images of one size (ImageMagick compare; exit 1 = they differ, which is fine). */
function rmse(a: string, b: string): number {
  const r = spawnSync("compare", ["-metric", "RMSE", a, b, "null:"], { encoding: "utf8" });
  const m = /\(([\d.e-]+)\)/.exec(r.stderr);
  if (!m) throw new Error(`compare failed: ${r.stderr}`);
  return Number(m[1]);
}
/** pdfinfo's size of `page` in points. */
function pointsOf(path: string, page: number): [number, number] {
  const out = execFileSync("pdfinfo", ["-f", `${page}`, "-l", `${page}`, path], { encoding: "utf8" });
  const m = new RegExp(`^Page\\s+${page} size:\\s+([\\d.]+) x ([\\d.]+)`, "m").exec(out)!;
  return [Number(m[1]), Number(m[2])];
}
/** Ghostscript's own render of `page` at `dpi` (crop box), as PNG. */
function ghostscript(path: string, page: number, dpi: number): string {
  const out = join(scratch, `gs-${++n}.png`);
  execFileSync("gs", [
    "-q",
    "-dSAFER",
    "-dBATCH",
    "-dNOPAUSE",
    "-sDEVICE=png16m",
    `-r${dpi}`,
    "-dUseCropBox",
    "-dTextAlphaBits=4",
    "-dGraphicsAlphaBits=4",
    `-dFirstPage=${page}`,
    `-dLastPage=${page}`,
    `-sOutputFile=${out}`,
    path,
  ]);
  return out;
}
/** `path` resized exactly to `w` × `h` (ImageMagick), for a comparison. */
function resized(path: string, w: number, h: number): string {
  const out = join(scratch, `rs-${++n}.png`);
  execFileSync("convert", [path, "-resize", `${w}x${h}!`, out]);
  return out;
}
/** One engine's pages, or a failed expectation with its error. */
async function render(engine: PdfEngine, req: Omit<RasterRequest, "input" | "filename">, rel: string) {
  const r = await engine.rasterize!({
    input: new Uint8Array(readFileSync(corpusPath(rel))),
    filename: basename(rel),
    ...req,
  });
  if (!r.ok) expect.fail(`${rel}: ${r.error.code} ${r.error.message}`);
  return r;
}

describe("pdf → png at 300 ppi: PDFium hands it on, pdftoppm draws it (issue 49)", () => {
  it(
    "an A4 corpus page at 300 ppi: poppler-raster, the size of pdfinfo's page × 300/72 (up), its pixels Ghostscript's and PDFium's",
    async () => {
      const rel = "pdf/cloudconvert-input.pdf";
      const r = await execute(
        "convert",
        { output_format: "png", pixel_density: 300, pages: "1" },
        [fileInput(corpusPath(rel))],
        context(),
      );
      expect(r.engine.name).toBe("poppler-raster");
      expect(r.out.files.map((f) => f.filename)).toEqual(["cloudconvert-input-1.png"]);
      const png = save(await heldBytes(r.out.files[0]!.data as Uint8Array));
      const [ptW, ptH] = pointsOf(corpusPath(rel), 1);
      const [w, h] = [Math.ceil((ptW * 300) / 72), Math.ceil((ptH * 300) / 72)];
      expect(size(png)).toBe(`${w} ${h}`);
      expect(w * h).toBeGreaterThan(2_200_000);
      // Ghostscript at the same density (its size may round differently by a pixel: fitted to ours)
      const gs = rmse(png, resized(ghostscript(corpusPath(rel), 1, 300), w, h));
      expect(gs).toBeLessThan(0.06);
      // PDFium within its budget (144 ppi: 1,191 × 1,684, 2.0 MP), scaled up to 300
      const low = await render(pdfium(), { pages: [{ from: 1, to: 1 }], density: 144 }, rel);
      const pdfiumUp = resized(save(low.pages[0]!.png as Uint8Array), w, h);
      expect(rmse(png, pdfiumUp)).toBeLessThan(0.08);
    },
    scaled(120_000),
  );

  it(
    "what both can draw comes out the same size as PDFium's, and the same pixels (density, max, crop, scale, /Rotate 90)",
    async () => {
      const cases: [string, Omit<RasterRequest, "input" | "filename">][] = [
        ["pdf/gotenberg-pages_12.pdf", { pages: [{ from: 2, to: 2 }], density: 100 }],
        ["pdf/gotenberg-pages_12.pdf", { pages: [{ from: 1, to: 1 }], width: 500 }],
        ["pdf/cloudconvert-input.pdf", { pages: [{ from: 1, to: 1 }], width: 400, height: 400, fit: "crop" }],
        ["pdf/cloudconvert-input.pdf", { pages: [{ from: 1, to: 1 }], width: 300, height: 200, fit: "scale" }],
        ["pdf/pdfjs-rotation.pdf", { pages: [{ from: 2, to: 2 }], density: 90 }],
        ["pdf/pdfjs-rotation.pdf", { pages: [{ from: 2, to: 2 }], width: 600, height: 300, fit: "crop" }],
      ];
      for (const [rel, req] of cases) {
        const [a, b] = [await render(popplerRaster(), req, rel), await render(pdfium(), req, rel)];
        const [pa, pb] = [a.pages[0]!, b.pages[0]!];
        const what = `${rel} ${JSON.stringify(req)}`;
        expect([pa.page, pa.width, pa.height], what).toEqual([pb.page, pb.width, pb.height]);
        const [fa, fb] = [save(await heldBytes(pa.png)), save(await heldBytes(pb.png))];
        expect(size(fa), what).toBe(`${pb.width} ${pb.height}`);
        expect(rmse(fa, fb), what).toBeLessThan(0.06);
        expect(a.pageCount).toBe(b.pageCount);
      }
    },
    scaled(120_000),
  );

  it(
    "jpg of a page over the WebAssembly ImageMagick's 24 MP (A4 at 600 ppi, 34.8 MP): re-encoded by imagemagick-native",
    async () => {
      const rel = "pdf/cloudconvert-input.pdf";
      const r = await execute(
        "convert",
        { output_format: "jpg", pixel_density: 600, pages: "2" },
        [fileInput(corpusPath(rel))],
        context(),
      );
      expect(r.engine.name).toBe("poppler-raster");
      const jpg = save(await heldBytes(r.out.files[0]!.data as Uint8Array), "jpg");
      const [ptW, ptH] = pointsOf(corpusPath(rel), 2);
      expect(execFileSync("identify", ["-format", "%m %w %h", jpg], { encoding: "utf8" })).toBe(
        `JPEG ${Math.ceil((ptW * 600) / 72)} ${Math.ceil((ptH * 600) / 72)}`,
      );
    },
    scaled(180_000),
  );

  it(
    "over the stream threshold (lowered to 64 KiB): the PDF goes to pdftoppm's folder as a stream, the pages come back as streams",
    async () => {
      const over = 64 * 1024;
      const nat = native.engines({ streamOver: 4096 });
      const sent: boolean[] = [];
      const inner = nat["poppler-raster"] as PdfEngine;
      const recorder: PdfEngine = {
        rasterize: (req) => {
          sent.push(isStreamed(req.input));
          return inner.rasterize!(req);
        },
      };
      const ctx = testContext({
        engines: { ...wasm, ...nat, "poppler-raster": recorder },
        settings: { nativeStreamBytes: over } as never,
      });
      const rel = "pdf/pdfjs-tracemonkey.pdf";
      const r = await execute(
        "convert",
        { output_format: "png", pages: "1-3", engine: "poppler-raster" },
        [fileInput(corpusPath(rel))],
        ctx,
      );
      expect(r.engine.name).toBe("poppler-raster");
      expect(sent).toEqual([true]);
      expect(r.out.files.map((f) => f.filename)).toEqual([
        "pdfjs-tracemonkey-1.png",
        "pdfjs-tracemonkey-2.png",
        "pdfjs-tracemonkey-3.png",
      ]);
      expect(r.out.files.some((f) => isStreamed(f.data))).toBe(true);
      for (const [i, f] of r.out.files.entries()) {
        const data = f.data as Uint8Array | { stream: ReadableStream<Uint8Array>; length: number };
        const [ptW, ptH] = pointsOf(corpusPath(rel), i + 1);
        expect(size(save(await heldBytes(data)))).toBe(`${Math.ceil((ptW * 150) / 72)} ${Math.ceil((ptH * 150) / 72)}`);
      }
    },
    scaled(120_000),
  );

  it(
    "pages and limit as PDFium's (a sorted set, the first N); a page past the end is INVALID_PAGES",
    async () => {
      const rel = "pdf/gotenberg-pages_12.pdf";
      const r = await render(
        popplerRaster(),
        {
          pages: [
            { from: 5, to: 6 },
            { from: 2, to: 2 },
            { from: 11, to: null },
          ],
          limit: 4,
          density: 20,
        },
        rel,
      );
      expect(r.pages.map((p) => p.page)).toEqual([2, 5, 6, 11]);
      const bad = await popplerRaster().rasterize!({
        input: new Uint8Array(readFileSync(corpusPath(rel))),
        filename: "x.pdf",
        pages: [{ from: 13, to: 13 }],
      });
      expect(bad.ok ? "ok" : bad.error.code).toBe("INVALID_PAGES");
    },
    scaled(60_000),
  );

  it(
    "an encrypted PDF: drawn with its password, INVALID_PASSWORD without or with a wrong one",
    async () => {
      const rel = "pdf-encrypted/qpdf-enc-XI-R6-V5-U_view-O_master.pdf";
      const ok = await render(popplerRaster(), { pages: [{ from: 1, to: 1 }], density: 30, password: "view" }, rel);
      expect(ok.pages).toHaveLength(1);
      for (const password of [undefined, "wrong"]) {
        const r = await popplerRaster().rasterize!({
          input: new Uint8Array(readFileSync(corpusPath(rel))),
          filename: "locked.pdf",
          password,
          density: 30,
        });
        expect(r.ok ? "ok" : r.error.code).toBe("INVALID_PASSWORD");
      }
    },
    scaled(60_000),
  );

  it("a page over the native 128 MP ends OVER_BUDGET naming the limit, before anything is drawn", async () => {
    const r = await popplerRaster().rasterize!({
      input: new Uint8Array(readFileSync(corpusPath("pdf/cloudconvert-input.pdf"))),
      filename: "a4.pdf",
      pages: [{ from: 1, to: 1 }],
      density: 2400,
    });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe("OVER_BUDGET");
      expect(r.error.message).toMatch(/128 megapixels/);
    }
  });

  it(
    "broken and hostile corpus PDFs end with a code, never a crash or a hang",
    async () => {
      // expected code, or "any" for a damaged file poppler repairs (it may draw it; if not, a code)
      const cases: [string, string][] = [
        ["broken/ocrmypdf-invalid.pdf", "OPEN_FAILED"], // 44 bytes, no trailer
        ["broken/ocrmypdf-hugemono.pdf", "OVER_BUDGET"], // an 8400 pt page: 17,500² px at 150 ppi, 306 MP
        ["broken/pdfjs-bomb_giant.pdf", "TIMEOUT"], // 450 MB of content-stream operators: stopped at POPPLER_MAX_MS
        ["broken/pdfjs-scan-bad.pdf", "any"],
        ["broken/qpdf-append-xref-loop.pdf", "any"],
      ];
      for (const [rel, want] of cases) {
        const started = Date.now();
        // the native row itself (PDFium, first in the table, draws the bomb quickly: its own sweep is pdf-broken.test.ts)
        const answer = await popplerRaster().rasterize!({
          input: new Uint8Array(readFileSync(corpusPath(rel))),
          filename: basename(rel),
          pages: [{ from: 1, to: 1 }],
        });
        const r = answer.ok ? { code: "ok", message: "" } : answer.error;
        if (want === "any") expect(["ok", "OPEN_FAILED", "CONVERSION_FAILED"], rel).toContain(r.code);
        else expect(r.code, `${rel}: ${r.message}`).toBe(want);
        if (want === "OVER_BUDGET") expect(r.message).toMatch(/128 megapixels/);
        expect(Date.now() - started, rel).toBeLessThan(scaled(90_000));
      }
    },
    scaled(400_000),
  );
});
