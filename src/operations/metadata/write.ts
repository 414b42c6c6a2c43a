/**
 * metadata/write: writes `metadata` (property → value) into a new copy of the input with ExifTool
 * (service-spec: "Writes XMP or IPTC style metadata"; keys include Title, Author, Creator,
 * Producer, plus Subject, Keywords and any ExifTool tag or Group:Tag such as XMP:Rating or
 * IPTC:City for images). ExifTool puts each property where the format holds it (PDF Info + XMP,
 * XMP/IPTC in images, QuickTime + XMP in MP4). A property the format cannot hold, or a value it
 * cannot convert, fails the task with a message naming the property; "" deletes a property.
 */
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import { checkTags } from "../../engines/exiftool/tags";
import { EXIFTOOL_ENGINE } from "../../engines/exiftool/version";
import { extensionOf } from "../io/filenames";
import type { OperationHandler, OutputFile } from "../types";
import { engineCall, exifToolEngine, formatOf, readInput } from "./common";
import { METADATA_WRITE_FORMATS, WRITE_MIME } from "./formats";

const value = z.union([z.string(), z.number(), z.array(z.string())]);

/** metadata/write: `metadata` is required (filename and input_format are common parameters). */
export const metadataWriteParams = z.object({
  metadata: z.record(z.string(), value).describe("Properties to write, e.g. {\"Title\": \"Report\", \"Author\": \"Ann\"}; \"\" deletes one"),
});

export const metadataWrite: OperationHandler<z.infer<typeof metadataWriteParams>> = {
  operation: "metadata/write",
  engine: EXIFTOOL_ENGINE.name,
  engineVersion: EXIFTOOL_ENGINE.version,
  formats: METADATA_WRITE_FORMATS.map((f) => ({ input: f, output: f })),
  params: metadataWriteParams,
  credits: 1,
  takesInput: true,
  check: (p) => checkTags(p.metadata),
  async run(inputs, p, ctx) {
    const engine = exifToolEngine(ctx);
    const files: OutputFile[] = [];
    let version: string = EXIFTOOL_ENGINE.version;
    for (const [i, input] of inputs.entries()) {
      const format = formatOf(input, p.input_format);
      const bytes = await readInput(input, ctx);
      const r = await engineCall(engine.write({ input: bytes, filename: input.filename, format, tags: p.metadata }), input.filename);
      version = r.engineVersion;
      const filename = outputName(p.filename, input.filename, i);
      files.push({ filename, data: r.data, contentType: WRITE_MIME[extensionOf(filename)] ?? WRITE_MIME[format ?? ""] });
    }
    if (files.length === 0) throw new TaskError("INVALID_CONVERSION_TYPE", "metadata/write needs an input file.");
    return { files, engine: { name: EXIFTOOL_ENGINE.name, version } };
  },
};

/** `filename` for the first output (later ones get "-2", "-3" before the extension); else the input's name. */
function outputName(filename: string | undefined, input: string, index: number): string {
  const name = filename ?? input;
  if (index === 0) return name;
  const ext = extensionOf(name);
  return ext ? `${name.slice(0, -ext.length - 1)}-${index + 1}.${ext}` : `${name}-${index + 1}`;
}
