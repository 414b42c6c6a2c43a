/**
 * Issue 47: camera raws in the WebAssembly ImageMagick (its LibRaw; src/engines/imagemagick/raw.ts). The oracle is
 * Debian's LibRaw (`dcraw_emu -w -o 1 -q 3 -T`, the native row's own command, container/engines/libraw.ts) on the
 * same file: where it decodes a file and the WebAssembly engine does too, the two pictures have the same size and
 * agree to a PSNR of ≥ 40 dB (Debian's `compare`). Every raw the WebAssembly engine cannot take — LibRaw's errors,
 * or over the Worker's memory budget — ends in a hand-off code (UNSUPPORTED, OVER_BUDGET), so routing gives it to
 * the native LibRaw; never OPEN_FAILED from this engine. The files are the corpus's and test/fixtures' raws
 * (exiftool's and rawpy's samples: some are stripped of their sensor data).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createImageMagickEngine } from "../../src/engines/imagemagick/engine";
import { loadImageMagickWasm } from "../../src/runtime/node/imagemagick";
import { RAW_FORMATS } from "../../native-protocol/image";
import { enginesFor } from "../../src/engines/routing";
import { CONVERT_PAIRS } from "../../src/operations/image/convert";
import type { ImageFormat } from "../../src/engines/kinds/image";
import { BROWSER_IMAGE_BUDGET } from "../../src/runtime/browser/budgets";
import { CORPUS } from "../support/corpus";
import { oracle } from "../support/image-oracle";
import { FIXTURES } from "../support/catalogue-fixtures";
import { IDENTIFY_NAME, identify } from "../support/image-helpers";
import { scaled } from "../support/time-scale";

const RAWS = [
  ...[
    "exiftool-CanonRaw.cr2",
    "exiftool-DNG.dng",
    "exiftool-Nikon.nef",
    "rawpy-RAW_KODAK_DC50.KDC",
    "tika-testARW.arw",
  ].map((f) => join(CORPUS, "raw", f)),
  ...[
    "exiftool-CanonRaw.cr3",
    "exiftool-CanonRaw.crw",
    "exiftool-FujiFilm.raf",
    "exiftool-KyoceraRaw.raw",
    "exiftool-Minolta.mrw",
    "exiftool-Panasonic.rw2",
    "exiftool-Sigma.x3f",
    "exiv2-Canon-R6-pruned.CR3",
    "filetype-fixture.orf",
    "tika-testPEF.pef",
  ].map((f) => join(FIXTURES, "image", f)),
];
/** Measured 2026-11-29 (magick-wasm 0.0.43's LibRaw): the raws it decodes; the others it hands to the native row. */
const DECODED_IN_WASM = [
  "exiftool-DNG.dng",
  "exiftool-Nikon.nef",
  "rawpy-RAW_KODAK_DC50.KDC",
  "exiftool-Panasonic.rw2",
];
const HAND_OFF = ["UNSUPPORTED", "OVER_BUDGET"];

const dir = mkdtempSync(join(tmpdir(), "raw-wasm-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const formatOf = (path: string) => basename(path).split(".").pop()!.toLowerCase() as ImageFormat;

/** Debian's LibRaw on `path`: its picture as PNG (by Debian's convert), or null when it cannot decode the file. */
function dcrawPng(path: string): Uint8Array | null {
  const input = join(dir, basename(path));
  writeFileSync(input, readFileSync(path));
  spawnSync("dcraw_emu", ["-w", "-o", "1", "-q", "3", "-T", "-Z", `${input}.tiff`, input], { timeout: 60_000 });
  if (!existsSync(`${input}.tiff`)) return null;
  return new Uint8Array(execFileSync("convert", [`${input}.tiff`, "png:-"], { maxBuffer: 1 << 30 }));
}

function psnr(a: Uint8Array, b: Uint8Array): number {
  const [pa, pb] = [join(dir, `a-${Math.random()}.png`), join(dir, `b-${Math.random()}.png`)];
  writeFileSync(pa, a);
  writeFileSync(pb, b);
  const r = spawnSync("compare", ["-metric", "PSNR", pa, pb, "null:"]).stderr.toString().trim();
  return r === "inf" ? Infinity : Number(r);
}

// a browser page's budget (no 128 MB isolate) and the Worker's default one
const browser = createImageMagickEngine({ loadWasm: () => loadImageMagickWasm(), budget: BROWSER_IMAGE_BUDGET });
const worker = createImageMagickEngine({ loadWasm: () => loadImageMagickWasm() });
const toPng = (engine: typeof worker, path: string) =>
  engine.run({
    op: "convert",
    input: new Uint8Array(readFileSync(path)),
    inputFormat: formatOf(path),
    outputFormat: "png",
    options: {},
  });

describe("camera raws in WebAssembly (LibRaw in magick-wasm)", () => {
  it("routing: every raw goes to the WebAssembly engine first, the native LibRaw after; raw → heic stays native", () => {
    for (const f of RAW_FORMATS) {
      const names = (output: string) =>
        enginesFor({ kind: "image", operation: "convert", input: f, output }).map((e) => e.name);
      expect(names("png")).toEqual(["imagemagick", "libraw"]);
      expect(names("pdf")).toEqual(["imagemagick", "libraw"]);
      expect(names("heic")).toEqual(["libraw"]);
      expect(CONVERT_PAIRS.filter((p) => p.input === f).length).toBeGreaterThanOrEqual(13);
    }
  });

  it.each(RAWS.map((p) => [basename(p), p]))(
    "%s: the same picture as Debian's LibRaw, or handed to the native row",
    async (name, path) => {
      const oracle = dcrawPng(path);
      const r = await toPng(browser, path);
      if (DECODED_IN_WASM.includes(name)) {
        if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
        expect(oracle, "Debian's LibRaw decodes it too").not.toBeNull();
        const [ours, theirs] = [identify(r.outputs[0]!.data), identify(oracle!)];
        expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
        expect(psnr(r.outputs[0]!.data, oracle!)).toBeGreaterThanOrEqual(40);
      } else {
        expect(r.ok, "a raw this LibRaw cannot read is handed on").toBe(false);
        if (!r.ok) expect(HAND_OFF).toContain(r.error.code);
      }
    },
    scaled(60_000),
  );

  it("the Worker's budget takes a small raw and hands a 6 MP one to the native row (OVER_BUDGET), naming the memory", async () => {
    const small = await toPng(worker, join(CORPUS, "raw", "rawpy-RAW_KODAK_DC50.KDC"));
    expect(small.ok).toBe(true);
    const big = await toPng(worker, join(CORPUS, "raw", "exiftool-Nikon.nef"));
    expect(big.ok).toBe(false);
    if (!big.ok) {
      expect(big.error.code).toBe("OVER_BUDGET");
      expect(big.error.message).toMatch(/engine memory/);
    }
  });

  it("after LibRaw throws on a truncated file the engine starts afresh and decodes the next raw", async () => {
    const bad = await toPng(worker, join(FIXTURES, "image", "exiftool-CanonRaw.crw"));
    expect(bad.ok).toBe(false);
    const good = await toPng(worker, join(CORPUS, "raw", "rawpy-RAW_KODAK_DC50.KDC"));
    expect(good.ok).toBe(true);
  });

  const kdc = join(CORPUS, "raw", "rawpy-RAW_KODAK_DC50.KDC");
  const outputs = CONVERT_PAIRS.filter(
    (p) =>
      p.input === "kdc" &&
      enginesFor({ kind: "image", operation: "convert", input: "kdc", output: p.output })[0]?.name === "imagemagick",
  ).map((p) => p.output as ImageFormat);

  it("the Kodak DC50 raw converts to every output the WebAssembly row lists for it", () => {
    expect(outputs.sort()).toEqual(
      ["avif", "bmp", "eps", "gif", "ico", "jpg", "jxl", "odd", "pdf", "png", "ps", "psd", "tiff", "webp"].sort(),
    );
  });

  it.each(outputs)(
    "kdc → %s: outside tools (identify, Ghostscript, ffmpeg, pdfinfo, unzip) see the picture's size",
    async (to) => {
      const r = await worker.run({
        op: "convert",
        input: new Uint8Array(readFileSync(kdc)),
        inputFormat: "kdc",
        outputFormat: to,
        options: {},
        // issue 49: LibRaw's 30 B/px and GIF's dither cache estimate this GIF at ~103 MB, over the isolate's 100 MB (the
        // native row takes it in production); what is tested is the picture, so the budget is raised for the call
        ...(to === "gif" ? { budget: { maxMemoryBytes: 120e6 } } : {}),
      });
      if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
      const seen = oracle(r.outputs[0]!.data, to);
      expect(seen.format).toBe(IDENTIFY_NAME[to] ?? to.toUpperCase());
      // ICO is capped at 256 px on its larger side (formats.ts)
      const [w, h] = to === "ico" ? [256, 171] : [768, 512];
      expect(Math.abs(seen.width - w)).toBeLessThanOrEqual(1);
      expect(Math.abs(seen.height - h)).toBeLessThanOrEqual(1);
    },
    scaled(60_000),
  );

  it(
    "kdc → odd: LibreOffice opens the drawing as one page the picture's size at 96 ppi, the picture on it",
    async () => {
      const r = await worker.run({
        op: "convert",
        input: new Uint8Array(readFileSync(kdc)),
        inputFormat: "kdc",
        outputFormat: "odd",
        options: {},
      });
      if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
      const odd = join(dir, "drawing.odd");
      writeFileSync(odd, r.outputs[0]!.data);
      execFileSync(
        "soffice",
        [`-env:UserInstallation=file://${join(dir, "lo")}`, "--headless", "--convert-to", "pdf", "--outdir", dir, odd],
        { timeout: 120_000, stdio: "ignore" },
      );
      const info = execFileSync("pdfinfo", [join(dir, "drawing.pdf")], { encoding: "utf8" });
      const [, w, h] = /^Page size:\s+([\d.]+) x ([\d.]+) pts/m.exec(info)!;
      expect([Math.round(Number(w)), Math.round(Number(h))]).toEqual([576, 384]); // 768×512 px at 96 ppi
      const images = execFileSync("pdfimages", ["-list", join(dir, "drawing.pdf")], { encoding: "utf8" });
      expect(images.split("\n")[2]!.trim().split(/\s+/).slice(3, 5)).toEqual(["768", "512"]);
    },
    scaled(180_000),
  );

  it(
    "hostile: a DNG whose raw image claims 60000×40000 is handed on at once; one claiming 20000×20000 decodes at the " +
      "sensor's real size, as Debian's LibRaw does (no 400 MP allocation)",
    async () => {
      const lie = (w: number, h: number) => {
        const p = join(dir, `lie-${w}x${h}.dng`);
        writeFileSync(p, readFileSync(join(CORPUS, "raw", "exiftool-DNG.dng")));
        execFileSync("exiftool", [
          "-q",
          "-overwrite_original",
          `-SubIFD:ImageWidth=${w}`,
          `-SubIFD:ImageHeight=${h}`,
          p,
        ]);
        return p;
      };
      const huge = lie(60_000, 40_000);
      const t0 = performance.now();
      const r = await toPng(browser, huge);
      expect(performance.now() - t0).toBeLessThan(scaled(5_000));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(HAND_OFF).toContain(r.error.code);
      const big = lie(20_000, 20_000);
      const oracle = dcrawPng(big);
      const ok = await toPng(browser, big);
      if (!ok.ok) throw new Error(`${ok.error.code}: ${ok.error.message}`);
      const [ours, theirs] = [identify(ok.outputs[0]!.data), identify(oracle!)];
      expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
      expect(ours.width * ours.height).toBeLessThan(24_000_000);
    },
    scaled(60_000),
  );
});
