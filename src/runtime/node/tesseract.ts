/**
 * Node's way of obtaining tesseract (the per-platform seam of DESIGN.md "runtime/"): read
 * tesseract.js-core's .wasm and compile it, read the gzipped traineddata from the
 * @tesseract.js-data packages. workerd imports both as modules instead (wasm/tesseract/worker.ts);
 * the engine code is the same.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTesseractEngine, type TesseractLoader } from "../../engines/tesseract/engine";
import type { OcrEngine } from "../../engines/kinds/ocr";

const require = createRequire(join(fileURLToPath(new URL("../../..", import.meta.url)), "package.json"));

/** Compiles tesseract.js-core's full SIMD build (3.4 MB). */
export async function loadTesseractWasm(): Promise<WebAssembly.Module> {
  return WebAssembly.compile(
    await readFile(join(dirname(require.resolve("tesseract.js-core/package.json")), "tesseract-core-simd.wasm")),
  );
}

/** The gzipped best_int traineddata of `lang` (eng, fra, osd) from its @tesseract.js-data package. */
export async function loadTesseractLanguage(lang: string): Promise<Uint8Array> {
  if (!/^[a-z]{3}(_[a-z]+)?$/.test(lang)) throw new Error(`not a tesseract language code: ${lang}`);
  const dir = dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`));
  return new Uint8Array(await readFile(join(dir, "4.0.0_best_int", `${lang}.traineddata.gz`)));
}

/** The in-process OCR engine for Node (tests, bench). */
export function nodeTesseractEngine(opts: Pick<TesseractLoader, "budget"> = {}): OcrEngine {
  return createTesseractEngine({ loadWasm: loadTesseractWasm, loadLanguage: loadTesseractLanguage, ...opts });
}
