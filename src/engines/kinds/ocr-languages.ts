/**
 * Which OCR row offers which languages (issue 17), for routing, the pdf/ocr operation and the
 * GET /v2/operations catalogue. Tesseract language codes: ISO 639-2/T three letters, with a script
 * suffix where tesseract has one (chi_sim, chi_tra).
 *
 * - "tesseract" (WebAssembly, engine Worker wasm/tesseract): the traineddata shipped from npm
 *   (@tesseract.js-data/eng and /fra, best_int models; osd for orientation), src/engines/tesseract.
 * - "tesseract-native" (Debian 12's tesseract 5.3.0 in the native engine): the tesseract-ocr-<lang>
 *   packages of container/debian-packages.txt (tessdata_fast models). The native engine checks
 *   `tesseract --list-langs` itself and answers UNSUPPORTED for a language its host lacks.
 */

/** Languages each OCR row recognises, by engine-table row name. */
export const OCR_LANGUAGES = {
  tesseract: ["eng", "fra"],
  "tesseract-native": ["eng", "deu", "fra", "spa", "ita", "por", "nld", "chi_sim", "chi_tra", "jpn", "rus", "ara"],
} as const satisfies Record<string, readonly string[]>;

/** An OCR row name. */
export type OcrRowName = keyof typeof OCR_LANGUAGES;

/** Rows in routing order: WebAssembly first, the native engine for what it lacks. */
const ORDER: readonly OcrRowName[] = ["tesseract", "tesseract-native"];

/** Every language some row offers, sorted (for the catalogue). */
export const ALL_OCR_LANGUAGES: readonly string[] = [...new Set(ORDER.flatMap((r) => OCR_LANGUAGES[r]))].sort();

/** Normalises language codes: lower case, trimmed, "+"-joined strings split, duplicates dropped ("ENG+fra" → ["eng","fra"]). */
export function normalizeLanguages(languages: readonly string[]): string[] {
  return [
    ...new Set(
      languages
        .flatMap((l) => l.split("+"))
        .map((l) => l.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

/** The languages of `languages` that row `row` lacks (normalised codes). */
export function missingLanguages(row: OcrRowName, languages: readonly string[]): string[] {
  const have: readonly string[] = OCR_LANGUAGES[row];
  return normalizeLanguages(languages).filter((l) => !have.includes(l));
}

/**
 * The first row (routing order) that offers every language of `languages`, or undefined when no
 * row does (the operation answers 422 naming the missing codes). An empty list means ["eng"].
 */
export function ocrRowFor(languages: readonly string[]): OcrRowName | undefined {
  const wanted = normalizeLanguages(languages.length ? languages : ["eng"]);
  return ORDER.find((row) => missingLanguages(row, wanted).length === 0);
}
