/**
 * Pieces shared by the image operations: the input's canonical image format and the OutputFile of
 * one engine output. Engines, budgets, naming and result unwrapping come from the kit (../kit.ts).
 */
import { TaskError } from "../../engines/errors";
import { MIME, canonicalFormat } from "../../engines/kinds/image";
import type { ImageFormat, ImageRunOutput } from "../../engines/kinds/image";
import { formatOf } from "../kit";
import type { InputFile, OutputFile } from "../types";

/** Canonical format of an input from `input_format` or its extension. @throws TaskError INVALID_CONVERSION_TYPE */
export function inputFormatOf(file: InputFile, inputFormat: string | undefined, operation: string): ImageFormat {
  const named = formatOf(file, inputFormat);
  const format = canonicalFormat(named);
  if (!format) {
    throw new TaskError(
      "INVALID_CONVERSION_TYPE",
      `${operation} cannot read ${named ? `${named} files` : `${file.filename} (no extension; set input_format)`}.`,
    );
  }
  return format;
}

/** OutputFile of one engine output. */
export function imageFile(filename: string, out: ImageRunOutput): OutputFile {
  return { filename, data: out.data, contentType: MIME[out.format] };
}
