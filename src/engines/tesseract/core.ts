/**
 * One tesseract instance (tesseract.js-core 7.0.0: tesseract with Leptonica compiled by emscripten,
 * the full SIMD build) made from the compiled module, with its traineddata in MEMFS, one recognition
 * API (LSTM, languages joined with "+") and, once a page needs it, an orientation API (osd,
 * legacy classifier). The SIMD-LSTM build is smaller but lacks `TessBaseAPI::DetectOS` (calling it
 * aborts: "missing function: _ZN9tesseract11TessBaseAPI8DetectOS…"), so this build is used with
 * the LSTM engine only (OEM 1) for recognition: the same words as the LSTM build.
 *
 * Loading (shared/reference/wasm-engines.md, tesseract row): the glue runs as if in a browser worker
 * (emscripten.ts `asBrowser`: no `process`, a `location`), the compiled module comes in through
 * `instantiateWasm`; traineddata arrives gzipped and is inflated with `DecompressionStream`.
 */
import TesseractCore from "tesseract.js-core/tesseract-core-simd.js";
import { asBrowser } from "../emscripten";

/** tesseract's PageIteratorLevel values. */
const RIL = { BLOCK: 0, TEXTLINE: 2, WORD: 3 } as const;
/** tesseract's PageSegMode values used here: orientation only; automatic layout. */
const PSM = { OSD_ONLY: 0, AUTO: 3 } as const;
/** tesseract's OcrEngineMode: the legacy classifier (OSD needs it), LSTM only (recognition). */
const OEM = { LEGACY: 0, LSTM: 1 } as const;
/** Where traineddata lives in MEMFS. */
const TESSDATA = "/tessdata";
/** The image file `SetImageFile` reads (tesseract.js-core's fork reads this fixed path with Leptonica). */
const INPUT = "/input";

/**
 * EXIF orientation values tesseract.js-core's `SetImageFile(exif, angle)` applies before recognition,
 * by the clockwise turn of the text on the given image: text turned 90° clockwise is made upright by
 * turning the image 90° counter-clockwise (EXIF 8), and so on.
 */
const EXIF_UPRIGHT = { 0: 1, 90: 8, 180: 3, 270: 6 } as const;

/** A text rotation, clockwise degrees. */
export type Rotation = 0 | 90 | 180 | 270;

/** One word as recognised, box in the coordinates of the image tesseract was given (after any rotation). */
export interface RawWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  confidence: number;
  line: number;
}

/** One recognition pass. */
export interface Pass {
  words: RawWord[];
  text: string;
  /** tesseract's mean word confidence, 0–100 (0 when nothing was found). */
  meanConfidence: number;
  /** Size of the image recognised (after turning), pixels. */
  width: number;
  height: number;
}

interface WrapperObject {
  __destroy__(): void;
}
interface RawIterator extends WrapperObject {
  Begin(): void;
  Next(level: number): boolean;
  Empty(level: number): boolean;
  IsAtBeginningOf(level: number): boolean;
  getBoundingBox(level: number): { x0: number; y0: number; x1: number; y1: number };
  GetUTF8Text(level: number): string;
  Confidence(level: number): number;
}
interface RawApi extends WrapperObject {
  Init(datapath: string, language: string, oem: number): number;
  End(): void;
  Version(): string;
  SetVariable(name: string, value: string): boolean;
  SetPageSegMode(mode: number): void;
  SetImageFile(exif: number, angle: number): number;
  GetInputImage(): { w: number; h: number } | null;
  Recognize(monitor: null): number;
  GetIterator(): RawIterator | null;
  GetUTF8Text(): string;
  MeanTextConf(): number;
  DetectOS(results: RawOsResults): boolean;
  Clear(): void;
}
interface RawOsResults extends WrapperObject {
  best_result: { orientation_id: number; oconfidence: number };
}
interface RawModule {
  FS: { writeFile(path: string, data: Uint8Array): void; mkdir(path: string): void; unlink(path: string): void };
  TessBaseAPI: new () => RawApi;
  OSResults: new () => RawOsResults;
}

/** Inflates gzipped bytes (traineddata .gz) with the platform's DecompressionStream (workerd, Node ≥ 18, browsers). */
export async function gunzip(data: Uint8Array | ArrayBuffer): Promise<Uint8Array> {
  const stream = new Response(data as ArrayBuffer).body!.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A ready instance. Not re-entrant: the engine runs one call at a time on it. */
export interface Tesseract {
  /** Languages whose traineddata is in MEMFS ("osd" included once loaded). */
  readonly loaded: ReadonlySet<string>;
  /** Puts the (inflated) traineddata of `lang` into MEMFS. */
  addLanguage(lang: string, data: Uint8Array): void;
  /** Makes the recognition API use `languages` (each loaded), re-initialising it when they changed; false when tesseract refused them. */
  useLanguages(languages: string[]): boolean;
  /** Writes the image to read; later calls read it. */
  putImage(data: Uint8Array): void;
  /**
   * Recognises the image (a TIFF's first frame) turned upright from `rotation` (see EXIF_UPRIGHT);
   * boxes in the turned image's coordinates. Null when Leptonica cannot read the image.
   */
  recognize(rotation: Rotation, dpi: number | undefined): Pass | null;
  /** tesseract's orientation detection (osd must be loaded): the text's clockwise turn and its confidence, or null when undecided. */
  detectOrientation(dpi: number | undefined): { rotation: Rotation; confidence: number } | null;
  /** Messages tesseract printed (stderr) since the last `putImage`. */
  messages(): string[];
  /** tesseract's version string. */
  version(): string;
  /** Current WebAssembly memory, bytes. */
  memoryBytes(): number;
}

/** A fresh instance from the compiled `module` (workerd: a CompiledWasm import; Node: WebAssembly.compile of the file). */
export async function newTesseract(module: WebAssembly.Module): Promise<Tesseract> {
  const printed: string[] = [];
  let memory: WebAssembly.Memory | undefined;
  const m = (await asBrowser(() =>
    TesseractCore({
      print: (s: string) => printed.push(s),
      printErr: (s: string) => printed.push(s),
      instantiateWasm(imports: WebAssembly.Imports, done: (i: WebAssembly.Instance, m: WebAssembly.Module) => void) {
        WebAssembly.instantiate(module, imports).then((i) => {
          // the build minifies export names: its memory is the one Memory export
          memory = Object.values(i.exports).find((v): v is WebAssembly.Memory => v instanceof WebAssembly.Memory);
          done(i, module);
        });
        return {};
      },
    }),
  )) as RawModule;
  m.FS.mkdir(TESSDATA);
  const loaded = new Set<string>();
  const api = new m.TessBaseAPI();
  let apiLanguages = "";
  let osd: RawApi | undefined;

  const setDpi = (a: RawApi, dpi: number | undefined) =>
    a.SetVariable("user_defined_dpi", String(dpi && dpi > 0 ? Math.round(dpi) : 0));

  return {
    loaded,
    addLanguage(lang, data) {
      m.FS.writeFile(`${TESSDATA}/${lang}.traineddata`, data);
      loaded.add(lang);
    },
    useLanguages(languages) {
      const key = languages.join("+");
      if (key === apiLanguages) return true;
      if (apiLanguages) api.End();
      apiLanguages = "";
      if (api.Init(TESSDATA, key, OEM.LSTM) !== 0) return false;
      apiLanguages = key;
      return true;
    },
    putImage(data) {
      printed.length = 0;
      m.FS.writeFile(INPUT, data);
    },
    recognize(rotation, dpi) {
      setDpi(api, dpi);
      api.SetPageSegMode(PSM.AUTO);
      if (api.SetImageFile(EXIF_UPRIGHT[rotation], 0) !== 0) return null;
      const pix = api.GetInputImage();
      const width = pix?.w ?? 0;
      const height = pix?.h ?? 0;
      api.Recognize(null);
      const words: RawWord[] = [];
      const it = api.GetIterator();
      if (it) {
        try {
          let line = -1;
          it.Begin();
          if (!it.Empty(RIL.BLOCK)) {
            do {
              if (it.IsAtBeginningOf(RIL.TEXTLINE)) line++;
              if (it.Empty(RIL.WORD)) continue;
              const text = it.GetUTF8Text(RIL.WORD);
              if (!text.trim()) continue;
              const b = it.getBoundingBox(RIL.WORD);
              words.push({
                text,
                x0: b.x0,
                y0: b.y0,
                x1: b.x1,
                y1: b.y1,
                confidence: Math.max(0, Math.min(100, it.Confidence(RIL.WORD))),
                line: Math.max(0, line),
              });
            } while (it.Next(RIL.WORD));
          }
        } finally {
          it.__destroy__();
        }
      }
      const text = words.length ? api.GetUTF8Text() : "";
      const meanConfidence = words.length ? api.MeanTextConf() : 0;
      api.Clear();
      return { words, text, meanConfidence, width, height };
    },
    detectOrientation(dpi) {
      if (!osd) {
        osd = new m.TessBaseAPI();
        if (osd.Init(TESSDATA, "osd", OEM.LEGACY) !== 0) {
          osd = undefined;
          throw new Error("osd.traineddata could not be loaded");
        }
      }
      setDpi(osd, dpi);
      osd.SetPageSegMode(PSM.OSD_ONLY);
      if (osd.SetImageFile(1, 0) !== 0) return null;
      const results = new m.OSResults();
      try {
        if (!osd.DetectOS(results)) return null;
        const best = results.best_result;
        // OSResults orientation_id: 0 up, 1 text turned 90° clockwise, 2 180°, 3 270° (checked on phototest turned by ImageMagick)
        return { rotation: ((best.orientation_id & 3) * 90) as Rotation, confidence: best.oconfidence };
      } finally {
        results.__destroy__();
        osd.Clear();
      }
    },
    messages: () => [...printed],
    version: () => api.Version(),
    memoryBytes: () => memory?.buffer.byteLength ?? 0,
  };
}
