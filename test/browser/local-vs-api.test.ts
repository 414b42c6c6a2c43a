/**
 * Issue 19, "Done when": the same job JSON run client-side (the browser build at /browser/, in
 * Debian's headless Chromium driven by puppeteer-core) and through the API (official SDK) gives
 * outputs that agree — identify / pdfinfo / qpdf / ffprobe / pdftotext / the metadata on both, byte-identical where the
 * engine is deterministic (ImageMagick; PDFium's PNGs have identical pixels, compressed by each host's zlib) — for an image convert, a thumbnail, a PDF split and encrypt, a PDF → PNG
 * and a metadata read, and also audio (ffmpeg), OCR (tesseract) and archive (7-Zip); the page's network log carries no file bytes; an over-budget file gets the
 * same OVER_BUDGET code as on the server.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corpusPath, fact } from "../support/corpus";
import { runCorpusJob } from "../support/jobs";
import { identify, pdfinfo, run, tempFile } from "../support/native";
import { sharedServer, type SharedServer } from "../support/servers";
import { runLocalIn } from "./harness/run-local";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
let server: SharedServer;
let browser: Browser;
let page: Page;
const requests: { url: string; method: string; bodyBytes: number }[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  server = sharedServer("guarded");
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
  page = await browser.newPage();
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  page.on("request", (r) => requests.push({ url: r.url(), method: r.method(), bodyBytes: r.postData()?.length ?? 0 }));
  await page.goto(`${server.base}/browser/`, { waitUntil: "load" });
});
afterAll(async () => {
  await browser?.close();
});

/** runCorpusJob's twin in this test's page. */
const runLocal = (rel: string, tasks: Record<string, unknown>) => runLocalIn(page, rel, tasks);

const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

describe("the same job in the browser and through the API", () => {
  it("camera raws (issue 47): the Kodak KDC converts the same in the page and through the API (WebAssembly LibRaw, byte-identical); the 6.1 MP NEF decodes in the page, where the Worker hands it to the native LibRaw", async () => {
    const tasks = { png: { operation: "convert", input: "in", output_format: "png" } };
    for (const [rel, apiEngine] of [
      ["raw/rawpy-RAW_KODAK_DC50.KDC", "imagemagick"],
      ["raw/exiftool-Nikon.nef", "libraw"],
    ] as const) {
      const [local, remote] = [await runLocal(rel, tasks), await runCorpusJob(server.base, rel, tasks)];
      expect(local.task("png"), rel).toMatchObject({ status: "finished", engine: "imagemagick" });
      expect(remote.task("png"), rel).toMatchObject({ status: "finished", engine: apiEngine });
      // the size Debian's LibRaw (dcraw) decodes, from the corpus facts
      const [w, h] = fact(rel).dcraw_decoded_wh as [number, number];
      expect(identify(local.files.png![0]!.path), rel).toMatchObject({ width: w, height: h });
      expect(identify(remote.files.png![0]!.path), rel).toMatchObject({ width: w, height: h });
      if (apiEngine === "imagemagick") expect(sha(local.files.png![0]!.path)).toBe(sha(remote.files.png![0]!.path));
    }
  });

  it("image convert and thumbnail (ImageMagick): same engine, byte-identical outputs", async () => {
    const tasks = {
      jpg: { operation: "convert", input: "in", output_format: "jpg", width: 200, quality: 80 },
      thumb: { operation: "thumbnail", input: "in", output_format: "png", width: 96, height: 96, fit: "crop" },
    };
    const rel = "images/cloudconvert-input.png";
    const [local, remote] = [await runLocal(rel, tasks), await runCorpusJob(server.base, rel, tasks)];
    expect(local.job.status).toBe("finished");
    for (const n of ["jpg", "thumb"]) {
      expect(local.task(n).engine).toBe(remote.task(n).engine);
      expect(identify(local.files[n][0].path)).toEqual(identify(remote.files[n][0].path));
      expect(sha(local.files[n][0].path)).toBe(sha(remote.files[n][0].path));
      expect(local.files[n][0].filename).toBe(remote.files[n][0].filename);
    }
    expect(identify(local.files.jpg[0].path)).toMatchObject({ format: "JPEG", width: 200 });
    expect(identify(local.files.thumb[0].path)).toEqual({ format: "PNG", width: 96, height: 96 });
  });

  it("PDF split and encrypt (pdf-lib), PDF → PNG (PDFium): the same pages, passwords and pixels", async () => {
    const rel = "pdf/gotenberg-pages_12.pdf";
    const tasks = {
      split: { operation: "pdf/split-pages", input: "in" },
      enc: { operation: "pdf/encrypt", input: "in", set_password: "open-me" },
      png: { operation: "convert", input: "in", output_format: "png", pages: "1", pixel_density: 72 },
    };
    const [local, remote] = [await runLocal(rel, tasks), await runCorpusJob(server.base, rel, tasks)];
    expect(local.job.status).toBe("finished");
    expect(local.files.split.map((f) => f.filename)).toEqual(remote.files.split.map((f) => f.filename));
    expect(local.files.split).toHaveLength(fact(rel).pages!);
    for (const [i, f] of local.files.split.entries()) {
      expect(run("qpdf", ["--check", f.path]).code).toBe(0);
      expect(pdfinfo(f.path)["Page size"]).toBe(pdfinfo(remote.files.split[i].path)["Page size"]);
    }
    for (const f of [local.files.enc[0].path, remote.files.enc[0].path]) {
      expect(run("qpdf", ["--check", f]).code).not.toBe(0); // no password: refused
      expect(run("qpdf", ["--password=open-me", "--check", f]).code).toBe(0);
    }
    expect(run("qpdf", ["--password=open-me", "--show-encryption", local.files.enc[0].path]).out).toBe(
      run("qpdf", ["--password=open-me", "--show-encryption", remote.files.enc[0].path]).out,
    );
    expect(identify(local.files.png[0].path)).toEqual(identify(remote.files.png[0].path));
    // the same pixels; not the same bytes: the PNG's zlib stream is the host's CompressionStream (Chromium's zlib vs workerd's)
    expect(run("compare", ["-metric", "AE", local.files.png[0].path, remote.files.png[0].path, "null:"]).code).toBe(0); // exit 0: no pixel differs
  });

  it("metadata read (ExifTool): the same properties", async () => {
    const rel = "images/exif-orientation-Landscape_6.jpg";
    const tasks = { meta: { operation: "metadata", input: "in" } };
    const [local, remote] = [await runLocal(rel, tasks), await runCorpusJob(server.base, rel, tasks)];
    expect(local.task("meta")).toMatchObject({ status: "finished", engine: "exiftool" });
    const strip = (m: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(m).filter(
          ([k]) =>
            !/^(FileModifyDate|FileAccessDate|FileInodeChangeDate|FilePermissions|Directory|SourceFile)$/.test(k),
        ),
      );
    expect(strip(local.task("meta").result.metadata)).toEqual(strip(remote.task("meta").result!.metadata));
    expect(local.task("meta").result.metadata.Orientation).toBeDefined();
  });

  it("audio convert (ffmpeg) and OCR of a scan to a searchable PDF (tesseract): the same streams and the same words", async () => {
    const wav = "audio/cpython-pluck-pcm16.wav";
    const audio = { mp3: { operation: "convert", input: "in", output_format: "mp3", audio_bitrate: 128 } };
    const [la, ra] = [await runLocal(wav, audio), await runCorpusJob(server.base, wav, audio)];
    expect(la.task("mp3")).toMatchObject({ status: "finished", engine: "ffmpeg" });
    const probe = (p: string) =>
      JSON.parse(
        run("ffprobe", [
          "-v",
          "error",
          "-show_entries",
          "stream=codec_name,sample_rate,channels:format=duration",
          "-of",
          "json",
          p,
        ]).out,
      );
    expect(probe(la.files.mp3[0].path)).toEqual(probe(ra.files.mp3[0].path));
    expect(probe(la.files.mp3[0].path).streams[0].codec_name).toBe("mp3");

    const scan = "scans/tesseract-phototest.tif";
    const ocr = { pdf: { operation: "convert", input: "in", output_format: "pdf", ocr: true, language: ["eng"] } };
    const [lo, ro] = [await runLocal(scan, ocr), await runCorpusJob(server.base, scan, ocr)];
    expect(lo.task("pdf")).toMatchObject({ status: "finished", engine: "tesseract" });
    const words = (p: string) => run("pdftotext", [p, "-"]).out.split(/\s+/).filter(Boolean);
    expect(words(lo.files.pdf[0].path)).toEqual(words(ro.files.pdf[0].path));
    expect(words(lo.files.pdf[0].path).length).toBeGreaterThan(20);
  });

  it("archive (7-Zip): a 7z of the file lists the same member with the same bytes", async () => {
    const rel = "pdf/gotenberg-pages_12.pdf";
    const tasks = { sz: { operation: "archive", input: "in", output_format: "7z" } };
    const [local, remote] = [await runLocal(rel, tasks), await runCorpusJob(server.base, rel, tasks)];
    expect(local.task("sz")).toMatchObject({ status: "finished", engine: "7z" });
    const members = (p: string) =>
      run("7z", ["l", "-slt", p])
        .out.split("\n")
        .filter((l) => /^(Path|Size|CRC) = /.test(l))
        .slice(1);
    expect(members(local.files.sz[0].path)).toEqual(members(remote.files.sz[0].path));
    expect(members(local.files.sz[0].path)).toContain(`Size = ${fact(rel).size}`);
  });

  it("an over-budget image gets the same OVER_BUDGET as on the server; a job the API refuses is refused with its 422", async () => {
    const tasks = { c: { operation: "thumbnail", input: "in", output_format: "png", width: 100 } };
    const rel = "broken/fuzzdb-lottapixel.jpg";
    const [local, remote] = [await runLocal(rel, tasks), await runCorpusJob(server.base, rel, tasks)];
    expect(remote.task("c")).toMatchObject({ status: "error", code: "OVER_BUDGET" });
    expect(local.task("c")).toMatchObject({ status: "error", code: "OVER_BUDGET" });
    const refused = await page.evaluate(async () => {
      const { runJob } = await new Function('return import("/browser/edge-convert.js")')(); // a string: vitest must not rewrite the page's import
      return runJob({ tasks: { c: { operation: "convert", input: "missing", output_format: "png" } } }).then(
        () => null,
        (e: { message: string; code: string; errors: unknown }) => ({
          message: e.message,
          code: e.code,
          errors: e.errors,
        }),
      );
    });
    const api = await fetch(`${server.base}/v2/jobs`, {
      method: "POST",
      headers: { authorization: "Bearer key-a", "content-type": "application/json" },
      body: JSON.stringify({ tasks: { c: { operation: "convert", input: "missing", output_format: "png" } } }),
    });
    expect(api.status).toBe(422);
    expect(refused).toEqual(await api.json());
  });

  it("no request of the page carried a file: only GETs of the page, the entry, the worker and engine assets", () => {
    expect(requests.filter((r) => r.method !== "GET" || r.bodyBytes > 0)).toEqual([]);
    expect(requests.filter((r) => !new URL(r.url).pathname.startsWith("/browser/"))).toEqual([]);
    expect(requests.map((r) => new URL(r.url).pathname)).toEqual(
      expect.arrayContaining([
        "/browser/edge-convert.js",
        "/browser/worker.js",
        "/browser/magick.wasm",
        "/browser/pdfium.wasm",
        "/browser/zeroperl.wasm",
      ]),
    );
    expect(pageErrors).toEqual([]);
  });
});
