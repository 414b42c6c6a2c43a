/**
 * metadata: ExifTool's properties of the input, as `result.metadata` (service-spec "Task
 * results"): property name → string or number, PageCount an integer, SourceFile/FileName the
 * uploaded name. No output files; 0 credits (contract §7). A file ExifTool cannot make sense of
 * still finishes, with ExifTool's own Error/Warning property, as `exiftool -json` prints it.
 * With several inputs, the first one is read (the result holds one file's properties).
 *
 * `password` opens an encrypted PDF (issue 16): the routed PDF engine decrypts it first (pdf-lib:
 * milliseconds, where ExifTool's own -password takes ~19 s natively for an AES-256 R6 file, being
 * pure Perl), and ExifTool reads the decrypted copy — so the properties are the document's (Info,
 * XMP, PageCount …) while FileSize is the decrypted copy's and the Encryption property is absent.
 * A wrong or missing password is INVALID_PASSWORD.
 *
 * Issue 49: a stored file (R2) is read by ranges, of any size, by the WebAssembly ExifTool: only what ExifTool's
 * parsers ask for crosses into the engine, at most its byte budget (engines/exiftool/ranged.ts). A file it reads
 * through past that budget, or one not stored where ranges are read, goes to Debian's exiftool in the native engine
 * (row exiftool-native), streamed to its disk above the stream threshold.
 */
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import { useEngine } from "../../engines/use";
import { engineCall, formatOf, heldBytes, rangedInput, readInput, readInputOrStream } from "../kit";
import type { OperationHandler } from "../types";
import { METADATA_READ_FORMATS } from "./formats";
import { looksLikePdf } from "../../engines/sniff";
import { passwordParam } from "../pdf/common";
import type { OperationContext } from "../types";

/** The PDF decrypted with `password` by the PDF engine that does pdf/decrypt. @throws TaskError INVALID_PASSWORD */
async function decrypted(
  data: Uint8Array,
  filename: string,
  password: string,
  ctx: OperationContext,
): Promise<Uint8Array> {
  const { engine, row } = useEngine(ctx, "pdf", "pdf/decrypt");
  return heldBytes(
    (await engineCall(engine.decrypt?.({ input: { data, filename, password } }), filename, row.name)).data,
  );
}

/** metadata: `password` for an encrypted PDF (input_format is common; `filename` is not offered). */
export const metadataParams = z.object({ password: passwordParam });

export const metadataRead: OperationHandler<z.infer<typeof metadataParams>> = {
  operation: "metadata",
  kind: "metadata",
  formats: METADATA_READ_FORMATS.map((input) => ({ input, output: "*" })),
  params: metadataParams,
  credits: 0,
  takesInput: true,
  readsRanges: true,
  async run(inputs, p, ctx) {
    const { engine, row } = useEngine(ctx, "metadata", "metadata");
    const input = inputs[0];
    if (!input) throw new TaskError("INVALID_CONVERSION_TYPE", "metadata needs an input file.");
    const format = formatOf(input, p.input_format);
    // issue 49: a row that streams (the native ExifTool) gets a file over its threshold as a stream; an encrypted PDF
    // is decrypted first by the PDF engine, which takes bytes
    // and (issue 49) a row that reads by ranges (the WebAssembly ExifTool) reads only what ExifTool asks for of a stored
    // file; it then refuses (OVER_BUDGET) past its byte budget of reads, and the native row takes the task
    const ranged = p.password === undefined ? rangedInput(input, ctx, row) : undefined;
    let data =
      ranged ??
      (p.password === undefined ? await readInputOrStream(input, ctx, row) : await readInput(input, ctx, row));
    if (p.password !== undefined && data instanceof Uint8Array && (format === "pdf" || looksLikePdf(data)))
      data = await decrypted(data, input.filename, p.password, ctx);
    const r = await engineCall(
      engine.read({ input: data, filename: input.filename, format }),
      input.filename,
      row.name,
    );
    const metadata = r.metadata;
    // the spec's PageCount is an integer: ExifTool prints it as one; keep it so if a version prints a string
    if (typeof metadata.PageCount === "string" && /^\d+$/.test(metadata.PageCount))
      metadata.PageCount = Number(metadata.PageCount);
    return { files: [], extra: { metadata }, engine: { name: row.name, version: r.engineVersion } };
  },
};
