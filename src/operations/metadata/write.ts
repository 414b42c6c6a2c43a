/**
 * metadata/write: writes `metadata` (property → value) into a new copy of the input with ExifTool
 * (service-spec: "Writes XMP or IPTC style metadata"; keys include Title, Author, Creator,
 * Producer, plus Subject, Keywords and any ExifTool tag or Group:Tag such as XMP:Rating or
 * IPTC:City for images). ExifTool puts each property where the format holds it (PDF Info + XMP,
 * XMP/IPTC in images, QuickTime + XMP in MP4). A property the format cannot hold, or a value it
 * cannot convert, fails the task with a message naming the property; "" deletes a property. A file over the
 * WebAssembly ExifTool's budget is written by Debian's exiftool in the native engine (row exiftool-native, issue 49),
 * streamed both ways above the stream threshold.
 */
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import { checkTags } from "../../engines/kinds/metadata";
import { useEngine } from "../../engines/use";
import { extensionOf } from "../io/filenames";
import { engineCall, formatOf, outputName, readInputOrStream } from "../kit";
import type { OperationHandler, OutputFile } from "../types";
import { METADATA_WRITE_FORMATS, WRITE_MIME } from "./formats";

const value = z.union([z.string(), z.number(), z.array(z.string())]);

/** metadata/write: `metadata` is required (filename and input_format are common parameters). */
export const metadataWriteParams = z.object({
  metadata: z
    .record(z.string(), value)
    .describe('Properties to write, e.g. {"Title": "Report", "Author": "Ann"}; "" deletes one'),
});

export const metadataWrite: OperationHandler<z.infer<typeof metadataWriteParams>> = {
  operation: "metadata/write",
  kind: "metadata",
  formats: METADATA_WRITE_FORMATS.map((f) => ({ input: f, output: f })),
  params: metadataWriteParams,
  credits: 1,
  takesInput: true,
  check: (p) => checkTags(p.metadata),
  async run(inputs, p, ctx) {
    const { engine, row } = useEngine(ctx, "metadata", "metadata/write");
    const files: OutputFile[] = [];
    let version = row.version;
    for (const [i, input] of inputs.entries()) {
      const format = formatOf(input, p.input_format);
      // issue 49: a row that streams (the native ExifTool) gets a file over its threshold as a stream
      const data = await readInputOrStream(input, ctx, row);
      const r = await engineCall(
        engine.write({ input: data, filename: input.filename, format, tags: p.metadata }),
        input.filename,
        row.name,
      );
      version = r.engineVersion;
      // the written file keeps its input's name and extension
      const filename = outputName({
        filename: p.filename,
        input: input.filename,
        ext: extensionOf(input.filename),
        index: i + 1,
        numbered: false,
      });
      files.push({
        filename,
        data: r.data,
        contentType: WRITE_MIME[extensionOf(filename)] ?? WRITE_MIME[format ?? ""],
      });
    }
    if (files.length === 0) throw new TaskError("INVALID_CONVERSION_TYPE", "metadata/write needs an input file.");
    return { files, engine: { name: row.name, version } };
  },
};
