/**
 * Engine routing (engines/routing.ts, operations/registry.ts, runner/execute.ts): the order of
 * candidates, pins by engine name and CloudConvert alias, ENGINE_ORDER, over-budget hand-off, a
 * candidate that cannot take the input passing the task on, and the non-retryable "no engine can
 * do this". Real engines run wherever an outcome is asserted; a stand-in engine only plays one
 * that answers "unsupported". The hand-off from a WebAssembly engine to the native engine with
 * real engines is in test/native/native-qpdf.test.ts and native-imagemagick.test.ts.
 */
import { describe, expect, it } from "vitest";
import { TaskError } from "../../src/engines/errors";
import { enginesFor, parseEngineOrder } from "../../src/engines/routing";
import { route } from "../../src/operations/registry";
import { TASK_CATALOG } from "../../src/operations/validate";
import { parseJobTasks } from "../../src/graph/parse";
import { execute } from "../../src/runner/execute";
import { nodePdfiumEngine } from "../../src/runtime/node/pdfium";
import { pdfOf } from "../contract/engines.cases";
import { testContext } from "../support/context";
import type { InputFile } from "../../src/operations/types";
import { pdftotext } from "../support/pdf-helpers";

const names = (rows: { name: string }[]) => rows.map((r) => r.name);
const file = (filename: string, data: Uint8Array, size = data.byteLength): InputFile => ({
  filename,
  size,
  fromTask: "t",
  key: `k/${filename}`,
  bytes: async () => data,
});
const refuse = (code: "UNSUPPORTED" | "OVER_BUDGET") => ({
  run: async () => ({
    ok: false as const,
    error: { code, message: `stand-in says ${code}`, retryable: false },
    engineVersion: "0",
  }),
  info: async () => ({ engineVersion: "0", wasmMemoryBytes: 0 }),
});

describe("engine order", () => {
  it("follows the table, filtered by kind, operation and formats", () => {
    expect(names(enginesFor({ kind: "pdf", operation: "merge" }))).toEqual(["pdflib", "qpdf"]);
    // issue 49: PDFium in the Worker, then poppler's pdftoppm natively for what is over its budget
    expect(names(enginesFor({ kind: "pdf", operation: "convert", input: "pdf", output: "png" }))).toEqual([
      "pdfium",
      "poppler-raster",
    ]);
    expect(names(enginesFor({ kind: "pdf", operation: "convert", input: "docx" }))).toEqual([]);
    expect(names(enginesFor({ kind: "image", operation: "convert" }))).toEqual([
      "resvg",
      "imagemagick",
      "libtiff",
      "imagemagick-native",
      "libraw",
      "gimp",
    ]);
    // issue 49: image → pdf of the images pdf-lib embeds is no ImageMagick row's (a TIFF's first page only); a TIFF scan
    // over pdf-lib's budget goes to libtiff's tiff2pdf, streamed
    for (const input of ["tiff", "tif"])
      expect(names(enginesFor({ kind: "image", operation: "convert", input, output: "pdf" }))).toEqual(["libtiff"]);
    expect(names(enginesFor({ kind: "image", operation: "convert", input: "png", output: "pdf" }))).toEqual([]);
    // SVG goes to resvg first (issue 33), other images never reach it
    expect(names(enginesFor({ kind: "image", operation: "thumbnail", input: "svg", output: "png" }))).toEqual([
      "resvg",
      "imagemagick",
      "imagemagick-native",
    ]);
    // issue 47: a camera raw goes to the WASM ImageMagick's LibRaw first (it demosaics the sensor data as the native
    // LibRaw does: test/engines-heavy/raw-wasm.test.ts), to the native LibRaw when over budget or unreadable there
    expect(names(enginesFor({ kind: "image", operation: "convert", input: "nef", output: "jpg" }))).toEqual([
      "imagemagick",
      "libraw",
    ]);
    expect(names(enginesFor({ kind: "image", operation: "convert", input: "png", output: "jpg" }))).toEqual([
      "imagemagick",
      "imagemagick-native",
    ]);
    expect(names(enginesFor({ kind: "office", operation: "convert", input: "docx", output: "pdf" }))).toEqual([
      "libreoffice",
    ]);
    expect(names(enginesFor({ kind: "pdf", operation: "pdf/a", input: "pdf", output: "pdf" }))).toEqual([
      "ghostscript",
    ]);
  });

  it("pins by engine name or by a CloudConvert engine name the table maps", () => {
    expect(names(enginesFor({ kind: "pdf", operation: "merge", pin: "poppler" }))).toEqual(["pdflib"]);
    // the engine of that name first, then the engines standing in for it
    expect(names(enginesFor({ kind: "pdf", operation: "merge", pin: "qpdf" }))).toEqual(["qpdf", "pdflib"]);
    expect(names(enginesFor({ kind: "command", operation: "command", pin: "graphicsmagick" }))).toEqual([
      "native-command",
    ]);
    expect(
      names(enginesFor({ kind: "pdf", operation: "convert", input: "pdf", output: "png", pin: "poppler" })),
    ).toEqual(["pdfium", "poppler-raster"]);
    // pdf → pdf is pdf-lib's re-save (issue 31)
    expect(
      names(enginesFor({ kind: "pdf", operation: "convert", input: "pdf", output: "pdf", pin: "poppler" })),
    ).toEqual(["pdflib"]);
    expect(names(enginesFor({ kind: "image", operation: "convert", pin: "graphicsmagick" }))).toEqual(["imagemagick"]);
    expect(names(enginesFor({ kind: "pdf", operation: "merge", pin: "chrome" }))).toEqual([]);
  });

  it("reads ENGINE_ORDER per operation and puts the named engines first", () => {
    expect(parseEngineOrder(" watermark = pdflib, imagemagick ;merge=qpdf")).toEqual({
      watermark: ["pdflib", "imagemagick"],
      merge: ["qpdf"],
    });
    expect(parseEngineOrder(undefined)).toEqual({});
    // a watermark of a file of unknown format: every handler fits (image, PDF, video, office through PDF); the table
    // orders them (qpdf: the native twin of pdf-lib's, issue 49)
    expect(route("watermark", { text: "x" }, "scan").map((c) => c.engine.name)).toEqual([
      "imagemagick",
      "pdflib",
      "ffmpeg",
      "qpdf",
      "libreoffice",
      "ffmpeg-native",
    ]);
    expect(
      route("watermark", { text: "x" }, "scan", parseEngineOrder("watermark=pdflib")).map((c) => c.engine.name),
    ).toEqual(["pdflib", "imagemagick", "ffmpeg", "qpdf", "libreoffice", "ffmpeg-native"]);
  });

  it("routes CloudConvert's other names of image formats (jpeg, jfif, tif) as jpg and tiff, by extension and by input_format", () => {
    const names = (p: Record<string, unknown>, file: string) => route("convert", p, file).map((c) => c.engine.name);
    expect(names({ output_format: "png" }, "photo.jpeg")).toEqual(names({ output_format: "png" }, "photo.jpg"));
    expect(names({ output_format: "webp" }, "scan.TIF")).toEqual(names({ output_format: "webp" }, "scan.tiff"));
    expect(names({ input_format: "jfif", output_format: "gif" }, "x")).toEqual(
      names({ output_format: "gif" }, "x.jpg"),
    );
    expect(names({ output_format: "png" }, "photo.jpeg")[0]).toBe("imagemagick");
    // a name a handler offers itself keeps its own candidates (tif → pdf: libtiff among them)
    expect(names({ output_format: "pdf" }, "scan.tif")).toContain("libtiff");
    const job = parseJobTasks(
      {
        a: { operation: "import/url", url: "https://example.com/s.tif" },
        b: { operation: "convert", input: "a", input_format: "tif", output_format: "png" },
      },
      TASK_CATALOG,
    );
    expect(job).not.toHaveProperty("errors");
  });

  it("refuses what no engine can do, and a pin nothing here honours", () => {
    expect(() => route("convert", { output_format: "pdf" }, "a.xyz")).toThrow(
      expect.objectContaining({ code: "INVALID_CONVERSION_TYPE" }),
    );
    expect(() => route("merge", { output_format: "pdf", engine: "chrome" }, "a.pdf")).toThrow(
      expect.objectContaining({ code: "ENGINE_UNAVAILABLE" }),
    );
  });
});

describe("execute: fallback, pinning and budgets", () => {
  const mark = { text: "ROUTED", input_format: undefined };

  it("a candidate that cannot take the input passes the task to the next; the task reports the engine that ran", async () => {
    // an extensionless file: the image watermark (ImageMagick, first in the table) cannot tell its
    // format and answers INVALID_CONVERSION_TYPE; the PDF watermark (pdf-lib) runs it
    const { out, engine } = await execute(
      "watermark",
      mark,
      [file("scan", await pdfOf([[300, 300]]))],
      testContext({ engines: { imagemagick: refuse("UNSUPPORTED") } }),
    );
    expect(engine).toEqual({ name: "pdflib", version: "2.11.1" });
    expect(pdftotext(out.files[0])).toContain("ROUTED");
  });

  it("when every candidate refuses, the last candidate's error is the task's", async () => {
    const junk = file("scan", new TextEncoder().encode("neither image nor PDF"));
    await expect(
      execute("watermark", mark, [junk], testContext({ engines: { imagemagick: refuse("UNSUPPORTED") } })),
    ).rejects.toMatchObject({ code: "OPEN_FAILED" });
  });

  it("skips an engine whose budget is below the declared input size, before running it", async () => {
    let called = false;
    const spy = {
      ...refuse("UNSUPPORTED"),
      run: async () => {
        called = true;
        return refuse("UNSUPPORTED").run();
      },
    };
    const ctx = testContext({ engines: { imagemagick: spy } });
    // declared 40 MB: over ImageMagick's 32 MiB budget and pdf-lib's 16 MiB (issue 49): neither is run
    await expect(
      execute("watermark", mark, [file("scan", await pdfOf([[300, 300]]), 40e6)], ctx),
    ).rejects.toMatchObject({ code: "OVER_BUDGET" });
    expect(called).toBe(false);
    // declared 25 MiB: over pdf-lib's budget only. pdf-lib, which would watermark these few real bytes, is skipped:
    // the task fails with what the image route says of a PDF
    await expect(
      execute("watermark", mark, [file("scan", await pdfOf([[300, 300]]), 25 * 1024 * 1024)], ctx),
    ).rejects.toMatchObject({ code: expect.stringMatching(/^(UNSUPPORTED|INVALID_CONVERSION_TYPE)$/) });
    const huge = file("big.pdf", new Uint8Array(0), 200 * 1024 * 1024);
    await expect(execute("pdf/rotate-pages", { rotation: "90" }, [huge], ctx)).rejects.toMatchObject({
      code: "OVER_BUDGET",
    });
  });

  it("`engine` pins: only that engine is tried, and an unhonoured engine_version is reported", async () => {
    const ctx = testContext({ engines: { imagemagick: refuse("UNSUPPORTED") } });
    const pinned = execute(
      "watermark",
      { ...mark, input_format: "png", engine: "imagemagick" },
      [file("scan", await pdfOf([[300, 300]]))],
      ctx,
    );
    await expect(pinned).rejects.toMatchObject({ code: "UNSUPPORTED", message: "scan: stand-in says UNSUPPORTED" });
    const { out } = await execute(
      "pdf/rotate-pages",
      { rotation: "90", engine: "qpdf", engine_version: "11.3.0" },
      [file("a.pdf", await pdfOf([[100, 200]]))],
      ctx,
    );
    expect(out.extra?.warnings).toEqual(["engine_version 11.3.0 is not available; pdflib 2.11.1 ran."]);
  });

  it("an earlier engine's OVER_BUDGET is the task's error when the last engine cannot do the work at all", async () => {
    const ctx = testContext({
      engines: { imagemagick: refuse("OVER_BUDGET"), "imagemagick-native": refuse("UNSUPPORTED") },
    });
    const png = file("a.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    await expect(execute("convert", { output_format: "jpg" }, [png], ctx)).rejects.toMatchObject({
      code: "OVER_BUDGET",
      message: "a.png: stand-in says OVER_BUDGET",
    });
    // the other way round, the last engine's own refusal stands
    const other = testContext({
      engines: { imagemagick: refuse("UNSUPPORTED"), "imagemagick-native": refuse("UNSUPPORTED") },
    });
    await expect(execute("convert", { output_format: "jpg" }, [png], other)).rejects.toMatchObject({
      code: "UNSUPPORTED",
    });
  });

  it("no engine of the kind on this host is ENGINE_UNAVAILABLE, not retryable", async () => {
    const err = await execute(
      "convert",
      { output_format: "png" },
      [file("a.pdf", await pdfOf([[100, 100]]))],
      testContext(),
    ).catch((e) => e);
    expect(err).toBeInstanceOf(TaskError);
    expect(err).toMatchObject({ code: "ENGINE_UNAVAILABLE", retryable: false });
    expect(err.message).toContain("pdfium");
    const ok = await execute(
      "convert",
      { output_format: "png" },
      [file("a.pdf", await pdfOf([[100, 100]]))],
      testContext({ engines: { pdfium: nodePdfiumEngine() } }),
    );
    expect(ok.engine.name).toBe("pdfium");
  });
});

describe("pdf → images: PDFium, then the native pdftoppm (issue 49)", () => {
  it("pdf → png, jpg and thumbnail candidates are pdfium then poppler-raster", () => {
    for (const output of ["png", "jpg", "webp", "tiff"])
      expect(route("convert", { output_format: output }, "a.pdf").map((c) => c.engine.name)).toEqual([
        "pdfium",
        "poppler-raster",
      ]);
    expect(route("thumbnail", { output_format: "jpg" }, "a.pdf").map((c) => c.engine.name)).toEqual([
      "pdfium",
      "poppler-raster",
    ]);
  });

  it("an A4 page at 300 ppi: PDFium answers OVER_BUDGET (2481 × 3508 > 2.2 MP) and the task goes to poppler-raster", async () => {
    const sent: unknown[] = [];
    // a stand-in for the native row: it records what it was asked and answers one 1 × 1 page
    const native = {
      rasterize: async (req: { density?: number; input: unknown }) => {
        sent.push({ density: req.density, bytes: req.input instanceof Uint8Array });
        const png = await nodePdfiumEngine().rasterize({
          input: await pdfOf([[1, 1]]),
          filename: "dot.pdf",
          density: 72,
        });
        if (!png.ok) throw new Error(png.error.message);
        return {
          ok: true as const,
          pages: png.pages,
          pageCount: 1,
          ms: 0,
          wasmMemoryBytes: 0,
          engineVersion: "22.12.0",
        };
      },
    };
    const ctx = testContext({ engines: { pdfium: nodePdfiumEngine(), "poppler-raster": native } });
    const a4 = file("a4.pdf", await pdfOf([[595.276, 841.89]]));
    // PDFium alone: the regression issue 49's lowered budget made (no engine to hand the page to)
    await expect(
      execute(
        "convert",
        { output_format: "png", pixel_density: 300 },
        [a4],
        testContext({ engines: { pdfium: nodePdfiumEngine() } }),
      ),
    ).rejects.toMatchObject({
      code: "OVER_BUDGET",
      message: expect.stringMatching(/2481 × 3508 pixels.*Lower pixel_density/),
    });
    const r = await execute("convert", { output_format: "png", pixel_density: 300 }, [a4], ctx);
    expect(r.engine.name).toBe("poppler-raster");
    expect(sent).toEqual([{ density: 300, bytes: true }]);
    // at 150 ppi (2.17 MP) PDFium draws it itself
    const low = await execute("convert", { output_format: "png" }, [a4], ctx);
    expect(low.engine.name).toBe("pdfium");
    expect(sent).toHaveLength(1);
  });
});

describe("validation picks the handler by formats and pins before judging parameters", () => {
  const job = (tasks: Record<string, unknown>) => parseJobTasks(tasks, TASK_CATALOG);

  it("accepts CloudConvert engine names the table maps, and names what is available otherwise", () => {
    const base = { imp: { operation: "import/url", url: "https://example.com/a.pdf" } };
    expect(
      job({ ...base, m: { operation: "merge", input: ["imp"], output_format: "pdf", engine: "poppler" } }),
    ).toHaveProperty("specs");
    const r = job({ ...base, m: { operation: "merge", input: ["imp"], output_format: "pdf", engine: "3heights" } });
    expect("errors" in r && r.errors["tasks.m"]).toEqual([
      "Task m: engine: 3heights is not an engine of this server for merge to pdf; engines here that do: pdflib, qpdf (or leave engine out).",
    ]);
    // an engine of this server that does other work (chrome renders web pages)
    const c = job({ ...base, m: { operation: "merge", input: ["imp"], output_format: "pdf", engine: "chrome" } });
    expect("errors" in c && c.errors["tasks.m"]).toEqual([
      "Task m: engine: chrome cannot run merge to pdf; engines here that do: pdflib, qpdf (or leave engine out).",
    ]);
  });

  it("judges a PDF's optimize parameters by the PDF handler, an image's by the image handler", () => {
    const r = job({
      imp: { operation: "import/url", url: "https://example.com/files/report.pdf?dl=1" },
      opt: { operation: "optimize", input: "imp", profile: "web", flatten_signatures: true },
    });
    // issue 31: the PDF handler honours flatten_signatures (qpdf in the native engine)
    const opt = "specs" in r ? r.specs.find((s) => s.name === "opt")! : null;
    expect(opt?.params).toEqual({ profile: "web", flatten_signatures: true });
    // the PDF handler judges the options it knows: a bad profile stays a 422 naming the field
    const bad = job({
      imp: { operation: "import/url", url: "https://example.com/files/report.pdf?dl=1" },
      opt: { operation: "optimize", input: "imp", profile: "smallest", flatten_signatures: true },
    });
    expect("errors" in bad && bad.errors["tasks.opt"]?.[0]).toMatch(/^Task opt: profile: /);
    // the same task on a PNG input judges the image parameters, which do not have it: ignored with a warning
    const png = job({
      imp: { operation: "import/url", url: "https://example.com/a.png" },
      opt: { operation: "optimize", input: "imp", flatten_signatures: true },
    });
    expect("specs" in png && png.specs.find((s) => s.name === "opt")!.params.$ignored).toEqual([
      { key: "flatten_signatures" },
    ]);
  });
});
