/**
 * GIMP's XCF images through the real runner and the engine table: the native GIMP engine (container/engines/gimp.ts:
 * gimp-console-2.10 merges the visible layers, native ImageMagick writes). Oracles: the canvas size corpus/facts.json
 * measured from the file's header, ImageMagick 7's own XCF reader (@imagemagick/magick-wasm, a reader independent of
 * GIMP; Debian's ImageMagick 6 cannot read XCF 2.10) compared pixel by pixel, identify and pdfinfo of the outputs.
 * Issue 49: the corpus XCF streamed (thresholds lowered) and a generated 70 MB XCF over NATIVE_MAX_BYTES reach GIMP as
 * files in its call's folder, their outputs streamed back.
 */
import { readFileSync, rmSync, writeFileSync, mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImageMagick, MagickFormat, initializeImageMagick } from "@imagemagick/magick-wasm";
import { claimedBy } from "../support/claims";
import { corpusPath, fact } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { execute } from "../../src/runner/execute";
import { bytesInput, corpusInput, expectTaskError, pdfinfo, testContext, tmpFile } from "../support/pdf-helpers";
import { expectRedLeftBlueRight, imageStats as identify, rmse } from "../support/native-oracles";
import { scaled } from "../support/time-scale";
import { isStreamed } from "../../native-protocol/frame";
import { heldBytes } from "../../src/operations/kit";
import { writeHalvesXcf } from "../support/xcf";

const XCF = "images/filetype-fixture.xcf";
let native: NativeServer;
const TMP = mkdtempSync(join(tmpdir(), "native-xcf-"));
beforeAll(async () => {
  native = await startNativeEngine();
}, scaled(120_000));
afterAll(async () => {
  await native?.stop();
  rmSync(TMP, { recursive: true, force: true });
});

const ctx = () => testContext({ engines: native.engines() });

/** ImageMagick 7's own decode of an XCF (magick-wasm, not GIMP), written as PNG: its path. */
async function im7Png(xcf: Uint8Array): Promise<string> {
  const dist = dirname(createRequire(import.meta.url).resolve("@imagemagick/magick-wasm"));
  await initializeImageMagick(readFileSync(join(dist, "x86", "magick.wasm")));
  const out = join(TMP, "im7.png");
  ImageMagick.read(xcf, MagickFormat.Xcf, (img) => img.write(MagickFormat.Png, (d) => writeFileSync(out, d)));
  return out;
}

describe("xcf → images with GIMP (native)", () => {
  it("the engine table sends xcf to gimp for every listed output", () => {
    for (const output of ["png", "jpg", "webp", "gif", "tiff", "bmp", "ico", "psd", "eps", "ps", "pdf"])
      expect(claimedBy("convert", "xcf", output), output).toContain("gimp");
  });

  it(`${XCF} → png: the canvas its header declares, the same pixels ImageMagick 7's XCF reader sees`, async () => {
    const r = await execute("convert", { output_format: "png" }, [corpusInput(XCF)], ctx());
    expect(r.engine.name).toBe("gimp");
    const png = tmpFile(r.out.files[0]!, "png");
    const [w, h] = fact(XCF).xcf_canvas_wh as [number, number];
    const id = identify(png);
    expect(id).toMatchObject({ format: "PNG", width: w, height: h });
    expect(id.stddev).toBeGreaterThan(0.05);
    expect(rmse(png, await im7Png(readFileSync(corpusPath(XCF))))).toBeLessThan(0.01);
  });

  it(`${XCF} → jpg at width 100, and → pdf of one page`, async () => {
    const jpg = await execute("convert", { output_format: "jpg", width: 100 }, [corpusInput(XCF)], ctx());
    expect(identify(tmpFile(jpg.out.files[0]!, "jpg"))).toMatchObject({ format: "JPEG", width: 100, height: 67 });
    const pdf = await execute("convert", { output_format: "pdf" }, [corpusInput(XCF)], ctx());
    expect(pdfinfo(pdf.out.files[0]!).Pages).toBe("1");
  });

  it(`${XCF} → webp and gif: one output each, of the format asked for (GIMP's own PNG is not among them)`, async () => {
    for (const [out, magick] of [
      ["webp", "WEBP"],
      ["gif", "GIF"],
    ] as const) {
      const r = await execute("convert", { output_format: out }, [corpusInput(XCF)], ctx());
      expect(r.out.files.map((f) => f.filename)).toEqual([`filetype-fixture.${out}`]);
      expect(identify(tmpFile(r.out.files[0]!, out)).format).toBe(magick);
    }
  });

  it("a truncated XCF is OPEN_FAILED naming GIMP; a canvas of 100 000 × 100 000 is OVER_BUDGET unopened", async () => {
    const whole = readFileSync(corpusPath(XCF));
    const cut = await expectTaskError(
      () => execute("convert", { output_format: "png" }, [bytesInput("cut.xcf", whole.subarray(0, 2000))], ctx()),
      "OPEN_FAILED",
    );
    expect(cut.message).toMatch(/GIMP could not read/);
    const bomb = Buffer.from(whole);
    bomb.writeUInt32BE(100_000, 14);
    bomb.writeUInt32BE(100_000, 18);
    const big = await expectTaskError(
      () => execute("convert", { output_format: "png" }, [bytesInput("bomb.xcf", bomb)], ctx()),
      "OVER_BUDGET",
    );
    expect(big.message).toMatch(/100000 × 100000/);
    const notXcf = await expectTaskError(
      () =>
        execute(
          "convert",
          { output_format: "png" },
          [bytesInput("fake.xcf", new TextEncoder().encode("hello"))],
          ctx(),
        ),
      "OPEN_FAILED",
    );
    expect(notXcf.message).toMatch(/not a GIMP XCF/);
  });
});

describe("xcf streamed to GIMP (issue 49)", () => {
  /** Inputs and answers over 512 bytes go framed (the corpus XCF is 80 KB). */
  const OVER = 512;
  const streaming = () =>
    testContext({ engines: native.engines({ streamOver: OVER }), settings: { nativeStreamBytes: OVER } as never });

  it(`${XCF} streamed → png: the file path, the answer a stream, the same pixels as ImageMagick 7's reader`, async () => {
    const r = await execute("convert", { output_format: "png" }, [corpusInput(XCF)], streaming());
    expect(r.engine.name).toBe("gimp");
    expect(isStreamed(r.out.files[0]!.data)).toBe(true);
    const png = join(TMP, "streamed.png");
    writeFileSync(png, await heldBytes(r.out.files[0]!.data as never));
    const [w, h] = fact(XCF).xcf_canvas_wh as [number, number];
    expect(identify(png)).toMatchObject({ format: "PNG", width: w, height: h });
    expect(rmse(png, await im7Png(readFileSync(corpusPath(XCF))))).toBeLessThan(0.01);
  });

  it(
    "a generated 4200 × 4200 XCF of 70 MB (over 64 MiB) → jpg at width 1000: red left, blue right (identify)",
    async () => {
      const path = join(TMP, "halves.xcf");
      const bytes = writeHalvesXcf(path, 4200, 4200);
      expect(bytes).toBeGreaterThan(64 * 2 ** 20);
      const file = bytesInput("halves.xcf", new Uint8Array(readFileSync(path)));
      // the production thresholds: over 64 MiB the input streams
      const r = await execute("convert", { output_format: "jpg", width: 1000 }, [file], ctx());
      expect(r.engine.name).toBe("gimp");
      const jpg = tmpFile(r.out.files[0]!, "jpg");
      expect(identify(jpg)).toMatchObject({ format: "JPEG", width: 1000, height: 1000 });
      expectRedLeftBlueRight(jpg, 1000, 1000);
    },
    scaled(120_000),
  );
});
