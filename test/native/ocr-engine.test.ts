/**
 * Issue 17, the OCR engines: tesseract in WebAssembly (row "tesseract", run in process as Node
 * runs it) and Debian's tesseract in the native engine (row "tesseract-native"). Oracles: the
 * corpus scans' ground truth (facts.json `ocr_text`) and Debian's `tesseract` run here with
 * OMP_THREAD_LIMIT=1 — word recall, word boxes (its TSV) and timing are compared against it.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingLanguages, ocrRowFor, OCR_LANGUAGES } from "../../src/engines/kinds/ocr-languages";
import type { OcrEngine, OcrPage, OcrRequest, OcrWord } from "../../src/engines/kinds/ocr";
import { DEFAULT_TESSERACT_BUDGET, type TesseractBudget } from "../../src/engines/tesseract/types";
import { DEFAULT_RASTER_BUDGET } from "../../src/engines/pdfium/types";
import { enginesFor } from "../../src/engines/routing";
import { newTesseract } from "../../src/engines/tesseract/core";
import { createTesseractEngine } from "../../src/engines/tesseract/engine";
import { TESSERACT_ENGINE } from "../../src/engines/tesseract/version";
import { loadTesseractLanguage, loadTesseractWasm, nodeTesseractEngine } from "../../src/runtime/node/tesseract";
import { corpusPath, fact } from "../support/corpus";
import { MULTIPAGE_RECALL, pdfPageText, stableNativeWords, recall, tokens } from "../support/ocr-recall";
import { ocrPdf } from "../../src/operations/pdf/ocr";
import { nodePdfiumEngine } from "../../src/runtime/node/pdfium";
import { corpusInput, testContext, tmpFile } from "../support/pdf-helpers";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { scaled } from "../support/time-scale";

const engine = nodeTesseractEngine();
const scan = (name: string) => readFileSync(corpusPath(`scans/${name}`));
const request = (name: string, extra: Partial<OcrRequest> = {}): OcrRequest => ({
  image: new Uint8Array(scan(name)),
  filename: name,
  languages: ["eng"],
  ...extra,
});

/** The page, or a failed expectation showing the engine's error. */
async function page(
  e: OcrEngine,
  req: OcrRequest,
): Promise<OcrPage & { engineVersion: string; ms?: number; wasmMemoryBytes?: number }> {
  const r = await e.recognize(req);
  if (!r.ok) expect.fail(`${req.filename}: ${r.error.code} ${r.error.message}`);
  return r;
}

/** Debian's tesseract on a scan, single-threaded: its text or TSV and wall time (process start included). */
function nativeTesseract(name: string, args: string[] = []): { out: string; ms: number } {
  const t0 = Date.now();
  const out = execFileSync("tesseract", [corpusPath(`scans/${name}`), "-", "-l", "eng", ...args], {
    env: { ...process.env, OMP_THREAD_LIMIT: "1" },
    stdio: ["ignore", "pipe", "ignore"],
  }).toString();
  return { out, ms: Date.now() - t0 };
}

/** The words of native tesseract's TSV with their boxes. */
function nativeWords(name: string): { text: string; x0: number; y0: number; x1: number; y1: number }[] {
  return nativeTesseract(name, ["tsv"])
    .out.split("\n")
    .slice(1)
    .map((r) => r.split("\t"))
    .filter((c) => c[0] === "5" && c[11]?.trim())
    .map((c) => ({ text: c[11], x0: +c[6], y0: +c[7], x1: +c[6] + +c[8], y1: +c[7] + +c[9] }));
}

const inside = (p: OcrPage) =>
  p.words.every((w) => w.x0 >= 0 && w.y0 >= 0 && w.x1 <= p.width && w.y1 <= p.height && w.x0 < w.x1 && w.y0 < w.y1);
const near = (a: { x0: number; y0: number; x1: number; y1: number }, b: typeof a, tol: number) =>
  Math.max(Math.abs(a.x0 - b.x0), Math.abs(a.y0 - b.y0), Math.abs(a.x1 - b.x1), Math.abs(a.y1 - b.y1)) <= tol;
const mib = (n?: number) => `${((n ?? 0) / 1048576).toFixed(1)} MiB`;

describe("tesseract in WebAssembly (row tesseract)", () => {
  it("reports the version the core itself reports", async () => {
    const t = await newTesseract(await loadTesseractWasm());
    expect(t.version()).toBe(TESSERACT_ENGINE.version);
  });

  for (const name of ["tesseract-phototest.tif", "tesseractjs-bill.png"]) {
    it(`${name}: word recall ≥ native tesseract's − 2 points`, async () => {
      const truth = String(fact(`scans/${name}`).ocr_text);
      const ours = await page(engine, request(name));
      const native = nativeTesseract(name);
      const r = { ours: recall(truth, ours.text), native: recall(truth, native.out) };
      console.log(
        `${name}: recall wasm ${r.ours.toFixed(3)} (${ours.ms} ms, WASM memory ${mib(ours.wasmMemoryBytes)}) vs native ${r.native.toFixed(3)} (${native.ms} ms, OMP_THREAD_LIMIT=1)`,
      );
      expect(r.ours).toBeGreaterThanOrEqual(r.native - 0.02);
      expect(ours.rotation).toBe(0);
      expect(inside(ours)).toBe(true);
      // the text is the words' text, line by line
      expect(tokens(ours.words.map((w) => w.text).join(" "))).toEqual(tokens(ours.text));
    });
  }

  it("phototest: size as given, words inside it, 'quick' where native tesseract boxes it, line indices grouping the lines", async () => {
    const p = await page(engine, request("tesseract-phototest.tif"));
    expect([p.width, p.height]).toEqual([
      Number(fact("scans/tesseract-phototest.tif").width),
      Number(fact("scans/tesseract-phototest.tif").height),
    ]);
    const quick = p.words.find((w) => w.text === "quick")!;
    const nativeQuick = nativeWords("tesseract-phototest.tif").find((w) => w.text === "quick")!;
    expect(quick).toBeDefined();
    expect(near(quick, nativeQuick, 3), `${JSON.stringify(quick)} vs native ${JSON.stringify(nativeQuick)}`).toBe(true);
    // every word of quick's line overlaps its line's band; the line starts with "The"
    const line = p.words.filter((w) => w.line === quick.line);
    expect(line[0].text).toBe("The");
    for (const w of line) expect(w.y0 < quick.y1 && w.y1 > quick.y0).toBe(true);
    // lines are numbered in reading order from 0
    expect(p.words[0].line).toBe(0);
    expect(p.words.every((w, i) => i === 0 || w.line >= p.words[i - 1].line)).toBe(true);
    expect(p.words.every((w) => w.confidence >= 0 && w.confidence <= 100)).toBe(true);
  });

  it("tesseract-phototest-rotated-180.png: rotation 180, recall ≥ 0.9, boxes in the given image's coordinates", async () => {
    const name = "tesseract-phototest-rotated-180.png";
    const p = await page(engine, request(name));
    const r = recall(String(fact(`scans/${name}`).ocr_text), p.text);
    console.log(
      `${name}: rotation ${p.rotation}, recall ${r.toFixed(3)}, ${p.ms} ms (OSD included), WASM memory ${mib(p.wasmMemoryBytes)}`,
    );
    expect(p.rotation).toBe(180);
    expect(r).toBeGreaterThanOrEqual(0.9);
    expect(inside(p)).toBe(true);
    // the upright page's "quick", turned by 180° within 640×480
    const upright = nativeWords("tesseract-phototest.tif").find((w) => w.text === "quick")!;
    const quick = p.words.find((w) => w.text === "quick")!;
    expect(
      near(
        quick,
        { x0: p.width - upright.x1, y0: p.height - upright.y1, x1: p.width - upright.x0, y1: p.height - upright.y0 },
        4,
      ),
    ).toBe(true);
    // autoRotate: false reads it as it is given
    const asGiven = await page(engine, request(name, { autoRotate: false }));
    expect(asGiven.rotation).toBe(0);
    expect(recall(String(fact(`scans/${name}`).ocr_text), asGiven.text)).toBeLessThan(0.5);
  });

  it("a language this build lacks → UNSUPPORTED naming it (routing hands it to tesseract-native)", async () => {
    const r = await engine.recognize(request("tesseract-phototest.tif", { languages: ["eng", "deu"] }));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe("UNSUPPORTED");
      expect(r.error.message).toMatch(/deu/);
    }
    const unknown = await engine.recognize(request("tesseract-phototest.tif", { languages: ["klingon"] }));
    expect(!unknown.ok && unknown.error.code).toBe("UNSUPPORTED");
  });

  it("bytes that are no image → OPEN_FAILED; a PNG whose pixels are garbage → OPEN_FAILED", async () => {
    const text = await engine.recognize({
      image: new TextEncoder().encode("%PDF-1.4 not an image"),
      filename: "x.png",
      languages: ["eng"],
    });
    expect(!text.ok && text.error.code).toBe("OPEN_FAILED");
    const png = new Uint8Array(scan("tesseractjs-bill.png").subarray(0, 200));
    const cut = await engine.recognize({ image: png, filename: "cut.png", languages: ["eng"] });
    expect(!cut.ok && cut.error.code).toBe("OPEN_FAILED");
  });

  it("a pixel bomb's header → OVER_BUDGET with its size and the limit, before anything is loaded or decoded", async () => {
    // a PNG signature and an IHDR declaring 50000×50000 (2.5 GP), no pixel data
    const png = new Uint8Array([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0xc3, 0x50, 0, 0, 0xc3,
      0x50, 8, 2, 0, 0, 0, 0, 0, 0, 0,
    ]);
    let loaded = 0;
    const fresh = createTesseractEngine({
      loadWasm: async () => (loaded++, loadTesseractWasm()),
      loadLanguage: async (l) => (loaded++, loadTesseractLanguage(l)),
    });
    const r = await fresh.recognize({ image: png, filename: "bomb.png", languages: ["eng"] });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe("OVER_BUDGET");
      expect(r.error.message).toMatch(/50000×50000/);
      expect(r.error.message).toContain(`up to ${(DEFAULT_TESSERACT_BUDGET.maxPixels / 1e6).toFixed(1)} MP`);
    }
    expect(loaded).toBe(0);
  });

  it("starts a fresh instance when WebAssembly memory passes the budget, and keeps answering", async () => {
    // A fresh instance has an empty MEMFS: it asks the loader for its traineddata again. So the loader's calls show
    // the restart: one "eng" load for two calls on one instance, two when the first call's memory passed the budget.
    const engineCounting = (budget?: Partial<TesseractBudget>) => {
      const loads: string[] = [];
      const e = createTesseractEngine({
        loadWasm: loadTesseractWasm,
        loadLanguage: (lang) => (loads.push(lang), loadTesseractLanguage(lang)),
        budget,
      });
      return { e, loads };
    };
    const kept = engineCounting();
    const k1 = await page(kept.e, request("tesseractjs-cosmic.png"));
    const k2 = await page(kept.e, request("tesseractjs-cosmic.png"));
    expect(k2.text).toBe(k1.text);
    expect(kept.loads).toEqual(["eng"]); // under the default budget the instance (and its loaded language) is kept
    const small = engineCounting({ resetAboveBytes: 1 });
    const a = await page(small.e, request("tesseractjs-cosmic.png"));
    expect(a.wasmMemoryBytes).toBeGreaterThan(1);
    expect(small.loads).toEqual(["eng"]);
    const b = await page(small.e, request("tesseractjs-cosmic.png"));
    expect(small.loads).toEqual(["eng", "eng"]); // the second call ran on a new instance
    expect(b.text).toBe(a.text);
    expect(b.text).toBe(k1.text);
  });
});

describe("OCR rows and languages", () => {
  it("routing: the WebAssembly row first, then the native one; ocrRowFor picks by language", () => {
    expect(enginesFor({ kind: "ocr", operation: "pdf/ocr" }).map((r) => r.name)).toEqual([
      "tesseract",
      "tesseract-native",
    ]);
    expect(enginesFor({ kind: "ocr", operation: "convert", pin: "tesseract.js" }).map((r) => r.name)).toEqual([
      "tesseract",
    ]);
    expect(ocrRowFor(["eng"])).toBe("tesseract");
    expect(ocrRowFor(["ENG+fra"])).toBe("tesseract");
    expect(ocrRowFor(["eng", "deu"])).toBe("tesseract-native");
    expect(ocrRowFor(["chi_tra"])).toBe("tesseract-native");
    expect(ocrRowFor(["tlh"])).toBeUndefined();
    expect(missingLanguages("tesseract", ["eng", "jpn"])).toEqual(["jpn"]);
  });

  it("the native row's languages are installed here (tesseract --list-langs)", () => {
    const have = execFileSync("tesseract", ["--list-langs"])
      .toString()
      .split("\n")
      .map((l) => l.trim());
    for (const l of [...OCR_LANGUAGES["tesseract-native"], "osd"]) expect(have, l).toContain(l);
  });
});

describe("Debian's tesseract in the native engine (row tesseract-native)", () => {
  let native: NativeServer;
  beforeAll(async () => {
    native = await startNativeEngine();
  }, scaled(120_000));
  afterAll(async () => native?.stop());
  const ocr = () => native.engines()["tesseract-native"]!;

  it("tesseractjs-chinese.png with chi_tra: the ground truth's characters", async () => {
    const name = "tesseractjs-chinese.png";
    const p = await page(ocr(), request(name, { languages: ["chi_tra"] }));
    const truth = [...String(fact(`scans/${name}`).ocr_text).replace(/\s/g, "")];
    const got = p.text.replace(/\s/g, "");
    const found = truth.filter((c) => got.includes(c)).length / truth.length;
    console.log(`${name} (native chi_tra): "${p.text.trim()}", character recall ${found.toFixed(3)}, ${p.ms} ms`);
    expect(found).toBeGreaterThanOrEqual(0.9);
    expect(inside(p)).toBe(true);
    expect(p.engineVersion).toMatch(/^5\./);
  });

  it("the rotated scan: rotation 180 and boxes in the given image's coordinates; a missing language → UNSUPPORTED; no image → OPEN_FAILED", async () => {
    const p = await page(ocr(), request("tesseract-phototest-rotated-180.png"));
    expect(p.rotation).toBe(180);
    expect(recall(String(fact("scans/tesseract-phototest-rotated-180.png").ocr_text), p.text)).toBeGreaterThanOrEqual(
      0.9,
    );
    const quick = p.words.find((w: OcrWord) => w.text === "quick")!;
    const upright = nativeWords("tesseract-phototest.tif").find((w) => w.text === "quick")!;
    expect(
      near(quick, { x0: 640 - upright.x1, y0: 480 - upright.y1, x1: 640 - upright.x0, y1: 480 - upright.y0 }, 4),
    ).toBe(true);
    const missing = await ocr().recognize(request("tesseract-phototest.tif", { languages: ["tlh"] }));
    expect(!missing.ok && missing.error.code).toBe("UNSUPPORTED");
    const junk = await ocr().recognize({
      image: new TextEncoder().encode("not an image"),
      filename: "x.png",
      languages: ["eng"],
    });
    expect(!junk.ok && junk.error.code).toBe("OPEN_FAILED");
  });
  /**
   * Issue 31: OCRmyPDF's multipage.pdf (page 2 is 2160 × 2160 pt) through pdf/ocr. Routed to the WebAssembly engine with
   * the native one on the host, page 2 went alone to native tesseract at 115 ppi (PDFium's 12 MP), every page there when
   * routed to the native engine. Issue 49 sized PDFium's page budget to the api Worker's isolate (2.2 MP): the page no
   * longer fits at 72 ppi on either route, so this handler ends OVER_BUDGET naming it, and routing hands the task to the
   * native OCRmyPDF (test/native/native-ocr.test.ts).
   */
  it.each(["tesseract", "tesseract-native"] as const)(
    "pdf/ocr of a scan with a 2160 pt page routed to %s: OVER_BUDGET since issue 49, naming the page and PDFium's page budget",
    async (route) => {
      const rel = "scans/ocrmypdf-multipage.pdf";
      const ctx = testContext({
        engines: { pdfium: nodePdfiumEngine(), tesseract: engine, "tesseract-native": ocr() },
        route,
      });
      const e = await ocrPdf.run([corpusInput(rel)], { language: ["eng"] }, ctx).catch((err) => err);
      expect(e.code).toBe("OVER_BUDGET");
      expect(e.message).toMatch(/page 2 is 2160×2160 pt/);
      expect(e.message).toContain(`over the ${DEFAULT_RASTER_BUDGET.maxPagePixels / 1e6} megapixels`);
    },
    240_000,
  );
});
