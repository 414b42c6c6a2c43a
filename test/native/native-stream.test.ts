/**
 * The native engine's streamed wire (issue 35, native-protocol/frame.ts): a call whose file is larger than the
 * Worker holds travels framed — the request's file streamed into the native server, written to the call's folder
 * as it arrives, the answer's file streamed back from disk. Here with thresholds lowered (NATIVE_STREAM_BYTES's
 * setting, nativeRpc's `streamOver`) so small corpus files take the streamed path.
 *
 * Oracles: the bytes themselves (the framing round trip), Debian's ffprobe on both outputs (the streamed and the
 * buffered convert of the same file), the HTTP answer (413), /proc (no ffmpeg left after an abort).
 */
import { execFileSync } from "node:child_process";
import { crc32, deflateRawSync } from "node:zlib";
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FRAMED_TYPE,
  FrameError,
  FrameReader,
  frame,
  isStreamed,
  resolveParts,
  type StreamedBytes,
} from "../../native-protocol/frame";
import { nativeRpc } from "../../src/engines/native/client";
import type { InputFile, OperationContext, OutputFile } from "../../src/operations/types";
import { nodeEngines } from "../../src/runtime/node/engines";
import { execute } from "../../src/runner/execute";
import { corpusPath } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { expectPdfA, expectPdfX, pidsGone, sh, toolsGone, toolsUnder, until } from "../support/native-oracles";
import { bytesInput, corpusInput, expectTaskError, testContext } from "../support/pdf-helpers";
import { mobiText, zipText, plain } from "../support/ebook-oracles";
import { zip } from "../support/hostile-documents";
import { scaled } from "../support/time-scale";

/** The lowered threshold: inputs and answers over 64 KiB go framed. */
const OVER = 64 * 1024;

let native: NativeServer;
/** A native engine whose framed bodies may be at most 1 MiB (NATIVE_MAX_STREAM_MB=1). */
let small: NativeServer;
let root: string;
let scratch: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "native-stream-root-"));
  scratch = mkdtempSync(join(tmpdir(), "native-stream-"));
  [native, small] = await Promise.all([
    startNativeEngine({ NATIVE_WORK_DIR: root }),
    startNativeEngine({ NATIVE_MAX_STREAM_MB: "1" }),
  ]);
}, scaled(120_000));
afterAll(async () => {
  await Promise.all([native?.stop(), small?.stop()]);
  for (const d of [root, scratch]) if (d) rmSync(d, { recursive: true, force: true });
});

/** A context with only the native rows, streaming inputs and answers over `OVER` bytes. */
const streaming = (server = native, signal?: AbortSignal): OperationContext =>
  testContext({
    engines: server.engines({ streamOver: OVER, signal }),
    settings: { nativeStreamBytes: OVER } as never,
    ...(signal ? { signal } : {}),
  });
/** The same engines on today's buffered wire. */
const buffered = (): OperationContext => testContext({ engines: native.engines() });

/** Bytes n, n+1, … (mod 251) of length `len`. */
const run = (len: number, from = 0) => Uint8Array.from({ length: len }, (_, i) => (from + i) % 251);
/** `bytes` as a StreamedBytes, in chunks of `chunk`. */
function streamOf(bytes: Uint8Array, chunk = 10_000, length = bytes.byteLength): StreamedBytes {
  let at = 0;
  return {
    length,
    stream: new ReadableStream<Uint8Array>({
      pull(c) {
        if (at >= bytes.byteLength) return c.close();
        c.enqueue(bytes.slice(at, (at += chunk)));
      },
    }),
  };
}
const readAll = async (s: StreamedBytes) => new Uint8Array(await new Response(s.stream).arrayBuffer());

/** An output written to a file of this test (read whole: these outputs are small). */
async function saved(f: OutputFile, ext: string): Promise<string> {
  const bytes = f.data instanceof Uint8Array ? f.data : new Uint8Array(await new Response(f.data.stream).arrayBuffer());
  const path = join(scratch, `${Math.random().toString(36).slice(2)}.${ext}`);
  writeFileSync(path, bytes);
  return path;
}

/** ffprobe's duration, stream codecs and frame counts (counted by decoding). */
function probe(path: string): { duration: number; codecs: string[]; frames: number[] } {
  const j = JSON.parse(
    execFileSync("ffprobe", [
      "-v",
      "error",
      "-count_frames",
      "-print_format",
      "json",
      "-show_format",
      "-show_streams",
      path,
    ]).toString(),
  );
  return {
    duration: Number(j.format.duration),
    codecs: j.streams.map((s: { codec_name: string }) => s.codec_name),
    frames: j.streams.map((s: { nb_read_frames?: string }) => Number(s.nb_read_frames)),
  };
}

describe("the framing round-trips (frame → FrameReader, and nativeRpc both ways)", () => {
  it("parts of 0 bytes, several parts, parts that add up past the threshold, one exactly at it and one byte over", async () => {
    const value = {
      empty: new Uint8Array(0),
      list: [run(3), streamOf(run(OVER, 1)), streamOf(run(OVER + 1, 2))],
      text: "kept as JSON",
      at: run(OVER, 3),
      emptyStream: streamOf(new Uint8Array(0)),
    };
    let sentLength = "";
    let bodyBytes = 0;
    // a server of the framed wire that reads every part whole and answers the same value framed
    const echo = nativeRpc(
      async (_path, init) => {
        sentLength = new Headers(init!.headers).get("content-length") ?? "";
        expect(new Headers(init!.headers).get("content-type")).toBe(FRAMED_TYPE);
        const r = new FrameReader(
          (init!.body as ReadableStream<Uint8Array>).pipeThrough(
            new TransformStream({ transform: (c, t) => ((bodyBytes += c.byteLength), t.enqueue(c)) }),
          ),
        );
        const { value: v, sizes } = await r.header();
        expect(sizes).toEqual([0, 3, OVER, OVER + 1, OVER, 0]);
        const parts = [];
        for (const n of sizes) parts.push(await r.read(n));
        await r.end();
        const f = frame(resolveParts(v, parts));
        return new Response(f.body, { headers: { "content-type": FRAMED_TYPE, "content-length": String(f.length) } });
      },
      "echo",
      { streamOver: OVER },
    );
    // the value echoed: parts as bytes while they add up to at most the threshold, from the first that would pass it
    // on as streams (issue 49: the Worker holds at most the threshold of an answer, however many parts)
    const back = (await echo.invoke("run", value)) as {
      text: string;
      empty: Uint8Array;
      list: [Uint8Array, StreamedBytes, StreamedBytes];
      at: StreamedBytes;
      emptyStream: StreamedBytes;
    };
    expect(Number(sentLength)).toBe(bodyBytes);
    expect(back.text).toBe("kept as JSON");
    expect(back.empty).toEqual(new Uint8Array(0));
    expect(back.list[0]).toEqual(run(3));
    // 3 bytes held, then OVER more would pass the threshold: a stream, though it alone is not over it; read in order
    expect(isStreamed(back.list[1])).toBe(true);
    expect(await readAll(back.list[1])).toEqual(run(OVER, 1));
    expect(isStreamed(back.list[2])).toBe(true);
    expect(isStreamed(back.at)).toBe(true);
    expect(isStreamed(back.emptyStream)).toBe(true);
    expect(back.list[2].length).toBe(OVER + 1);
    expect(await readAll(back.list[2])).toEqual(run(OVER + 1, 2));
    expect(await readAll(back.at)).toEqual(run(OVER, 3));
    expect(await readAll(back.emptyStream)).toEqual(new Uint8Array(0));
  });

  it("a stream shorter or longer than its declared length errors the body (FrameError), and a cut body fails the reader", async () => {
    const short = frame({ f: streamOf(run(100), 10, 101) });
    await expect(new Response(short.body).arrayBuffer()).rejects.toBeInstanceOf(FrameError);
    const long = frame({ f: streamOf(run(102), 10, 101) });
    await expect(new Response(long.body).arrayBuffer()).rejects.toBeInstanceOf(FrameError);
    const whole = new Uint8Array(await new Response(frame({ f: run(1000) }).body).arrayBuffer());
    const cut = new FrameReader(new Response(whole.subarray(0, whole.byteLength - 1)).body!);
    const { sizes } = await cut.header();
    await expect(cut.read(sizes[0]!)).rejects.toThrow(/ended before its parts/);
    const extra = new Uint8Array(whole.byteLength + 1);
    extra.set(whole);
    const more = new FrameReader(new Response(extra).body!);
    await more.read((await more.header()).sizes[0]!);
    await expect(more.end()).rejects.toThrow(/longer than its parts/);
  });
});

describe("a streamed ffmpeg convert", () => {
  const rel = "video/ffmpegwasm-Big_Buck_Bunny_180_10s.webm";

  it("gives what the buffered path gives (ffprobe: duration, codecs, frames); input and answer went framed", async () => {
    const input = corpusInput(rel);
    expect(input.size).toBeGreaterThan(OVER);
    const [s, b] = await Promise.all([
      execute("convert", { output_format: "mkv" }, [input], streaming()),
      execute("convert", { output_format: "mkv" }, [corpusInput(rel)], buffered()),
    ]);
    expect(s.engine.name).toBe("ffmpeg-native");
    // a StreamedBytes answer comes only from a framed call (a buffered answer is bytes)
    expect(isStreamed(s.out.files[0]!.data)).toBe(true);
    expect(b.out.files[0]!.data).toBeInstanceOf(Uint8Array);
    const [ps, pb] = [probe(await saved(s.out.files[0]!, "mkv")), probe(await saved(b.out.files[0]!, "mkv"))];
    expect(ps.codecs).toEqual(["h264"]); // the clip has no audio (ffprobe of the corpus file: vp9 alone)
    expect(ps).toEqual(pb);
    // and the source's own duration (ffprobe of the corpus file)
    expect(Math.abs(ps.duration - probe(corpusPath(rel)).duration)).toBeLessThan(0.1);
  });

  it("an input exactly at the threshold goes buffered (bytes back), one byte over goes framed", async () => {
    const bytes = new Uint8Array(readFileSync(corpusPath(rel)));
    const at = testContext({
      engines: native.engines({ streamOver: bytes.byteLength }),
      settings: { nativeStreamBytes: bytes.byteLength } as never,
    });
    const r = await execute(
      "convert",
      { output_format: "webm", video_codec: "copy" },
      [bytesInput("a.webm", bytes)],
      at,
    );
    expect(r.out.files[0]!.data).toBeInstanceOf(Uint8Array);
    const over = testContext({
      engines: native.engines({ streamOver: OVER }),
      settings: { nativeStreamBytes: bytes.byteLength - 1 } as never,
    });
    const o = await execute(
      "convert",
      { output_format: "webm", video_codec: "copy" },
      [bytesInput("a.webm", bytes)],
      over,
    );
    expect(isStreamed(o.out.files[0]!.data)).toBe(true);
    expect(probe(await saved(o.out.files[0]!, "webm"))).toEqual(probe(await saved(r.out.files[0]!, "webm")));
  });

  it("over the server's framed-body limit (NATIVE_MAX_STREAM_MB=1) → OVER_BUDGET from its 413, naming the limit", async () => {
    const big = corpusInput("video/tika-testVideoMp4.mp4"); // 1.05 MB > 1 MiB
    expect(big.size).toBeGreaterThan(1024 * 1024);
    const err = await expectTaskError(
      () => execute("convert", { output_format: "mkv" }, [big], streaming(small)),
      "OVER_BUDGET",
    );
    expect(err.message).toContain(`Request body over ${1024 * 1024} bytes.`);
    // the same server takes a streamed file under its limit
    const ok = await execute(
      "convert",
      { output_format: "mkv", video_codec: "copy" },
      [corpusInput(rel)],
      streaming(small),
    );
    expect(probe(await saved(ok.out.files[0]!, "mkv")).codecs).toEqual(probe(corpusPath(rel)).codecs);
  });

  it("aborting the task mid-run kills ffmpeg: no ffmpeg left under the server's work root, and the next call works", async () => {
    // a 40 s 640×360 clip to HEVC: minutes of x265 here, far past the wait below; only the abort can end it sooner
    const src = join(scratch, "long.mkv");
    execFileSync("ffmpeg", [
      "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=640x360:rate=25", "-t", "40",
      "-c:v", "mpeg4", "-q:v", "2", src,
    ]); // prettier-ignore
    const ac = new AbortController();
    const pending = execute(
      "convert",
      { output_format: "mp4", video_codec: "x265" },
      [bytesInput("long.mkv", new Uint8Array(readFileSync(src)))],
      streaming(native, ac.signal),
    ).then(
      () => null,
      (e: unknown) => e,
    );
    const ffmpegs = () => toolsUnder(root).filter((p) => /ffmpeg/.test(p.cmd) && / -i /.test(p.cmd));
    expect(await until(() => ffmpegs().length > 0, 60_000), "ffmpeg started on the streamed input").toBe(true);
    const seen = ffmpegs();
    const pids = seen.map((p) => p.pid);
    expect(ffmpegs()[0]!.cmd).toContain(root);
    ac.abort(new Error("The test cancelled the task."));
    const err = await pending;
    expect(err).toBeInstanceOf(Error);
    expect(await toolsGone(root, 30_000), "tools still running after the abort").toEqual([]);
    // an exiting process has no command line left before it is reaped: wait for the pids themselves
    expect(await pidsGone(pids, 30_000), JSON.stringify(seen)).toEqual([]);
    const next = await execute(
      "convert",
      { output_format: "mkv", video_codec: "copy" },
      [corpusInput(rel)],
      streaming(),
    );
    expect(probe(await saved(next.out.files[0]!, "mkv")).codecs).toEqual(probe(corpusPath(rel)).codecs);
  });
});

describe("streamed qpdf page operations (issue 49)", () => {
  const rel = "pdf/pdfjs-tracemonkey.pdf";
  const text = (path: string, page?: number) =>
    execFileSync("pdftotext", [...(page ? ["-f", String(page), "-l", String(page)] : []), path, "-"], {
      encoding: "utf8",
    });
  const pages = (path: string) =>
    Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [path], { encoding: "utf8" }))![1]);

  it("split: every page a part, as pdfinfo and pdftotext read the source; input and large parts went framed", async () => {
    const input = corpusInput(rel);
    expect(input.size).toBeGreaterThan(OVER);
    // pinned: the streaming context holds pdf-lib too, which routing prefers within its budget
    const r = await execute("pdf/split-pages", { engine: "qpdf" }, [input], streaming());
    expect(r.engine.name).toBe("qpdf");
    const source = corpusPath(rel);
    expect(r.out.files).toHaveLength(pages(source));
    // parts up to the threshold come back as bytes, from the first larger one on as streams (client.ts)
    const streamed = r.out.files.filter((f) => isStreamed(f.data));
    const sizes = r.out.files.map((f) =>
      f.data instanceof Uint8Array ? f.data.byteLength : (f.data as StreamedBytes).length,
    );
    expect(sizes.some((n) => n > OVER)).toBe(true);
    expect(streamed.length).toBeGreaterThan(0);
    for (const [i, f] of r.out.files.entries()) {
      const path = await saved(f, "pdf");
      expect(pages(path)).toBe(1);
      expect(text(path).replace(/\s+/g, " ").trim()).toBe(
        text(source, i + 1)
          .replace(/\s+/g, " ")
          .trim(),
      );
    }
  });

  it("extract, rotate and decrypt take the streamed input too", async () => {
    const source = corpusPath(rel);
    const extracted = await execute(
      "pdf/extract-pages",
      { pages: "2-3", engine: "qpdf" },
      [corpusInput(rel)],
      streaming(),
    );
    expect(extracted.engine.name).toBe("qpdf");
    const ex = await saved(extracted.out.files[0]!, "pdf");
    expect(pages(ex)).toBe(2);
    expect(text(ex, 1)).toBe(text(source, 2));
    const rotated = await execute(
      "pdf/rotate-pages",
      { rotation: 90, engine: "qpdf" },
      [corpusInput(rel)],
      streaming(),
    );
    expect(isStreamed(rotated.out.files[0]!.data)).toBe(true);
    const rot = await saved(rotated.out.files[0]!, "pdf");
    expect(execFileSync("pdfinfo", ["-l", "14", rot], { encoding: "utf8" }).match(/rot:\s+90/g)).toHaveLength(14);
    // the corpus's encrypted speech (41 pages, R3, empty user password; facts.json), over the threshold
    const enc = "pdf-encrypted/tika-testPDF_protected.pdf";
    const decrypted = await execute("pdf/decrypt", { engine: "qpdf" }, [corpusInput(enc)], streaming());
    expect(decrypted.engine.name).toBe("qpdf");
    expect(isStreamed(decrypted.out.files[0]!.data)).toBe(true);
    const dec = await saved(decrypted.out.files[0]!, "pdf");
    expect(execFileSync("qpdf", ["--show-encryption", dec], { encoding: "utf8" })).toMatch(/File is not encrypted/);
    expect(pages(dec)).toBe(pages(corpusPath(enc)));
  });
});

/**
 * A file (a corpus file by default) as an input the Worker can only stream: its `bytes()` throws, so an operation that
 * finishes read it as a stream (kit.ts readInputOrStream) and never whole.
 */
function streamOnlyInput(rel: string, path = corpusPath(rel)): InputFile {
  return {
    filename: basename(rel),
    size: statSync(path).size,
    fromTask: "import",
    key: `corpus/${rel}`,
    bytes: async () => {
      throw new Error(`${rel} was read whole; it should have been streamed`);
    },
    stream: async () => Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>,
  };
}

describe("streamed Ghostscript: pdf/a, pdf/x, optimize (issue 49)", () => {
  const rel = "pdf/pdfjs-tracemonkey.pdf";
  const source = corpusPath(rel);
  /** pdftotext's words of a PDF, on one line. */
  const words = (path: string) =>
    execFileSync("pdftotext", [path, "-"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
      .replace(/\s+/g, " ")
      .trim();
  const pages = (path: string) =>
    Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [path], { encoding: "utf8" }))![1]);
  const TITLE = "Trace-based Just-in-Time Type Specialization for Dynamic Languages";

  it("pdf/a 2b of a streamed PDF: PDF/A-2B (pdfaid XMP, fonts embedded, sRGB intent, qpdf --check), its pages and text kept", async () => {
    const input = streamOnlyInput(rel);
    expect(input.size).toBeGreaterThan(OVER);
    const r = await execute("pdf/a", { conformance_level: "2b" }, [input], streaming());
    expect(r.engine.name).toBe("ghostscript");
    // a StreamedBytes answer comes only from a framed call (a buffered answer is bytes)
    expect(isStreamed(r.out.files[0]!.data)).toBe(true);
    const path = await saved(r.out.files[0]!, "pdf");
    expectPdfA(path, 2, pages(source));
    expect(words(path)).toContain(TITLE);
    // the source's last words are on the PDF/A's last page too
    const last = (p: string) =>
      execFileSync("pdftotext", ["-f", "14", "-l", "14", p, "-"], { encoding: "utf8" })
        .split(/\s+/)
        .filter((w) => /^[A-Za-z]{6,}$/.test(w))
        .slice(-20);
    expect(last(path)).toEqual(last(source));
  });

  it("pdf/a 3b with an invoice on the framed call (the XML reaches Ghostscript as a file): factur-x.xml attached", async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100">
<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:factur-x.eu:1p0:minimum</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
</rsm:CrossIndustryInvoice>
`;
    const ctx = {
      ...streaming(),
      taskFiles: async () => [{ ...bytesInput("invoice.xml", new TextEncoder().encode(xml)), fromTask: "xml" }],
    };
    const r = await execute("pdf/a", { conformance_level: "3b", invoice: "xml" }, [streamOnlyInput(rel)], ctx);
    expect(r.engine.name).toBe("ghostscript");
    expect(isStreamed(r.out.files[0]!.data)).toBe(true);
    const path = await saved(r.out.files[0]!, "pdf");
    expectPdfA(path, 3, pages(source));
    const xmp = JSON.parse(sh("exiftool", ["-j", "-XMP-fx:all", path]).stdout)[0];
    expect(xmp).toMatchObject({ DocumentFileName: "factur-x.xml", ConformanceLevel: "MINIMUM" });
    const out = join(scratch, "fx.xml");
    expect(sh("pdfdetach", ["-save", "1", "-o", out, path]).status).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(xml);
  });

  it("pdf/x 4 of a streamed PDF: PDF/X-4 (GTS_PDFXVersion, CMYK intent, qpdf --check), every page", async () => {
    const r = await execute("pdf/x", { variant: "4" }, [streamOnlyInput(rel)], streaming());
    expect(r.engine.name).toBe("ghostscript");
    expect(isStreamed(r.out.files[0]!.data)).toBe(true);
    const path = await saved(r.out.files[0]!, "pdf");
    expectPdfX(path, "PDF/X-4", pages(source));
    expect(execFileSync("pdfinfo", [path], { encoding: "utf8" })).toMatch(/PDF version:\s+1\.6/);
    expect(words(path)).toContain(TITLE);
  });

  it("optimize (web) of a streamed PDF: smaller, linearized, the same pages and text; sizes in the result", async () => {
    const input = streamOnlyInput(rel);
    const r = await execute("optimize", { profile: "web" }, [input], streaming());
    expect(r.engine.name).toBe("ghostscript");
    const f = r.out.files[0]!;
    const size = f.data instanceof Uint8Array ? f.data.byteLength : (f.data as StreamedBytes).length;
    const path = await saved(f, "pdf");
    expect(statSync(path).size).toBe(size);
    expect(r.out.extra).toMatchObject({ original_size: input.size, bytes_saved: input.size - size, unchanged: [] });
    expect(size).toBeLessThan(input.size);
    expect(pages(path)).toBe(pages(source));
    expect(execFileSync("pdfinfo", [path], { encoding: "utf8" })).toMatch(/Optimized:\s+yes/);
    expect([0, 3]).toContain(sh("qpdf", ["--check", path]).status);
    expect(words(path)).toContain(TITLE);
  });

  it("optimize of a streamed PDF that would not shrink: the streamed input itself comes back, byte for byte", async () => {
    // the corpus letter (172 KB, text only) packed once (archive: not linearized), then that output again: nothing smaller
    const once = await execute(
      "optimize",
      { profile: "archive" },
      [streamOnlyInput("pdf/cloudconvert-input.pdf")],
      streaming(),
    );
    const first = await saved(once.out.files[0]!, "pdf");
    expect(statSync(first).size).toBeGreaterThan(OVER);
    const again = await execute("optimize", { profile: "archive" }, [streamOnlyInput("again.pdf", first)], streaming());
    expect(again.engine.name).toBe("ghostscript");
    expect(again.out.extra).toMatchObject({
      unchanged: ["again.pdf"],
      bytes_saved: 0,
      original_size: statSync(first).size,
    });
    expect(isStreamed(again.out.files[0]!.data)).toBe(true);
    expect(readFileSync(await saved(again.out.files[0]!, "pdf")).equals(readFileSync(first))).toBe(true);
  });

  it("convert pdf → pdf with pdf_a streamed: qpdf's re-save streams on into Ghostscript, a PDF/A-2B comes back", async () => {
    // pinned: the streaming context holds pdf-lib too, which routing prefers for the re-save (and would read it whole)
    const r = await execute(
      "convert",
      { output_format: "pdf", pdf_a: true, engine: "qpdf" },
      [streamOnlyInput(rel)],
      streaming(),
    );
    expect(r.engine.name).toBe("ghostscript");
    expect(isStreamed(r.out.files[0]!.data)).toBe(true);
    const path = await saved(r.out.files[0]!, "pdf");
    expectPdfA(path, 2, pages(source));
    expect(words(path)).toContain(TITLE);
  });
});

describe("streamed calibre (issue 49)", () => {
  const rel = "ebooks/tika-testEPUB_multi-metadata-vals.epub";
  /** The book's own words, read without calibre (its chapter XHTML by unzip). */
  const PHRASE = "We went through the old gateway";
  const norm = (s: string) => s.replace(/[\s\u00a0\ufeff\u2060-]+/g, " ").trim();

  it(
    "epub → mobi and → pdf of a streamed book: the MOBI's text records and the PDF's text hold the book's words",
    async () => {
      expect(plain(zipText(corpusPath(rel), "epub/text/chapter-1.xhtml"))).toContain(PHRASE);
      const input = streamOnlyInput(rel);
      expect(input.size).toBeGreaterThan(OVER);
      const mobi = await execute("convert", { output_format: "mobi" }, [input], streaming());
      expect(mobi.engine.name).toBe("calibre");
      const mobiPath = await saved(mobi.out.files[0]!, "mobi");
      const mobiBytes = new Uint8Array(readFileSync(mobiPath));
      expect(new TextDecoder().decode(mobiBytes.subarray(60, 68))).toBe("BOOKMOBI");
      expect(norm(mobiText(mobiBytes))).toContain(PHRASE);
      const pdf = await execute("convert", { output_format: "pdf" }, [streamOnlyInput(rel)], streaming());
      expect(pdf.engine.name).toBe("calibre");
      // a StreamedBytes answer comes only from a framed call (a buffered answer is bytes)
      expect(isStreamed(pdf.out.files[0]!.data)).toBe(true);
      const pdfPath = await saved(pdf.out.files[0]!, "pdf");
      expect(
        Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [pdfPath], { encoding: "utf8" }))![1]),
      ).toBeGreaterThan(1);
      expect(norm(execFileSync("pdftotext", [pdfPath, "-"], { encoding: "utf8" }))).toContain(PHRASE);
    },
    scaled(180_000),
  );

  it("a streamed EPUB that unpacks to 1.25 GiB → OVER_BUDGET from its zip directory, read in calibre's folder", async () => {
    // 20 chapters of 64 MiB of zeros each (real sizes, deflated once): 1.25 GiB unpacked, over the engine's 1 GiB
    const size = 64 * 1024 * 1024;
    const zeros = Buffer.alloc(size);
    const chapter = { data: new Uint8Array(deflateRawSync(zeros, { level: 9 })), size, crc: crc32(zeros), count: 20 };
    const book = zip([["mimetype", new TextEncoder().encode("application/epub+zip")]], {
      ...chapter,
      name: (i) => `OEBPS/c${i}.xhtml`,
    });
    const path = join(scratch, "bomb.epub");
    writeFileSync(path, book);
    expect(book.length).toBeGreaterThan(OVER);
    const e = await expectTaskError(
      () => execute("convert", { output_format: "mobi" }, [streamOnlyInput("bomb.epub", path)], streaming()),
      "OVER_BUDGET",
    );
    expect(e.message).toMatch(/bomb\.epub unpacks to 1280 MiB/);
  });
});

describe("streamed archive extraction (issue 49)", () => {
  /**
   * The regular files (and hard links, taken out as files) of an archive and their bytes, by an implementation other
   * than 7-Zip: Python's tarfile for a tar;
   * for a zip, 7-Zip's listing's file names and libarchive's bsdtar for their bytes (Python's zipfile has no AES).
   */
  function expected(path: string, password?: string): Map<string, Buffer> {
    if (path.endsWith(".tar")) {
      const py =
        "import sys,tarfile,json,base64;t=tarfile.open(sys.argv[1]);" +
        "print(json.dumps({m.name.removeprefix('./'):base64.b64encode(t.extractfile(m).read()).decode() for m in t.getmembers() if m.isreg() or m.islnk()}))";
      const j = JSON.parse(execFileSync("python3", ["-c", py, path], { encoding: "utf8", maxBuffer: 64 << 20 }));
      return new Map(Object.entries(j as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, "base64")]));
    }
    const out = execFileSync("7z", ["l", "-slt", `-p${password ?? ""}`, path], { encoding: "utf8" });
    const names = out
      .split(/\n\n/)
      .filter((b) => /^Folder = -$/m.test(b))
      .map((b) => /^Path = (.*)$/m.exec(b)![1]!);
    return new Map(
      names.map((n) => [n, execFileSync("bsdtar", [...(password ? ["--passphrase", password] : []), "-xOf", path, n])]),
    );
  }

  for (const [rel, password, over] of [
    ["archives/cpython-testtar.tar", undefined, OVER],
    // WinZip AES-256 (facts.json: password "password"), 2.8 KB: streamed with a 1 KiB threshold
    ["archives/libarchive-test_read_format_zip_winzip_aes256.zip", "password", 1024],
  ] as const) {
    it(`${rel} → files on the native 7-Zip, streamed both ways: every regular file, its bytes as another reader takes them out`, async () => {
      const ctx = testContext({
        engines: native.engines({ streamOver: over }),
        settings: { nativeStreamBytes: over } as never,
      });
      const r = await execute(
        "convert",
        { output_format: "files", engine: "archive-native", ...(password ? { password } : {}) },
        [corpusInput(rel)],
        ctx,
      );
      expect(r.engine.name).toBe("archive-native");
      const want = expected(corpusPath(rel), password);
      const members = (r.out.extra as { members: { path: string; filename: string }[] }).members;
      expect(members.length).toBeGreaterThan(0);
      // members past the threshold (their running total) come back as streams (client.ts)
      expect(r.out.files.some((f) => isStreamed(f.data))).toBe(true);
      // 7-Zip (both of this project's, in WebAssembly and native) does not expand PAX sparse files (GNU.sparse 0.0, 0.1,
      // 1.0): it takes out their stored data, or a GNUSparseFile.<pid> folder; Python's tarfile expands them. Left out.
      const paxSparse = (p: string) => /(^|\/)sparse-[01]\.\d$|GNUSparseFile\./.test(p);
      for (const k of [...want.keys()]) if (paxSparse(k)) want.delete(k);
      for (const [i, m] of members.entries()) {
        // read every part, in order, even one not compared: a streamed answer's parts wait for the one before them
        const got = readFileSync(await saved(r.out.files[i]!, "bin"));
        if (paxSparse(m.path)) continue;
        // a name the tar stores in Latin-1 is not UTF-8: compared by its bytes' UTF-8 reading
        const bytes =
          want.get(m.path) ??
          [...want].find(([k]) => k.replace(/[^\x20-\x7e]/g, "") === m.path.replace(/[^\x20-\x7e]/g, ""))?.[1];
        expect(bytes, m.path).toBeDefined();
        expect(got.equals(bytes!), m.path).toBe(true);
      }
      // every regular file is a member
      expect(members.filter((m) => !paxSparse(m.path)).length).toBe(want.size);
    });
  }
});

describe("streamed LibreOffice (issue 49)", () => {
  /** A 1 KiB threshold: the corpus's office documents (6–700 KB) and LibreOffice's outputs go framed both ways. */
  const TINY = 1024;
  const ctx = () =>
    testContext({ engines: native.engines({ streamOver: TINY }), settings: { nativeStreamBytes: TINY } as never });
  /** The text of a package's member, its tags dropped, by Python's zipfile (an oracle outside this project's code). */
  const memberText = (rel: string, member: string) =>
    execFileSync(
      "python3",
      [
        "-c",
        "import sys,zipfile,re;print(' '.join(re.sub(r'<[^>]+>',' ',zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode('utf8')).split()))",
        corpusPath(rel),
        member,
      ],
      { encoding: "utf8" },
    );
  /** Slides of a pptx, counted by Python's zipfile. */
  const slides = (rel: string) =>
    Number(
      execFileSync(
        "python3",
        [
          "-c",
          "import sys,zipfile,re;print(sum(1 for n in zipfile.ZipFile(sys.argv[1]).namelist() if re.match(r'ppt/slides/slide\\d+\\.xml$',n)))",
          corpusPath(rel),
        ],
        { encoding: "utf8" },
      ),
    );
  const pdfText = (path: string) =>
    execFileSync("pdftotext", [path, "-"], { encoding: "utf8" }).replace(/\s+/g, " ").trim();
  const pdfPages = (path: string) =>
    Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [path], { encoding: "utf8" }))![1]);

  for (const [rel, member, phrase] of [
    ["office/gotenberg-pages_3.docx", "word/document.xml", "Page 3"],
    ["office/tika-testODFwithOOo3.odt", "content.xml", "Another interesting project is"],
    ["office/tika-testEXCEL.xlsx", "xl/sharedStrings.xml", "Sample Excel Worksheet - Numbers and their Squares"],
    ["office/xapian-presentation.odp", "content.xml", "You share your birthday with over 100 million people."],
  ] as const) {
    it(`${rel} → pdf, the document and its PDF streamed: pdftotext finds the source's "${phrase}"`, async () => {
      expect(memberText(rel, member)).toContain(phrase);
      const input = corpusInput(rel);
      expect(input.size).toBeGreaterThan(TINY);
      const r = await execute("convert", { output_format: "pdf" }, [input], ctx());
      expect(r.engine.name).toBe("libreoffice");
      // a StreamedBytes answer comes only from a framed call (a buffered answer is bytes)
      expect(isStreamed(r.out.files[0]!.data)).toBe(true);
      expect(pdfText(await saved(r.out.files[0]!, "pdf"))).toContain(phrase);
    });
  }

  it("office/python-pptx-cht-charts.pptx → pdf streamed: a page per slide (Python's zipfile counts them)", async () => {
    const rel = "office/python-pptx-cht-charts.pptx";
    const r = await execute("convert", { output_format: "pdf" }, [corpusInput(rel)], ctx());
    expect(r.engine.name).toBe("libreoffice");
    expect(isStreamed(r.out.files[0]!.data)).toBe(true);
    expect(pdfPages(await saved(r.out.files[0]!, "pdf"))).toBe(slides(rel));
  });

  it("thumbnail of a docx streamed in: a 200 px PNG; its PDF is held up to the answer threshold, over it OVER_BUDGET", async () => {
    const rel = "office/gotenberg-pages_3.docx";
    // the document streams (nativeStreamBytes), LibreOffice's PDF comes back as bytes (the answer threshold: 64 MiB)
    const held = testContext({
      engines: { ...nodeEngines(), ...native.engines() },
      settings: { nativeStreamBytes: TINY } as never,
    });
    const r = await execute("thumbnail", { output_format: "png", width: 200 }, [corpusInput(rel)], held);
    expect(r.engine.name).toBe("libreoffice");
    const png = await saved(r.out.files[0]!, "png");
    expect(execFileSync("identify", ["-format", "%m %w", png], { encoding: "utf8" })).toBe("PNG 200");
    // answers over 1 KiB streamed: a stream comes back only from a framed call, and the PDF step refuses to hold it
    const streamedBack = testContext({
      engines: { ...nodeEngines(), ...native.engines({ streamOver: TINY }) },
      settings: { nativeStreamBytes: TINY } as never,
    });
    const err = await expectTaskError(
      () => execute("thumbnail", { output_format: "png", width: 200 }, [corpusInput(rel)], streamedBack),
      "OVER_BUDGET",
    );
    expect(err.message).toMatch(/its PDF is \d+ bytes/);
  });

  it("office → office streamed too: gotenberg-pages_3.docx → odt, its content.xml holds every page's text", async () => {
    const r = await execute("convert", { output_format: "odt" }, [corpusInput("office/gotenberg-pages_3.docx")], ctx());
    expect(r.engine.name).toBe("libreoffice");
    expect(isStreamed(r.out.files[0]!.data)).toBe(true);
    const odt = await saved(r.out.files[0]!, "odt");
    const text = execFileSync(
      "python3",
      [
        "-c",
        "import sys,zipfile,re;print(' '.join(re.sub(r'<[^>]+>',' ',zipfile.ZipFile(sys.argv[1]).read('content.xml').decode('utf8')).split()))",
        odt,
      ],
      { encoding: "utf8" },
    );
    for (const p of ["Page 1", "Page 2", "Page 3"]) expect(text).toContain(p);
  });
});
