/**
 * optimize for PNG (lossless recompression, metadata stripped) and JPG (progressive re-encode at
 * the profile's quality, metadata stripped, never above the input's own quality), contract §6.
 * `result.bytes_saved` (and `original_size`) report what was saved; an output that would not be
 * smaller is the input itself (bytes_saved 0).
 */
import type { z } from "zod";
import type { ImageFormat } from "../../engines/kinds/image";
import { useEngine } from "../../engines/use";
import { engineCall, heldBytes, outputName, readInput } from "../kit";
import type { OperationHandler, OutputFile } from "../types";
import { imageFile, inputFormatOf } from "./common";
import { optimizeParams } from "./schemas";

export const imageOptimize: OperationHandler<z.infer<typeof optimizeParams>> = {
  operation: "optimize",
  kind: "image",
  formats: [
    { input: "png", output: "png" },
    { input: "jpg", output: "jpg" },
  ],
  params: optimizeParams,
  credits: 1,
  takesInput: true,
  async run(inputs, p, ctx) {
    const { engine, row } = useEngine(ctx, "image", "optimize");
    const files: OutputFile[] = [];
    let original = 0,
      saved = 0,
      version = row.version;
    for (const [i, input] of inputs.entries()) {
      const format: ImageFormat = inputFormatOf(input, p.input_format, "optimize");
      const bytes = await readInput(input, ctx, row);
      const r = await engineCall(
        engine.run({
          op: "optimize",
          input: bytes,
          inputFormat: format,
          outputFormat: format,
          options: { profile: p.profile, quality: p.quality },
        }),
        input.filename,
        row.name,
      );
      version = r.engineVersion;
      const out = { ...r.outputs[0], data: await heldBytes(r.outputs[0].data) };
      original += bytes.byteLength;
      saved += bytes.byteLength - out.data.byteLength;
      files.push(
        imageFile(
          outputName({ filename: p.filename, input: input.filename, ext: format, index: i + 1, numbered: false }),
          out,
        ),
      );
    }
    return { files, extra: { bytes_saved: saved, original_size: original }, engine: { name: row.name, version } };
  },
};
