/**
 * PDFs made of office documents (issue 12: "merge, thumbnail and watermark of office inputs work by
 * converting to PDF first"): a document is converted by the office engine (LibreOffice in the native
 * engine), as if a convert task had come first. pdf/merge.ts takes office inputs so; office/via-pdf.ts
 * runs a whole PDF handler on them.
 */
import { OFFICE_INPUTS } from "../../engines/registry";
import { useEngine } from "../../engines/use";
import { extensionOf } from "../io/filenames";
import { TaskError } from "../../engines/errors";
import { baseName, engineCall, readInputOrStream } from "../kit";
import type { InputFile, OperationContext } from "../types";

const OFFICE: ReadonlySet<string> = new Set(OFFICE_INPUTS);

/** True when `filename` (or the task's `input_format`) is an office format LibreOffice reads. */
export function isOfficeFile(filename: string, inputFormat?: string): boolean {
  return OFFICE.has((inputFormat ?? extensionOf(filename)).toLowerCase());
}

/**
 * The PDF of one office document, by the office engine of this host, as bytes for the PDF operation that reads it
 * (thumbnail, watermark, images of pages, merge). A document over the stream threshold travels to LibreOffice as a
 * stream (issue 49); its PDF is held here only up to that threshold, a larger one is refused.
 * @throws TaskError ENGINE_UNAVAILABLE (no office engine here) | OVER_BUDGET (a PDF over the stream threshold) | the
 *   engine's code (OPEN_FAILED, INVALID_PASSWORD, …)
 */
export async function officePdf(ctx: OperationContext, file: InputFile, password?: string): Promise<Uint8Array> {
  // the office engine that makes PDFs of this format (the first office row may take only some pairs: SheetJS, no pdf)
  const input = extensionOf(file.filename).toLowerCase() || undefined;
  const { engine, row } = useEngine(ctx, "office", "convert", { input, output: "pdf" });
  const data = await readInputOrStream(file, ctx, row);
  const r = await engineCall(
    engine.convert({ input: { data, filename: file.filename, password }, format: "pdf" }),
    file.filename,
    row.name,
  );
  if (r.data instanceof Uint8Array) return r.data;
  // a stream comes back only for a file over the stream threshold: more than this operation may hold
  await r.data.stream.cancel().catch(() => {});
  throw new TaskError(
    "OVER_BUDGET",
    `${file.filename}: its PDF is ${r.data.length} bytes; this operation reads the PDF of an office document in ` +
      `memory, and takes it up to the stream threshold (convert to pdf streams larger ones).`,
  );
}

/** `file` as a PDF input: same task and base name, `.pdf`, converted (opened with `password`) when first read. */
export function asPdfInput(ctx: OperationContext, file: InputFile, password?: string): InputFile {
  let pdf: Promise<Uint8Array> | undefined;
  return {
    ...file,
    filename: `${baseName(file.filename)}.pdf`,
    bytes: () => (pdf ??= officePdf(ctx, file, password)),
  };
}
