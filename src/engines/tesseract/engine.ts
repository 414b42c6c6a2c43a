/**
 * The OCR engine in WebAssembly (engine table row "tesseract", kind ocr; engine Worker
 * wasm/tesseract): tesseract.js-core 7.0.0 with the best_int eng and fra models of
 * @tesseract.js-data, and osd for orientation (issue 17).
 *
 * One call: languages checked against what this build ships (others → UNSUPPORTED, so routing
 * hands the request to the native row, kinds/ocr-languages.ts); the image's header checked against the
 * pixel budget before anything is decoded (OVER_BUDGET naming width×height and the limit); the
 * image recognised upright; when that recognition is weak (mean confidence below the budget's
 * `weakConfidence`, or no words) and `autoRotate` is not false, tesseract's orientation detection
 * (OSD) runs and, if it finds the text turned, the turned-upright image is recognised and kept when
 * it reads better, its boxes mapped back into the given image's coordinates. Upright pages thus cost
 * one recognition and no OSD. A request to `orient` (pdf/ocr auto_orient) also reports the turn of text read well as
 * given: from its words' reading direction (tesseract reads turned text as vertical lines), else from OSD as above.
 *
 * One instance serves call after call (languages loaded lazily into its MEMFS, the API re-initialised
 * only when the language set changes); after a call whose WebAssembly memory passed the budget's
 * `resetAboveBytes`, or a crash, the next call starts from a fresh instance. Calls run one at a time.
 */
import type { TaskErrorCode } from "../errors";
import { missingLanguages, normalizeLanguages, OCR_LANGUAGES } from "../kinds/ocr-languages";
import type { OcrEngine, OcrPage, OcrRequest, OcrWord } from "../kinds/ocr";
import { rotationOfWords } from "../../../native-protocol/ocr";
import { gunzip, newTesseract, type Pass, type RawWord, type Rotation, type Tesseract } from "./core";
import { ocrImageHeader } from "./image";
import { DEFAULT_TESSERACT_BUDGET, type TesseractBudget } from "./types";
import { TESSERACT_ENGINE } from "./version";

/** Where the engine's module and traineddata come from on this platform (runtime/ seam). */
export interface TesseractLoader {
  loadWasm(): Promise<WebAssembly.Module>;
  /** The gzipped traineddata of `lang` ("eng", "fra", "osd"): @tesseract.js-data/<lang>/4.0.0_best_int/<lang>.traineddata.gz. */
  loadLanguage(lang: string): Promise<Uint8Array | ArrayBuffer>;
  budget?: Partial<TesseractBudget>;
}

/** A failure on the way, turned into data at the call's edge. */
class Refusal extends Error {
  constructor(
    readonly code: TaskErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const version = TESSERACT_ENGINE.version;
const SHIPPED: readonly string[] = OCR_LANGUAGES.tesseract;

/**
 * A box of the image turned upright from `rotation` mapped back into the given image (W×H):
 * upright = given turned counter-clockwise by `rotation`, so a point (u, v) of it lies at
 * 180: (W−u, H−v); 90: (W−v, u); 270: (v, H−u).
 */
export function mapBack(w: RawWord, rotation: Rotation, W: number, H: number): RawWord {
  const pt = (u: number, v: number): [number, number] =>
    rotation === 180 ? [W - u, H - v] : rotation === 90 ? [W - v, u] : rotation === 270 ? [v, H - u] : [u, v];
  const [ax, ay] = pt(w.x0, w.y0);
  const [bx, by] = pt(w.x1, w.y1);
  return { ...w, x0: Math.min(ax, bx), y0: Math.min(ay, by), x1: Math.max(ax, bx), y1: Math.max(ay, by) };
}

/** The words of a pass clamped to the W×H image (tesseract's boxes can touch its edge). */
const clamp = (words: RawWord[], W: number, H: number): OcrWord[] =>
  words.map((w) => ({
    text: w.text,
    x0: Math.max(0, Math.min(W, w.x0)),
    y0: Math.max(0, Math.min(H, w.y0)),
    x1: Math.max(0, Math.min(W, w.x1)),
    y1: Math.max(0, Math.min(H, w.y1)),
    confidence: Math.round(w.confidence * 100) / 100,
    line: w.line,
  }));

/** The WebAssembly tesseract over `loader`'s module and traineddata; nothing is loaded before the first call. */
export function createTesseractEngine(loader: TesseractLoader): OcrEngine {
  const budget: TesseractBudget = { ...DEFAULT_TESSERACT_BUDGET, ...loader.budget };
  let module: Promise<WebAssembly.Module> | undefined;
  let current: Promise<Tesseract> | undefined;
  let lastMemory = 0;
  let queue: Promise<unknown> = Promise.resolve();

  const instance = () =>
    (current ??= (async () => newTesseract(await (module ??= loader.loadWasm())))().catch((err) => {
      current = undefined;
      throw err;
    }));

  /** Loads into `t` the traineddata of `langs` it lacks. */
  async function ensure(t: Tesseract, langs: string[]): Promise<void> {
    for (const lang of langs)
      if (!t.loaded.has(lang)) t.addLanguage(lang, await gunzip(await loader.loadLanguage(lang)));
  }

  async function run(req: OcrRequest): Promise<OcrPage> {
    const langs = normalizeLanguages(req.languages?.length ? req.languages : ["eng"]);
    const missing = missingLanguages("tesseract", langs);
    if (missing.length) {
      throw new Refusal(
        "UNSUPPORTED",
        `The WebAssembly OCR engine has the languages ${SHIPPED.join(", ")}; ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} recognised by the native engine (tesseract-native) where it is deployed.`,
      );
    }
    if (req.image.byteLength > budget.maxBytes) {
      throw new Refusal(
        "OVER_BUDGET",
        `${req.filename} is ${(req.image.byteLength / 1048576).toFixed(1)} MiB; the WebAssembly OCR engine takes image files up to ${(budget.maxBytes / 1048576).toFixed(0)} MiB.`,
      );
    }
    const header = ocrImageHeader(req.image);
    if (!header)
      throw new Refusal(
        "OPEN_FAILED",
        `${req.filename} is not an image the OCR engine reads (PNG, JPEG, TIFF, BMP, GIF or WebP).`,
      );
    const { width: w, height: h } = header;
    if (w <= 0 || h <= 0)
      throw new Refusal("OPEN_FAILED", `${req.filename} declares no image size (${w}×${h}); the file is damaged.`);
    if (w * h > budget.maxPixels || Math.max(w, h) > budget.maxSide) {
      throw new Refusal(
        "OVER_BUDGET",
        `${req.filename} is ${w}×${h} pixels (${((w * h) / 1e6).toFixed(1)} MP); the WebAssembly OCR engine takes images up to ${(budget.maxPixels / 1e6).toFixed(1)} MP and ${budget.maxSide} px a side. Use a lower resolution, or the native engine.`,
      );
    }
    const t = await instance();
    await ensure(t, langs);
    if (!t.useLanguages(langs))
      throw new Refusal(
        "UNSUPPORTED",
        `tesseract could not load the language data of ${langs.join("+")}: ${t.messages().slice(-2).join(" ")}`,
      );
    t.putImage(req.image);
    const upright = t.recognize(0, req.dpi);
    if (!upright)
      throw new Refusal(
        "OPEN_FAILED",
        `${req.filename} could not be read as an image: ${
          t
            .messages()
            .filter((m) => /Error|error/.test(m))
            .slice(0, 2)
            .join(" ") || "Leptonica could not decode it"
        }.`,
      );
    const W = upright.width;
    const H = upright.height;
    let best: Pass = upright;
    let rotation: Rotation = 0;
    const weak = upright.words.length === 0 || upright.meanConfidence < budget.weakConfidence;
    // asked to orient and read well as given: tesseract may have read turned text as vertical lines (their words' boxes
    // step down or up the image); the reading direction of those words is the text's turn, no second pass needed
    const byWords = req.orient && !weak ? rotationOfWords(upright.words) : 0;
    if (byWords) rotation = byWords;
    else if (req.autoRotate !== false && (weak || req.orient)) {
      await ensure(t, ["osd"]);
      const found = t.detectOrientation(req.dpi);
      if (found && found.rotation !== 0) {
        const turned = t.recognize(found.rotation, req.dpi);
        if (turned && turned.words.length && turned.meanConfidence > upright.meanConfidence) {
          best = { ...turned, words: turned.words.map((word) => mapBack(word, found.rotation, W, H)) };
          rotation = found.rotation;
        }
      }
    }
    return { width: W, height: H, rotation, words: clamp(best.words, W, H), text: best.text };
  }

  /** One call at a time: the instance's API holds one image and one language set. */
  function serial<T>(body: () => Promise<T>): Promise<T> {
    const next = queue.then(body, body);
    queue = next.catch(() => undefined);
    return next;
  }

  return {
    recognize(req) {
      return serial(async () => {
        const t0 = Date.now();
        try {
          const page = await run(req);
          const t = await current;
          lastMemory = t?.memoryBytes() ?? lastMemory;
          if (lastMemory > budget.resetAboveBytes) current = undefined;
          return {
            ok: true as const,
            engineVersion: version,
            ...page,
            ms: Date.now() - t0,
            wasmMemoryBytes: lastMemory,
          };
        } catch (err) {
          const refused = err instanceof Refusal;
          // a crash (an emscripten abort, a RuntimeError) leaves the instance unusable: the next call gets a fresh one
          if (!refused) current = undefined;
          const code: TaskErrorCode = refused ? err.code : "CONVERSION_FAILED";
          const message = refused
            ? err.message
            : `tesseract failed on ${req.filename}: ${err instanceof Error ? err.message : String(err)}`;
          return {
            ok: false as const,
            error: { code, message, retryable: false },
            engineVersion: version,
            ms: Date.now() - t0,
            wasmMemoryBytes: lastMemory,
          };
        }
      });
    },
  };
}
