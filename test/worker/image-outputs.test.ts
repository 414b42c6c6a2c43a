/**
 * The image outputs of issue 16 in the Worker (NATIVE_ENGINE = "off" in this project): the catalogue
 * lists JXL and PSD for the WebAssembly ImageMagick and no HEIC output (only the native engine writes
 * HEIC); a job converting to JXL and to PSD runs in the ImageMagick engine Worker, and the files carry
 * their format's signature and size (JPEG XL: ISO/IEC 18181-2 container/codestream signatures; PSD:
 * Adobe's file header "8BPS", height and width at bytes 14 and 18). HEIC output ends ENGINE_UNAVAILABLE.
 */
import { describe, expect, it } from "vitest";
import { type ApiJob, type ApiOperation, api, createJob, taskByName, waitJob } from "./helpers";

const b64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));

/** A w×h 24-bit BMP, left half red, right half blue. */
function bmp(w: number, h: number): Uint8Array {
  const row = Math.ceil((w * 3) / 4) * 4;
  const b = new Uint8Array(54 + row * h);
  const v = new DataView(b.buffer);
  b.set([0x42, 0x4d]);
  v.setUint32(2, b.length, true);
  v.setUint32(10, 54, true);
  v.setUint32(14, 40, true);
  v.setInt32(18, w, true);
  v.setInt32(22, h, true);
  v.setUint16(26, 1, true);
  v.setUint16(28, 24, true);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) b.set(x < w / 2 ? [0, 0, 255] : [255, 0, 0], 54 + y * row + x * 3);
  return b;
}

async function download(job: ApiJob, name: string): Promise<Uint8Array> {
  const url = taskByName(job, name).result.files[0].url as string;
  const { exports } = await import("cloudflare:workers");
  return new Uint8Array(await (await exports.default.fetch(url)).arrayBuffer());
}

/** Asserts the task `name` of `done` finished on `engine` (the task shown when it did not). */
const expectRan = (done: ApiJob, name: string, engine: string) =>
  expect(taskByName(done, name), JSON.stringify(taskByName(done, name))).toMatchObject({ status: "finished", engine });

/** The catalogue's convert rows (GET /v2/operations, no key) with `filter` (e.g. "output_format") equal to `value`. */
const convertRows = async (filter: string, value: string) =>
  (
    await api<ApiOperation[]>("GET", `/v2/operations?filter[operation]=convert&filter[${filter}]=${value}`, {
      key: null,
    })
  ).json.data;

const u32be = (b: Uint8Array, o: number) => ((b[o] << 24) >>> 0) + ((b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]);

describe("image outputs in the Worker without the native engine", () => {
  it("the catalogue lists convert to jxl and psd on imagemagick, and no heic output", async () => {
    const rows = (out: string) => convertRows("output_format", out);
    const jxl = await rows("jxl");
    expect(new Set(jxl.map((r) => r.engine))).toEqual(new Set(["imagemagick"]));
    expect(jxl.map((r) => r.input_format)).toContain("png");
    // image → psd is the image engine's; svg (and svgz, issue 47) → psd is resvg's first (issue 33: it draws, ImageMagick encodes);
    // pdf → psd (issue 32) is PDFium's page re-encoded by the image engine
    const psd = await rows("psd");
    expect(new Set(psd.filter((r) => !["svg", "svgz", "pdf"].includes(r.input_format)).map((r) => r.engine))).toEqual(
      new Set(["imagemagick"]),
    );
    expect(psd.filter((r) => r.input_format === "svg").map((r) => r.engine)).toContain("resvg");
    expect(psd.filter((r) => r.input_format === "svgz").map((r) => r.engine)).toContain("resvg"); // issue 47
    expect(new Set(psd.filter((r) => r.input_format === "pdf").map((r) => r.engine))).toEqual(new Set(["pdfium"]));
    expect(await rows("heic")).toEqual([]);
  });

  it("converts a BMP to JXL and PSD in the ImageMagick engine Worker; HEIC ends ENGINE_UNAVAILABLE", async () => {
    const job = await createJob({
      in: { operation: "import/base64", file: b64(bmp(120, 80)), filename: "in.bmp" },
      jxl: { operation: "convert", input: "in", output_format: "jxl", width: 60 },
      psd: { operation: "convert", input: "in", output_format: "psd" },
      heic: { operation: "convert", input: "in", output_format: "heic" },
      ojxl: { operation: "export/url", input: "jxl" },
      opsd: { operation: "export/url", input: "psd" },
    });
    const done = await waitJob(job.id);
    expectRan(done, "jxl", "imagemagick");
    expectRan(done, "psd", "imagemagick");
    expect(taskByName(done, "heic")).toMatchObject({ status: "error", code: "ENGINE_UNAVAILABLE" });
    expect(taskByName(done, "ojxl").result.files[0].filename).toBe("in.jxl");
    const jxl = await download(done, "ojxl");
    const container = [0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a].every((v, i) => jxl[i] === v);
    expect(container || (jxl[0] === 0xff && jxl[1] === 0x0a), "JPEG XL signature").toBe(true);
    const psd = await download(done, "opsd");
    expect(String.fromCharCode(...psd.subarray(0, 4))).toBe("8BPS");
    expect([u32be(psd, 18), u32be(psd, 14)]).toEqual([120, 80]);
  });

  it("converts and thumbnails an SVG with text in the engine Worker, its faces from the fonts Worker (issue 31)", async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="60"><rect width="240" height="60" fill="white"/><text x="10" y="40" font-family="sans-serif" font-size="28">Hello SVG</text></svg>`;
    const job = await createJob({
      in: { operation: "import/base64", file: btoa(svg), filename: "hello.svg" },
      png: { operation: "convert", input: "in", output_format: "png" },
      bmp: { operation: "convert", input: "png", output_format: "bmp" },
      thumb: { operation: "thumbnail", input: "in", output_format: "png", width: 120, height: 120 },
      out: { operation: "export/url", input: "bmp" },
    });
    const done = await waitJob(job.id);
    for (const t of ["png", "bmp", "thumb"]) expect(taskByName(done, t).status, t).toBe("finished");
    // drawn by resvg in its engine Worker, faces from the fonts Worker (issue 33); its pixels are held to Inkscape's in
    // test/engines-heavy/resvg.test.ts
    expect([taskByName(done, "png").engine, taskByName(done, "thumb").engine]).toEqual(["resvg", "resvg"]);
    // was OPEN_FAILED "UnableToReadFont … corrupt"; the pixels are held to librsvg's in test/engines/image-svg-text.test.ts
    // (the BMP ImageMagick writes here is RLE8-compressed, so only its header is read)
    const bmpFile = await download(done, "out");
    const v = new DataView(bmpFile.buffer, bmpFile.byteOffset);
    expect([String.fromCharCode(bmpFile[0], bmpFile[1]), v.getInt32(18, true), Math.abs(v.getInt32(22, true))]).toEqual(
      ["BM", 240, 60],
    );
  });

  it("issue 47: a PPM → PNG job runs in the ImageMagick engine Worker and an SVGZ → PNG job in resvg's; the catalogue lists them there", async () => {
    const rows = (input: string) => convertRows("input_format", input);
    const ppmRows = await rows("ppm");
    expect(ppmRows.filter((r) => ["png", "eps", "ps", "psd"].includes(r.output_format)).map((r) => r.engine)).toEqual([
      "imagemagick",
      "imagemagick",
      "imagemagick",
      "imagemagick",
    ]);
    expect((await rows("svgz")).find((r) => r.output_format === "png")?.engine).toBe("resvg");
    // a binary PPM (P6): 40×30, left half red, right half blue, a comment in its header
    const [w, h] = [40, 30];
    const head = new TextEncoder().encode(`P6\n# issue 47\n${w} ${h}\n255\n`);
    const ppm = new Uint8Array(head.length + w * h * 3);
    ppm.set(head);
    for (let i = 0; i < w * h; i++) ppm.set(i % w < w / 2 ? [255, 0, 0] : [0, 0, 255], head.length + i * 3);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48"><rect width="64" height="48" fill="#0a0"/></svg>`;
    const svgz = new Uint8Array(
      await new Response(new Blob([svg]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer(),
    );
    const job = await createJob({
      ppm: { operation: "import/base64", file: b64(ppm), filename: "in.ppm" },
      svgz: { operation: "import/base64", file: b64(svgz), filename: "drawing.svgz" },
      p1: { operation: "convert", input: "ppm", output_format: "png" },
      p2: { operation: "convert", input: "svgz", output_format: "png" },
      o1: { operation: "export/url", input: "p1" },
      o2: { operation: "export/url", input: "p2" },
    });
    const done = await waitJob(job.id);
    expectRan(done, "p1", "imagemagick");
    expectRan(done, "p2", "resvg");
    expect(taskByName(done, "o2").result.files[0].filename).toBe("drawing.png");
    // PNG signature and IHDR size (ISO 15948)
    for (const [name, size] of [
      ["o1", [w, h]],
      ["o2", [64, 48]],
    ] as const) {
      const png = await download(done, name);
      expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(""), name).toBe("PNG");
      expect([u32be(png, 16), u32be(png, 20)], name).toEqual(size);
    }
  });
});
