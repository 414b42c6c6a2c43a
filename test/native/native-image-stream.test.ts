/**
 * Large images on the native engine (issue 49): image convert and thumbnail hand the native ImageMagick row an input
 * over its threshold as a stream, which reaches ImageMagick as a file in its call's folder, and its outputs come back
 * streamed from disk; tiff → pdf over pdf-lib's budget goes to the libtiff row (tiff2pdf), every page kept. Here with
 * the thresholds lowered (NATIVE_STREAM_BYTES's setting, nativeRpc's `streamOver`) so corpus files take the streamed
 * path, and one generated scan page under a tool memory limit (NATIVE_MEMORY_MB) below its pixel cache.
 *
 * Oracles: Debian's identify (pixel sizes and frame counts of inputs and outputs), tiffinfo (the TIFF's pages),
 * pdfinfo (pages, page sizes) and pdfimages -list (each page's image in pixels), never the code under test.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isStreamed } from "../../native-protocol/frame";
import { heldBytes } from "../../src/operations/kit";
import type { InputFile, OperationContext, OutputFile } from "../../src/operations/types";
import { execute } from "../../src/runner/execute";
import { corpusPath } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { bytesInput, corpusInput, expectTaskError, testContext } from "../support/pdf-helpers";
import { writeScanTiff } from "../support/scan-tiff";
import { scaled } from "../support/time-scale";

/** The lowered threshold: inputs and answers over 512 bytes go framed (the corpus's 3-page TIFF is 816 bytes). */
const OVER = 512;

let native: NativeServer;
/** A native engine whose tools run under a 256 MB address-space limit. */
let tight: NativeServer;
let scratch: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "native-image-stream-"));
  [native, tight] = await Promise.all([startNativeEngine(), startNativeEngine({ NATIVE_MEMORY_MB: "256" })]);
}, scaled(120_000));
afterAll(async () => {
  await Promise.all([native?.stop(), tight?.stop()]);
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** A context with only the native rows, streaming inputs and answers over `OVER` bytes. */
const streaming = (server = native): OperationContext =>
  testContext({ engines: server.engines({ streamOver: OVER }), settings: { nativeStreamBytes: OVER } as never });

/** An output written to the scratch folder (read from its stream when it came back as one). */
async function saved(f: OutputFile, name: string): Promise<string> {
  const path = join(scratch, name);
  writeFileSync(path, await heldBytes(f.data as never));
  return path;
}

/** identify's frames of a file: [width, height] each. */
const identify = (path: string) =>
  execFileSync("identify", ["-format", "%w %h\n", path], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((l) => l.split(" ").map(Number));

/** pdfinfo's page sizes of pages 1…n, [width, height] in points. */
const pageSizes = (pdf: string, n: number) =>
  execFileSync("pdfinfo", ["-f", "1", "-l", String(n), pdf], { encoding: "utf8" })
    .split("\n")
    .filter((l) => /^Page\s+\d+ size:/.test(l))
    .map((l) => /size:\s+([\d.]+) x ([\d.]+)/.exec(l)!.slice(1).map(Number));

describe("streamed native ImageMagick convert and thumbnail", () => {
  it("tiff → png and png → jpg: the input went framed, the answer came back as a stream, identify's sizes kept", async () => {
    for (const [rel, out] of [
      ["images/pillow-hopper.tif", "png"],
      ["images/cloudconvert-input.png", "jpg"],
    ] as const) {
      const input = corpusInput(rel, rel.replace(/^.*\/|\.tif$/g, "") + (rel.endsWith(".tif") ? ".tiff" : ""));
      expect(input.size).toBeGreaterThan(OVER);
      const r = await execute("convert", { output_format: out }, [input], streaming());
      expect(r.engine.name).toBe("imagemagick-native");
      expect(isStreamed(r.out.files[0]!.data)).toBe(true);
      const path = await saved(r.out.files[0]!, `out-${rel.replace(/\W/g, "_")}.${out}`);
      expect(identify(path)).toEqual([identify(corpusPath(rel))[0]]);
      expect(execFileSync("identify", ["-format", "%m", path], { encoding: "utf8" })).toBe(
        out === "jpg" ? "JPEG" : "PNG",
      );
    }
  });

  it("a thumbnail of a streamed png: inside the box, aspect kept (identify)", async () => {
    const r = await execute(
      "thumbnail",
      { output_format: "png", width: 200, height: 200 },
      [corpusInput("images/cloudconvert-input.png")],
      streaming(),
    );
    expect(r.engine.name).toBe("imagemagick-native");
    const [[w, h]] = identify(await saved(r.out.files[0]!, "thumb.png"));
    // 1015 × 668 inside 200 × 200
    expect([w, h]).toEqual([200, Math.round((668 * 200) / 1015)]);
  });

  it(
    "a generated 6000 × 6000 scan page (108 MB of pixels, 288 MB of pixel cache) under a 256 MB tool memory limit → jpg",
    async () => {
      const path = join(scratch, "page.tiff");
      writeScanTiff(path, { pages: 1, width: 6000, height: 6000, dpi: 300 });
      const file = bytesInput("page.tiff", new Uint8Array(readFileSync(path)));
      const r = await execute("convert", { output_format: "jpg", quality: 80 }, [file], streaming(tight));
      expect(r.engine.name).toBe("imagemagick-native");
      expect(identify(await saved(r.out.files[0]!, "page.jpg"))).toEqual([[6000, 6000]]);
    },
    scaled(180_000),
  );
});

describe("streamed tiff → pdf on the libtiff row (tiff2pdf)", () => {
  it("a generated 2-page scan over pdf-lib's 20 MiB is handed on to libtiff: pages, sizes at 300 dpi, pixels (pdfinfo, pdfimages)", async () => {
    const path = join(scratch, "scan.tiff");
    const spec = { pages: 2, width: 2000, height: 1900, dpi: 300 };
    const written = writeScanTiff(path, spec);
    expect(written.bytes).toBeGreaterThan(20 * 2 ** 20);
    const file = bytesInput("scan.tiff", new Uint8Array(readFileSync(path)));
    const r = await execute("convert", { output_format: "pdf" }, [file], streaming());
    expect(r.engine.name).toBe("libtiff");
    const pdf = await saved(r.out.files[0]!, "scan.pdf");
    expect(execFileSync("pdfinfo", [pdf], { encoding: "utf8" })).toMatch(/^Pages:\s+2$/m);
    // 2000 × 1900 px at 300 dpi = 480 × 456 pt
    expect(pageSizes(pdf, 2)).toEqual([
      [480, 456],
      [480, 456],
    ]);
    // each page's image holds the generated page's samples, byte for byte (pdfimages writes them as PPM)
    execFileSync("pdfimages", [pdf, join(scratch, "img")]);
    for (const [i, sha] of written.pageSha256.entries()) {
      const ppm = readFileSync(join(scratch, `img-00${i}.ppm`));
      const header = `P6\n${spec.width} ${spec.height}\n255\n`;
      expect(ppm.subarray(0, header.length).toString("latin1")).toBe(header);
      expect(createHash("sha256").update(ppm.subarray(header.length)).digest("hex")).toBe(sha);
    }
  });

  it("every page of the corpus's 3-page TIFF a page of the PDF (pinned), each image its page's pixels (pdfinfo, pdfimages)", async () => {
    const rel = "images/pillow-multipage.tiff";
    const r = await execute("convert", { output_format: "pdf", engine: "libtiff" }, [corpusInput(rel)], streaming());
    expect(r.engine.name).toBe("libtiff");
    expect(r.engine.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(isStreamed(r.out.files[0]!.data)).toBe(true);
    expect(r.out.files[0]!.filename).toBe("pillow-multipage.pdf");
    const pdf = await saved(r.out.files[0]!, "multipage.pdf");
    const pages = identify(corpusPath(rel));
    expect(pages).toHaveLength(3);
    expect(execFileSync("pdfinfo", [pdf], { encoding: "utf8" })).toMatch(/^Pages:\s+3$/m);
    // no resolution recorded (tiffinfo: 0, 0): a pixel a point
    expect(pageSizes(pdf, 3)).toEqual(pages);
    const images = execFileSync("pdfimages", ["-list", pdf], { encoding: "utf8" })
      .split("\n")
      .slice(2)
      .filter(Boolean)
      .map((l) => l.trim().split(/\s+/).slice(3, 5).map(Number));
    expect(images).toEqual(pages);
  });

  it("hostile TIFFs on tiff2pdf: a 60000 × 60000 page declared over 1 KB is OVER_BUDGET (its -m limit), junk OPEN_FAILED", async () => {
    // one strip of 8-bit grey declared 60000 × 60000 (3.6 GB of samples) over a kilobyte of zeros
    const entries: [number, number, number][] = [
      [256, 4, 60000],
      [257, 4, 60000],
      [258, 3, 8],
      [259, 3, 1],
      [262, 3, 1],
      [273, 4, 122],
      [277, 3, 1],
      [278, 4, 60000],
      [279, 4, 60000 * 60000],
    ];
    const bomb = Buffer.alloc(122 + 1024);
    bomb.write("II*\0", 0, "latin1");
    bomb.writeUInt32LE(8, 4);
    bomb.writeUInt16LE(entries.length, 8);
    entries.forEach(([tag, type, value], i) => {
      const e = 10 + i * 12;
      bomb.writeUInt16LE(tag, e);
      bomb.writeUInt16LE(type, e + 2);
      bomb.writeUInt32LE(1, e + 4);
      if (type === 3) bomb.writeUInt16LE(value, e + 8);
      else bomb.writeUInt32LE(value, e + 8);
    });
    const pinned = { output_format: "pdf", engine: "libtiff" };
    const err = await expectTaskError(
      () => execute("convert", pinned, [bytesInput("bomb.tiff", new Uint8Array(bomb))], streaming()),
      "OVER_BUDGET",
    );
    expect(err.message).toMatch(/memory/);
    const junk = new TextEncoder().encode("II*\0 this is not a tiff ".repeat(100));
    await expectTaskError(
      () => execute("convert", pinned, [bytesInput("junk.tiff", junk)], streaming()),
      "OPEN_FAILED",
    );
  });

  it("a TIFF over the libtiff row's 4 GiB and ImageMagick's 1 GiB → OVER_BUDGET naming the limit, nothing read", async () => {
    const huge: InputFile = {
      ...corpusInput("images/pillow-multipage.tiff", "huge.tif"),
      size: 5 * 1024 ** 3,
      bytes: () => Promise.reject(new Error("read")),
    };
    const err = await expectTaskError(
      () => execute("convert", { output_format: "pdf" }, [huge], streaming()),
      "OVER_BUDGET",
    );
    expect(err.message).toContain(String(4 * 1024 ** 3));
    const png: InputFile = { ...huge, filename: "huge.png", size: 2 * 1024 ** 3 };
    const e2 = await expectTaskError(
      () => execute("convert", { output_format: "jpg" }, [png], streaming()),
      "OVER_BUDGET",
    );
    expect(e2.message).toContain(String(1024 ** 3));
  });
});
