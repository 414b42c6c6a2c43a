/**
 * Issue 34: camera raw photos through the real runner and the engine table — the native LibRaw
 * engine (container/engines/libraw.ts: dcraw_emu demosaics with the camera's white balance and
 * orientation, native ImageMagick writes). Oracles: corpus/facts.json's dcraw 9.28 decode size (the
 * sensor's, not the embedded thumbnail's), identify, exiftool, and LibRaw's own dcraw_emu output of
 * the same file compared pixel by pixel; ppm, tga and jp2 inputs against identify of the source. Issue 49: the Kodak raw
 * streamed (thresholds lowered: the corpus has no raw over 64 MiB, its full-size raws were left out of its sources)
 * reaches LibRaw as a file in its call's folder, LibRaw's TIFF goes to ImageMagick as a file, the output comes back as a
 * stream; and a generated 72 MB DNG (test/support/dng.ts: 36 MP of 16-bit CFA samples, exiftool's DNG) over 64 MiB at
 * the production thresholds, its demosaiced scene read back with identify.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimedBy } from "../support/claims";
import { corpusPath, fact, gsPngArgs, type Fact } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { execute } from "../../src/runner/execute";
import { nodeEngines } from "../../src/runtime/node/engines";
import type { EngineInstances } from "../../src/engines/registry";
import { bytesInput, corpusInput, expectTaskError, testContext, tmpFile } from "../support/pdf-helpers";
import { imageStats as identify, rmse } from "../support/native-oracles";
import { scaled } from "../support/time-scale";
import { isStreamed } from "../../native-protocol/frame";
import { heldBytes } from "../../src/operations/kit";
import { writeRampDng } from "../support/dng";

let native: NativeServer;
let wasm: EngineInstances;
const TMP = mkdtempSync(join(tmpdir(), "native-raw-"));
beforeAll(async () => {
  wasm = nodeEngines(["cloudflare", "imagemagick"]);
  native = await startNativeEngine();
}, scaled(120_000));
afterAll(async () => {
  await native?.stop();
  rmSync(TMP, { recursive: true, force: true });
});

const full = () => testContext({ engines: { ...wasm, ...native.engines() } });

const RAWS = [
  "raw/exiftool-DNG.dng",
  "raw/exiftool-Nikon.nef",
  "raw/rawpy-RAW_KODAK_DC50.KDC",
  "raw/exiftool-CanonRaw.cr2",
  "raw/tika-testARW.arw",
];

describe("camera raw → images with LibRaw (native)", () => {
  it("the engine table sends every raw format of the catalogue to libraw, for every listed output (after the WebAssembly LibRaw, issue 47)", () => {
    const formats = ["3fr", "arw", "cr2", "cr3", "crw", "dcr", "dng", "erf", "mos", "mrw", "nef", "orf", "pef"];
    for (const input of [...formats, "raf", "raw", "rw2", "x3f"])
      for (const output of ["jpg", "png", "tiff", "webp", "gif", "bmp", "ico", "psd"])
        expect(claimedBy("convert", input, output), `${input} → ${output}`).toEqual(["imagemagick", "libraw"]);
  });

  for (const rel of RAWS) {
    // the corpus facts of a raw, as read here
    const f = fact(rel) as Fact & {
      dcraw_decode_rc: number;
      dcraw_decode_message?: string;
      dcraw_decoded_wh?: [number, number];
      dcraw_decoded_stddev: number;
    };
    if (f.dcraw_decode_rc !== 0) {
      it(`${rel}: dcraw cannot decode it (${f.dcraw_decode_message}) → OPEN_FAILED naming LibRaw`, async () => {
        const err = await expectTaskError(
          () => execute("convert", { output_format: "jpg" }, [corpusInput(rel)], full()),
          "OPEN_FAILED",
        );
        expect(err.message).toMatch(/LibRaw/);
      });
      continue;
    }
    const [w, h] = f.dcraw_decoded_wh as [number, number];
    it(`${rel} → png and jpg: the demosaiced sensor image, ${w}×${h} (dcraw 9.28's decode), matching dcraw_emu's own output`, async () => {
      const r = await execute("convert", { output_format: "png" }, [corpusInput(rel)], full());
      // issue 47: a raw small enough for the Worker's memory budget (the 0.4 MP Kodak) is decoded by the WebAssembly
      // LibRaw; the others are over it and go to the native LibRaw. The same oracle holds for both.
      expect(["imagemagick", "libraw"]).toContain(r.engine.name);
      const png = tmpFile(r.out.files[0]!, "png");
      const id = identify(png);
      expect(id).toMatchObject({ format: "PNG", width: w, height: h });
      // LibRaw's own output of the same file, as its dcraw_emu writes it with the camera's white balance
      const src = join(TMP, rel.split("/").pop()!);
      copyFileSync(corpusPath(rel), src);
      execFileSync("dcraw_emu", ["-w", "-o", "1", "-q", "3", "-T", "-Z", `${src}.tiff`, src]);
      expect(rmse(png, `${src}.tiff`)).toBeLessThan(0.002);
      const jpg = await execute("convert", { output_format: "jpg", quality: 90 }, [corpusInput(rel)], full());
      const jid = identify(tmpFile(jpg.out.files[0]!, "jpg"));
      expect(jid).toMatchObject({ format: "JPEG", width: w, height: h });
      if (f.dcraw_decoded_stddev > 0) expect(jid.stddev).toBeGreaterThan(f.dcraw_decoded_stddev / 4);
    });
  }

  it("the raw's orientation is applied: the DNG with Orientation 6 (rotate 90° CW) comes out portrait", async () => {
    const src = join(TMP, "rotated.dng");
    copyFileSync(corpusPath("raw/exiftool-DNG.dng"), src);
    execFileSync("exiftool", ["-q", "-overwrite_original", "-IFD0:Orientation#=6", src]);
    expect(execFileSync("exiftool", ["-s3", "-n", "-IFD0:Orientation", src], { encoding: "utf8" }).trim()).toBe("6");
    const r = await execute(
      "convert",
      { output_format: "tiff" },
      [bytesInput("rotated.dng", readFileSync(src))],
      full(),
    );
    const [w, h] = fact("raw/exiftool-DNG.dng").dcraw_decoded_wh as [number, number];
    expect(identify(tmpFile(r.out.files[0]!, "tiff"))).toMatchObject({ width: h, height: w });
  });

  it("width/height and every listed output format are honoured after demosaicing", async () => {
    for (const [out, magick] of [
      ["webp", "WEBP"],
      ["gif", "GIF"],
      ["bmp", "BMP"],
      ["psd", "PSD"],
      ["ico", "ICO"],
    ] as const) {
      const r = await execute(
        "convert",
        { output_format: out, width: 200 },
        [corpusInput("raw/exiftool-Nikon.nef")],
        full(),
      );
      const id = identify(tmpFile(r.out.files[0]!, out));
      expect(id.format, out).toBe(magick);
      expect(id.width, out).toBe(200);
      expect(id.height, out).toBe(Math.round((200 * 2014) / 3039));
    }
  });

  it("a thumbnail of a raw is made from the demosaiced image", async () => {
    const r = await execute(
      "thumbnail",
      { output_format: "png", width: 300, height: 300 },
      [corpusInput("raw/exiftool-Nikon.nef")],
      full(),
    );
    expect(r.engine.name).toBe("libraw");
    expect(identify(tmpFile(r.out.files[0]!, "png"))).toMatchObject({ width: 300, height: 199 });
  });
});

describe("ppm, tga, jp2 and psd inputs with native ImageMagick", () => {
  for (const rel of [
    "images/pillow-hopper.ppm",
    "images/pillow-tga_id_field.tga",
    "images/pillow-test-card-lossy-tiled.jp2",
    "images/pillow-hopper.psd",
  ]) {
    it(`${rel} → png, webp: the source's size`, async () => {
      const src = identify(corpusPath(rel));
      for (const out of ["png", "webp"]) {
        // ppm and psd are the WebAssembly engine's first (issue 47): pinned here, the native row's reading is tested
        const r = await execute(
          "convert",
          { output_format: out, engine: "imagemagick-native" },
          [corpusInput(rel)],
          full(),
        );
        expect(r.engine.name).toBe("imagemagick-native");
        const id = identify(tmpFile(r.out.files[0]!, out));
        expect(id).toMatchObject({ width: src.width, height: src.height });
        // a PSD's first image is its merged composite
        expect(rmse(tmpFile(r.out.files[0]!, out), `${corpusPath(rel)}[0]`)).toBeLessThan(out === "png" ? 0.001 : 0.05);
      }
    });
  }
});

describe("PostScript in and out (Ghostscript -dSAFER renders; eps/ps/pdf written around ImageMagick's pixels)", () => {
  /** What Ghostscript (the oracle, run here) renders of a PostScript file at 72 dpi, bounding box cropped: its path. */
  const gsRender = (ps: string) => {
    const png = join(TMP, `gs-${Math.random().toString(36).slice(2)}.png`);
    execFileSync("gs", gsPngArgs(ps, png));
    return png;
  };

  it("vector/ghostscript-golfer.eps → png at 72 ppi: the size Ghostscript renders it at (facts.json), a real picture", async () => {
    const rel = "vector/ghostscript-golfer.eps";
    const r = await execute("convert", { output_format: "png", pixel_density: 72 }, [corpusInput(rel)], full());
    expect(r.engine.name).toBe("imagemagick-native");
    const [w, h] = fact(rel).gs_png16m_r72_EPSCrop_wh as [number, number];
    const id = identify(tmpFile(r.out.files[0]!, "png"));
    expect(id).toMatchObject({ format: "PNG", width: w, height: h });
    expect(id.stddev).toBeGreaterThan(0.05);
  });

  it("vector/ghostscript-colorcir.ps → jpg: its first page, A4 at 72 ppi (595×842 pt per facts.json)", async () => {
    const rel = "vector/ghostscript-colorcir.ps";
    const r = await execute("convert", { output_format: "jpg", pixel_density: 72 }, [corpusInput(rel)], full());
    const [w, h] = fact(rel).page_size_pts_after_gs as [number, number];
    expect(identify(tmpFile(r.out.files[0]!, "jpg"))).toMatchObject({ width: Math.round(w), height: Math.round(h) });
  });

  it("office/tika-testPPT.xps → png at 72 ppi: its first page rendered by libgxps, 720×540 pt per facts.json", async () => {
    const rel = "office/tika-testPPT.xps";
    const r = await execute("convert", { output_format: "png", pixel_density: 72 }, [corpusInput(rel)], full());
    expect(r.engine.name).toBe("imagemagick-native");
    const [w, h] = fact(rel).page_size_pts as [number, number];
    const id = identify(tmpFile(r.out.files[0]!, "png"));
    expect(id).toMatchObject({ format: "PNG", width: w, height: h });
    expect(id.stddev).toBeGreaterThan(0.01);
  });

  for (const out of ["eps", "ps"] as const) {
    it(`images/pngsuite-basn6a16.png → ${out}: Ghostscript renders it back to the same pixels (on white)`, async () => {
      const rel = "images/pngsuite-basn6a16.png";
      // eps/ps are written in WebAssembly first (issue 47): pinned here, the native row's PostScript is tested
      const r = await execute(
        "convert",
        { output_format: out, engine: "imagemagick-native" },
        [corpusInput(rel)],
        full(),
      );
      expect(r.engine.name).toBe("imagemagick-native");
      const path = tmpFile(r.out.files[0]!, out);
      expect(readFileSync(path, "latin1").split("\n")[0]).toBe(
        out === "eps" ? "%!PS-Adobe-3.0 EPSF-3.0" : "%!PS-Adobe-3.0",
      );
      const back = gsRender(path);
      const src = identify(corpusPath(rel));
      expect(identify(back)).toMatchObject({ width: src.width, height: src.height });
      // the source on white as sRGB samples (a PNG written back would keep this file's gAMA as linear RGB)
      const flat = join(TMP, `flat-${out}.ppm`);
      execFileSync("convert", [corpusPath(rel), "-background", "white", "-alpha", "remove", "-alpha", "off", flat]);
      expect(rmse(back, flat)).toBeLessThan(0.01);
    });
  }

  it("a camera raw → pdf: one page of the sensor's size in points holding one lossless image of it (pdfinfo, pdfimages)", async () => {
    const rel = "raw/exiftool-Nikon.nef";
    const r = await execute("convert", { output_format: "pdf" }, [corpusInput(rel)], full());
    expect(r.engine.name).toBe("libraw");
    const pdf = tmpFile(r.out.files[0]!, "pdf");
    const info = execFileSync("pdfinfo", [pdf], { encoding: "utf8" });
    expect(info).toMatch(/Pages:\s+1\n/);
    const [w, h] = fact(rel).dcraw_decoded_wh as [number, number];
    expect(info).toMatch(new RegExp(`Page size:\\s+${w} x ${h} pts`));
    const images = execFileSync("pdfimages", ["-list", pdf], { encoding: "utf8" }).trim().split("\n").slice(2);
    expect(images).toHaveLength(1);
    const cols = images[0]!.trim().split(/\s+/); // page num type width height color comp bpc enc …
    expect(cols.slice(3, 5).map(Number)).toEqual([w, h]);
    expect(cols[5]).toBe("rgb");
    expect(["jpeg", "jpx"]).not.toContain(cols[8]); // lossless (Flate)
  });
});

describe("camera raw streamed to LibRaw (issue 49)", () => {
  /** Inputs and answers over 512 bytes go framed (the Kodak raw is 92 KB): the path a raw over 64 MiB takes. */
  const OVER = 512;
  const KDC = "raw/rawpy-RAW_KODAK_DC50.KDC";

  it(`${KDC} streamed → png: the answer a stream, dcraw_emu's own pixels`, async () => {
    // the native rows only: the WebAssembly LibRaw (first for this small raw) takes no streams
    const ctx = testContext({
      engines: native.engines({ streamOver: OVER }),
      settings: { nativeStreamBytes: OVER } as never,
    });
    const r = await execute("convert", { output_format: "png" }, [corpusInput(KDC)], ctx);
    expect(r.engine.name).toBe("libraw");
    expect(isStreamed(r.out.files[0]!.data)).toBe(true);
    const png = join(TMP, "streamed-kdc.png");
    writeFileSync(png, await heldBytes(r.out.files[0]!.data as never));
    const [w, h] = fact(KDC).dcraw_decoded_wh as [number, number];
    expect(identify(png)).toMatchObject({ format: "PNG", width: w, height: h });
    const src = join(TMP, "streamed.KDC");
    copyFileSync(corpusPath(KDC), src);
    execFileSync("dcraw_emu", ["-w", "-o", "1", "-q", "3", "-T", "-Z", `${src}.tiff`, src]);
    expect(rmse(png, `${src}.tiff`)).toBeLessThan(0.002);
  });

  it(
    "a generated 6000 × 6000 DNG of 72 MB (over 64 MiB) → jpg at width 1200: the ramp and the flat grey demosaiced (identify)",
    async () => {
      const path = join(TMP, "ramp.dng");
      expect(writeRampDng(path, 6000, 6000)).toBeGreaterThan(64 * 2 ** 20);
      expect(execFileSync("exiftool", ["-s3", "-FileType", "-DNGVersion", path], { encoding: "utf8" }).trim()).toBe(
        "DNG\n1.4.0.0",
      );
      const file = bytesInput("ramp.dng", new Uint8Array(readFileSync(path)));
      // the production thresholds and engines: the WebAssembly LibRaw's budget refuses it, the native row streams it
      const r = await execute("convert", { output_format: "jpg", width: 1200, quality: 95 }, [file], full());
      expect(r.engine.name).toBe("libraw");
      const jpg = tmpFile(r.out.files[0]!, "jpg");
      expect(identify(jpg)).toMatchObject({ format: "JPEG", width: 1200, height: 1200 });
      const grey = (x: number, y: number) => {
        const [cr, cg, cb] = /\((\d+),(\d+),(\d+)/
          .exec(execFileSync("convert", [jpg, "-format", `%[pixel:p{${x},${y}}]`, "info:"], { encoding: "utf8" }))!
          .slice(1)
          .map(Number);
        expect(Math.max(cr!, cg!, cb!) - Math.min(cr!, cg!, cb!), `(${x}, ${y}) is grey`).toBeLessThan(12);
        return cr!;
      };
      // the top half darkens to the left, the bottom half is one grey
      const [left, middle, right] = [100, 600, 1100].map((x) => grey(x, 300));
      expect(left!).toBeLessThan(middle!);
      expect(middle!).toBeLessThan(right!);
      const bottom = [100, 600, 1100].map((x) => grey(x, 900));
      expect(Math.max(...bottom) - Math.min(...bottom)).toBeLessThan(6);
    },
    scaled(120_000),
  );

  it("over the row's 256 MiB a raw ends OVER_BUDGET before any upload, naming the limit", async () => {
    const huge = { ...corpusInput(KDC), size: 300 * 2 ** 20 };
    const err = await expectTaskError(
      () =>
        execute(
          "convert",
          { output_format: "png", engine: "libraw" },
          [huge],
          testContext({ engines: native.engines() }),
        ),
      "OVER_BUDGET",
    );
    expect(err.message).toContain("up to 268435456 bytes");
  });
});
