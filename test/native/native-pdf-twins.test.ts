/**
 * The native twins of pdf-lib's PDF operations (issue 49): merge, pdf/encrypt and watermark on the native qpdf, their
 * inputs streamed to its folder and their answers streamed back (thresholds lowered to 64 KiB, as in
 * native-stream.test.ts, so corpus files take the streamed path), and the hand-off from pdf-lib when a PDF is over its
 * budget (a 2,400-page PDF: over pdf-lib's 2,000 pages, OVER_BUDGET, as a file over its bytes is).
 *
 * Oracles: poppler (pdfinfo pages and boxes, pdftotext text and word boxes), qpdf --show-encryption.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDeferred, isStreamed } from "../../native-protocol/frame";
import type { PdfEngine } from "../../src/engines/kinds/pdf";
import type { EngineInstances } from "../../src/engines/registry";
import type { OperationContext, OutputFile } from "../../src/operations/types";
import { execute } from "../../src/runner/execute";
import { nodeEngines } from "../../src/runtime/node/engines";
import { corpusPath } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { randomBytes, repeatedPdf, spied, type Call } from "../support/native-fixtures";
import { testContext } from "../support/pdf-helpers";
import { scaled } from "../support/time-scale";
import { fileInput } from "../support/disk-input";

/** The lowered threshold: inputs and answers over 64 KiB go framed. */
const OVER = 64 * 1024;

let native: NativeServer;
let wasm: EngineInstances;
let scratch: string;
/** 200 × the 12-page corpus PDF: 2,400 pages (~0.6 MB), over pdf-lib's page budget. */
let bigPdf: string;
/** Five pages of four displayed frames: letter, letter /Rotate 90, 446 × 631 pt (twice), A4. */
let mixedPdf: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "native-pdf-twins-"));
  wasm = nodeEngines();
  native = await startNativeEngine();
  bigPdf = repeatedPdf("pdf/gotenberg-pages_12.pdf", 200, join(scratch, "big.pdf"));
  mixedPdf = join(scratch, "mixed.pdf");
  execFileSync("qpdf", [
    "--empty",
    "--pages",
    corpusPath("pdf/pdfjs-rotation.pdf"),
    "1-2",
    corpusPath("pdf/gotenberg-pages_12.pdf"),
    "1-2",
    corpusPath("pdf/cloudconvert-input.pdf"),
    "1",
    "--",
    mixedPdf,
  ]);
}, scaled(120_000));

afterAll(async () => {
  await native?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** What the qpdf row was asked: for each call, whether each input went as a stream. */
type Sent = { method: string; streamed: boolean[] };
/** The native qpdf recording how its inputs went. */
function recorded(engine: PdfEngine, sent: Sent[]): PdfEngine {
  return new Proxy(engine, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== "function") return v;
      return (req: { input?: { data: unknown }; inputs?: { data: unknown }[] }) => {
        const inputs = req.inputs ?? (req.input ? [req.input] : []);
        // a stream opened now or when the framed body reaches it (merge: DeferredBytes)
        sent.push({ method: String(prop), streamed: inputs.map((i) => isStreamed(i.data) || isDeferred(i.data)) });
        return v.call(target, req);
      };
    },
  });
}

/**
 * The production table (WebAssembly rows, then the native ones) with inputs and answers over 64 KiB streamed; pdf-lib
 * spied into `calls`, the native qpdf's requests into `sent`.
 */
function streaming(calls: Call[] = [], sent: Sent[] = [], over = OVER): OperationContext {
  const nat = native.engines({ streamOver: over });
  return testContext({
    engines: { ...wasm, pdflib: spied(wasm.pdflib!, calls), ...nat, qpdf: recorded(nat.qpdf as PdfEngine, sent) },
    settings: { nativeStreamBytes: over } as never,
  });
}

/** An output written to a file of this test (read whole: small, or read here only). */
async function saved(f: OutputFile): Promise<string> {
  const bytes = f.data instanceof Uint8Array ? f.data : new Uint8Array(await new Response(f.data.stream).arrayBuffer());
  const path = join(scratch, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(path, bytes);
  return path;
}

const pdftotext = (path: string, page: number, pw: string[] = []) =>
  execFileSync("pdftotext", [...pw, "-f", String(page), "-l", String(page), path, "-"], { encoding: "utf8" })
    .replace(/\s+/g, " ")
    .trim();
const pages = (path: string, pw: string[] = []) =>
  Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [...pw, path], { encoding: "utf8" }))![1]);
/** Each page's "size" and "rot" lines of pdfinfo. */
const frames = (path: string) =>
  execFileSync("pdfinfo", ["-f", "1", "-l", "9999", path], { encoding: "utf8" })
    .split("\n")
    .filter((l) => /^Page\s+\d+ (size|rot):/.test(l));

describe("merge on the native qpdf, inputs streamed (issue 49)", () => {
  const parts = ["pdf/pdfjs-tracemonkey.pdf", "pdf/gotenberg-pages_12.pdf", "pdf/cloudconvert-input.pdf"];

  it("three corpus PDFs: pages = the sum, each page's text that of its source in order; inputs and answer streamed", async () => {
    const sent: Sent[] = [];
    const inputs = parts.map((rel) => fileInput(corpusPath(rel)));
    // 1 MB (streamed: over 64 KiB), 90 KB (streamed), 173 KB (streamed)
    const r = await execute("merge", { output_format: "pdf", engine: "qpdf" }, inputs, streaming([], sent));
    expect(r.engine.name).toBe("qpdf");
    expect(sent).toEqual([{ method: "merge", streamed: [true, true, true] }]);
    expect(isStreamed(r.out.files[0]!.data)).toBe(true);
    const out = await saved(r.out.files[0]!);
    const counts = parts.map((rel) => pages(corpusPath(rel)));
    expect(pages(out)).toBe(counts.reduce((a, b) => a + b, 0));
    let at = 0;
    for (const [i, rel] of parts.entries()) {
      for (const page of [1, counts[i]!]) expect(pdftotext(out, at + page)).toBe(pdftotext(corpusPath(rel), page));
      at += counts[i]!;
    }
  });

  it("an encrypted input streamed with its password (one per input): its pages in; a wrong one is INVALID_PASSWORD", async () => {
    const locked = corpusPath("pdf-encrypted/qpdf-enc-XI-R6-V5-U_view-O_master.pdf");
    const plain = corpusPath("pdf/gotenberg-pages_12.pdf");
    const sent: Sent[] = [];
    const r = await execute(
      "merge",
      { output_format: "pdf", engine: "qpdf", password: [null, "view"] },
      [fileInput(plain), fileInput(locked)],
      streaming([], sent, 4096),
    );
    expect(sent).toEqual([{ method: "merge", streamed: [true, true] }]);
    const out = await saved(r.out.files[0]!);
    // written unencrypted, as pdf-lib's merge
    expect(execFileSync("qpdf", ["--show-encryption", out], { encoding: "utf8" })).toContain("File is not encrypted");
    const lockedPages = pages(locked, ["-upw", "view"]);
    expect(pages(out)).toBe(12 + lockedPages);
    expect(pdftotext(out, 13)).toBe(pdftotext(locked, 1, ["-upw", "view"]));
    await expect(
      execute(
        "merge",
        { output_format: "pdf", engine: "qpdf", password: [null, "wrong"] },
        [fileInput(plain), fileInput(locked)],
        streaming([], [], 4096),
      ),
    ).rejects.toMatchObject({ code: "INVALID_PASSWORD" });
  });

  it("small PDFs are held while their total fits the threshold; the one that takes it past goes as a stream", async () => {
    const sent: Sent[] = [];
    const small = ["pdf/pdfjs-rotation.pdf", "pdf/pdfjs-js-buttons.pdf", "pdf/pdfjs-ArabicCIDTrueType.pdf"];
    // 6.6 + 29 + 39 KB: the third takes the total past 64 KiB
    const r = await execute(
      "merge",
      { output_format: "pdf", engine: "qpdf" },
      [...small.map((rel) => fileInput(corpusPath(rel))), fileInput(corpusPath("pdf/gotenberg-pages_12.pdf"))],
      streaming([], sent),
    );
    expect(sent).toEqual([{ method: "merge", streamed: [false, false, true, true] }]);
    const out = await saved(r.out.files[0]!);
    expect(pages(out)).toBe([...small, "pdf/gotenberg-pages_12.pdf"].reduce((n, rel) => n + pages(corpusPath(rel)), 0));
  });

  it("the 2,400-page PDF and a corpus PDF without a pin: pdf-lib answers OVER_BUDGET, qpdf merges (2,400 + 14 pages)", async () => {
    const calls: Call[] = [];
    const r = await execute(
      "merge",
      { output_format: "pdf" },
      [fileInput(bigPdf), fileInput(corpusPath("pdf/pdfjs-tracemonkey.pdf"))],
      streaming(calls),
    );
    // pdf-lib got the first input as bytes (its budget), counted its pages and handed the task on
    expect(calls).toContainEqual({ method: "merge", code: "OVER_BUDGET" });
    expect(r.engine.name).toBe("qpdf");
    const out = await saved(r.out.files[0]!);
    expect(pages(out)).toBe(2414);
    expect(pdftotext(out, 2401)).toBe(pdftotext(corpusPath("pdf/pdfjs-tracemonkey.pdf"), 1));
  });
});

describe("merge on the native qpdf keeps taking images (issue 49)", () => {
  it("the 2,400-page PDF, a JPEG and a PNG: pdf-lib OVER_BUDGET → qpdf, each image a page pdf-lib made (pdfimages: its size)", async () => {
    const calls: Call[] = [];
    const jpeg = corpusPath("images/tika-testJPEG_GEO.jpg");
    const png = corpusPath("images/pngsuite-basn6a16.png");
    const r = await execute(
      "merge",
      { output_format: "pdf" },
      [fileInput(bigPdf), fileInput(jpeg), fileInput(png)],
      streaming(calls),
    );
    expect(calls).toContainEqual({ method: "merge", code: "OVER_BUDGET" });
    expect(r.engine.name).toBe("qpdf");
    const out = await saved(r.out.files[0]!);
    expect(pages(out)).toBe(2402);
    // the images on the last two pages, at their pixel sizes (100 × 68 JPEG, 32 × 32 PNG)
    const list = execFileSync("pdfimages", ["-f", "2401", "-l", "2402", "-list", out], { encoding: "utf8" })
      .split("\n")
      .slice(2)
      .filter((l) => l.trim())
      .map((l) => l.trim().split(/\s+/))
      .filter((c) => c[2] === "image"); // the PNG's alpha is an smask of its own
    expect(list.map((c) => [c[0], c[3], c[4]])).toEqual([
      ["2401", "100", "68"],
      ["2402", "32", "32"],
    ]);
    // a page the size of the image at 72 ppi, as pdf-lib's own merge makes it (the JPEG declares no density)
    expect(execFileSync("pdfinfo", ["-f", "2402", "-l", "2402", out], { encoding: "utf8" })).toMatch(
      /Page\s+2402 size:\s+32 x 32 pts/,
    );
  });
});

describe("pdf/encrypt on the native qpdf (issue 49)", () => {
  it("the 2,400-page PDF: pdf-lib OVER_BUDGET → qpdf, AES-256 R6 with the permissions mapped; opens with the user password only", async () => {
    const calls: Call[] = [];
    const sent: Sent[] = [];
    const r = await execute(
      "pdf/encrypt",
      {
        set_password: "user pass",
        set_owner_password: "owner-pw",
        allow_print: "low",
        allow_extract: false,
        allow_modify: "form",
        allow_accessibility: false,
      },
      [fileInput(bigPdf)],
      streaming(calls, sent),
    );
    expect(calls).toContainEqual({ method: "encrypt", code: "OVER_BUDGET" });
    expect(r.engine.name).toBe("qpdf");
    expect(sent).toEqual([{ method: "encrypt", streamed: [true] }]);
    expect(isStreamed(r.out.files[0]!.data)).toBe(true);
    // qpdf cannot restrict accessibility at AES-256: accepted and reported
    expect((r.out.extra as { warnings?: string[] }).warnings?.join(" ")).toMatch(/allow_accessibility/);
    const out = await saved(r.out.files[0]!);
    const show = execFileSync("qpdf", ["--password=owner-pw", "--show-encryption", out], { encoding: "utf8" });
    expect(show).toMatch(/^R = 6$/m);
    expect(show).toMatch(/file encryption method: AESv3/);
    expect(show).toMatch(/print low resolution: allowed/);
    expect(show).toMatch(/print high resolution: not allowed/);
    expect(show).toMatch(/extract for any purpose: not allowed/);
    expect(show).toMatch(/modify document assembly: allowed/);
    expect(show).toMatch(/modify forms: allowed/);
    expect(show).toMatch(/modify annotations: not allowed/);
    expect(show).toMatch(/modify other: not allowed/);
    // without a password poppler cannot open it; with the user password every page reads as its source
    expect(spawnSync("pdfinfo", [out]).status).not.toBe(0);
    expect(pages(out, ["-upw", "user pass"])).toBe(2400);
    const src = corpusPath("pdf/gotenberg-pages_12.pdf");
    expect(pdftotext(out, 2400, ["-upw", "user pass"])).toBe(pdftotext(src, 12));
  });

  it("a password with a line break is refused UNSUPPORTED by qpdf (it would split its argument file), not passed on", async () => {
    const qpdf = native.engines().qpdf as PdfEngine;
    const r = await qpdf.encrypt!({
      input: { data: new Uint8Array(readFileSync(corpusPath("pdf/pdfjs-rotation.pdf"))), filename: "r.pdf" },
      userPassword: "a\n--decrypt",
      ownerPassword: "o",
      permissions: {
        printing: "highResolution",
        copying: true,
        contentAccessibility: true,
        documentAssembly: true,
        fillingForms: true,
        annotating: true,
        modifying: true,
      },
    });
    expect(r.ok ? "ok" : r.error.code).toBe("UNSUPPORTED");
  });
});

describe("watermark on the native qpdf: pdf-lib's stamp laid on by qpdf --overlay (issue 49)", () => {
  /** The word boxes pdftotext -bbox finds for `word` on each page, in displayed points (0 for none). */
  function boxes(path: string, word: string): (number[] | 0)[] {
    const xml = execFileSync("pdftotext", ["-bbox", path, "-"], { encoding: "utf8" });
    return xml
      .split(/<page /)
      .slice(1)
      .map((page) => {
        const m = new RegExp(
          `<word xMin="([\\d.]+)" yMin="([\\d.]+)" xMax="([\\d.]+)" yMax="([\\d.]+)">${word}</word>`,
        ).exec(page);
        return m ? m.slice(1).map(Number) : 0;
      });
  }
  const mark = {
    text: "STAMPED",
    font_size: 30,
    position_vertical: "top",
    position_horizontal: "right",
    margin_vertical: 40,
    margin_horizontal: 30,
    opacity: 60,
    pages: "1,2,4,5",
  };

  it("five pages of four frames (one /Rotate 90): the word where pdf-lib draws it on each page (±1 pt), none on page 3", async () => {
    const sent: Sent[] = [];
    // 21 KB: streamed over a 4 KiB threshold
    const viaQpdf = await execute(
      "watermark",
      { ...mark, engine: "qpdf" },
      [fileInput(mixedPdf)],
      streaming([], sent, 4096),
    );
    expect(viaQpdf.engine.name).toBe("qpdf");
    // the frames, then the stamp laid: the input streamed both times
    expect(sent).toEqual([
      { method: "pageFrames", streamed: [true] },
      { method: "watermark", streamed: [true] },
    ]);
    const viaPdfLib = await execute("watermark", { ...mark, engine: "pdflib" }, [fileInput(mixedPdf)], streaming());
    expect(viaPdfLib.engine.name).toBe("pdflib");
    const q = await saved(viaQpdf.out.files[0]!);
    const l = await saved(viaPdfLib.out.files[0]!);
    expect(frames(q)).toEqual(frames(mixedPdf));
    const got = boxes(q, "STAMPED");
    const want = boxes(l, "STAMPED");
    expect(want.map((b) => b !== 0)).toEqual([true, true, false, true, true]);
    expect(got.map((b) => b !== 0)).toEqual([true, true, false, true, true]);
    for (const [i, b] of got.entries()) {
      if (b === 0) continue;
      for (const [k, v] of b.entries())
        expect(Math.abs(v - (want[i] as number[])[k]!), `page ${i + 1}`).toBeLessThan(1);
    }
    // the page content is still there, under the stamp
    expect(pdftotext(q, 5)).toContain(pdftotext(mixedPdf, 5).slice(0, 40));
  });

  it("an input under the threshold still goes as a stream both times (read twice, never held twice)", async () => {
    const sent: Sent[] = [];
    const rel = "pdf/pdfjs-rotation.pdf"; // 6.6 KB
    const r = await execute(
      "watermark",
      { text: "SMALL", engine: "qpdf" },
      [fileInput(corpusPath(rel))],
      streaming([], sent),
    );
    expect(sent).toEqual([
      { method: "pageFrames", streamed: [true] },
      { method: "watermark", streamed: [true] },
    ]);
    const out = await saved(r.out.files[0]!);
    for (const page of [1, 2]) expect(pdftotext(out, page)).toContain("SMALL");
  });

  it("the 2,400-page PDF: pdf-lib OVER_BUDGET → qpdf; every page keeps its size and carries the text (layer below)", async () => {
    const calls: Call[] = [];
    const r = await execute(
      "watermark",
      { text: "DRAFT COPY", layer: "below", rotation: 45 },
      [fileInput(bigPdf)],
      streaming(calls),
    );
    expect(calls).toContainEqual({ method: "watermark", code: "OVER_BUDGET" });
    expect(r.engine.name).toBe("qpdf");
    const out = await saved(r.out.files[0]!);
    expect(frames(out)).toEqual(frames(bigPdf));
    // -raw: text in content-stream order (its 45° glyphs one a line): the stamp, under the page, comes first on every page
    const text = execFileSync("pdftotext", ["-raw", out, "-"], { encoding: "utf8", maxBuffer: 64 << 20 })
      .split("\f")
      .slice(0, 2400)
      .map((t) => t.replace(/\s+/g, ""));
    expect(text.filter((t) => t.startsWith("DRAFTCOPY")).length).toBe(2400);
    const src = corpusPath("pdf/gotenberg-pages_12.pdf");
    expect(pdftotext(out, 2400)).toContain(pdftotext(src, 12).slice(0, 30));
  });
});

describe("convert pdf → pdf (the re-save) on the native qpdf (issue 49)", () => {
  it("the 2,400-page PDF: pdf-lib OVER_BUDGET → qpdf re-saves the pages given, the input streamed", async () => {
    const calls: Call[] = [];
    const sent: Sent[] = [];
    const r = await execute(
      "convert",
      { input_format: "pdf", output_format: "pdf", pages: "2390-" },
      [fileInput(bigPdf)],
      streaming(calls, sent),
    );
    expect(calls).toContainEqual({ method: "extract", code: "OVER_BUDGET" });
    expect(r.engine.name).toBe("qpdf");
    expect(sent).toEqual([{ method: "extract", streamed: [true] }]);
    const out = await saved(r.out.files[0]!);
    expect(pages(out)).toBe(11);
    const src = corpusPath("pdf/gotenberg-pages_12.pdf");
    expect(pdftotext(out, 11)).toBe(pdftotext(src, 12));
    expect(pdftotext(out, 1)).toBe(pdftotext(src, 2));
  });
});

describe("bad input to the native twins: a task error with a code, never a crash", () => {
  /** A file of this test's folder holding `bytes`. */
  function junk(name: string, bytes: Uint8Array): string {
    const path = join(scratch, name);
    writeFileSync(path, bytes);
    return path;
  }

  it("100 KB of noise named .pdf, streamed: merge, encrypt and watermark on qpdf end with a code", async () => {
    const noise = junk("noise.pdf", randomBytes(100_000, 7));
    const ctx = () => streaming();
    await expect(
      execute("merge", { output_format: "pdf", engine: "qpdf" }, [fileInput(noise), fileInput(bigPdf)], ctx()),
    ).rejects.toMatchObject({
      // qpdf: "not a PDF" (UNSUPPORTED) hands it to pdf-lib, whose merge takes PDFs and images only
      code: "INVALID_CONVERSION_TYPE",
      message: expect.stringContaining("noise.pdf"),
    });
    await expect(
      execute("pdf/encrypt", { set_password: "x", engine: "qpdf" }, [fileInput(noise)], ctx()),
    ).rejects.toMatchObject({ code: "OPEN_FAILED" });
    await expect(execute("watermark", { text: "x", engine: "qpdf" }, [fileInput(noise)], ctx())).rejects.toMatchObject({
      code: "OPEN_FAILED",
    });
  });

  it("a PDF cut in half (its xref gone), streamed: merge reconstructs or refuses it with a code; the server still answers", async () => {
    const whole = readFileSync(corpusPath("pdf/pdfjs-tracemonkey.pdf"));
    const cut = junk("cut.pdf", new Uint8Array(whole.subarray(0, whole.length >> 1)));
    const r = await execute("merge", { output_format: "pdf", engine: "qpdf" }, [fileInput(cut)], streaming()).then(
      async (ok) => ({ pages: pages(await saved(ok.out.files[0]!)) }),
      (err: { code?: string }) => ({ code: err.code }),
    );
    // qpdf recovers what the cut file still holds (its pages up to the cut) or says it cannot open it
    if ("code" in r) expect(r.code).toBe("OPEN_FAILED");
    else expect(r.pages).toBeGreaterThan(0);
    expect((await fetch(`${native.url}/health`)).status).toBe(200);
  });

  it("a stamp drawn for another page count is refused (CONVERSION_FAILED), not laid on the wrong pages", async () => {
    const qpdf = native.engines().qpdf as PdfEngine;
    const stamp = readFileSync(corpusPath("pdf/pdfjs-rotation.pdf"));
    const r = await qpdf.watermark!({
      input: { data: new Uint8Array(readFileSync(corpusPath("pdf/gotenberg-pages_12.pdf"))), filename: "g.pdf" },
      mark: {},
      stamp: { data: new Uint8Array(stamp), pages: [1, 2] },
    });
    expect(r.ok ? "ok" : r.error.code).toBe("CONVERSION_FAILED");
  });
});
