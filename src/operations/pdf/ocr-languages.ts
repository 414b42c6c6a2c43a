/**
 * The `language` parameter of pdf/ocr (contract §6: an array of tesseract codes; a single code or
 * "eng+fra" accepted too): parsing, and the creation-time check against the languages some OCR
 * row offers (engines/kinds/ocr-languages.ts), so an unknown language is a 422 naming what is available.
 */
import { z } from "zod";
import { ALL_OCR_LANGUAGES, normalizeLanguages, ocrRowFor } from "../../engines/kinds/ocr-languages";

/** `language`: one code or an array of codes (default ["eng"]). */
export const languageParam = z
  .union([z.string().min(1).max(100), z.array(z.string().min(1).max(20)).min(1).max(8)])
  .optional()
  .describe(
    `Tesseract language codes, e.g. ["eng","deu"] (default ["eng"]); available: ${ALL_OCR_LANGUAGES.join(", ")}`,
  );

/** The normalised language list of a `language` value ("ENG+fra" → ["eng","fra"]; absent → ["eng"]). */
export function languagesOf(value: string | string[] | undefined): string[] {
  const list = normalizeLanguages(value === undefined ? ["eng"] : Array.isArray(value) ? value : [value]);
  return list.length ? list : ["eng"];
}

/** Creation-time problems of `language`: codes no OCR engine offers, or a mix no single engine reads. */
export function checkLanguages(value: string | string[] | undefined): string[] {
  const languages = languagesOf(value);
  const unknown = languages.filter((l) => !ALL_OCR_LANGUAGES.includes(l));
  if (unknown.length)
    return [
      `language: ${unknown.join(", ")} ${unknown.length === 1 ? "is" : "are"} not available; available: ${ALL_OCR_LANGUAGES.join(", ")}.`,
    ];
  if (!ocrRowFor(languages)) return [`language: no OCR engine here reads ${languages.join(" + ")} together.`];
  return [];
}
