/**
 * Vector drawings (issue 33): `convert` from the formats the vector engine reads (svg, svgz, ai, eps,
 * ps, emf, wmf, cdr, vsd, vsdx, cgm, sk, sk1) to svg, pdf, eps, ps, emf, wmf, dxf and raster images, with
 * CloudConvert's vector options: `pixel_density` and `width`/`height` for raster outputs,
 * `text_to_path` for vector outputs (contract §6; catalogue "Vector"). Which pairs exist is the
 * engine table's (registry.ts VECTOR_PAIRS). Drawings over the row's stream threshold travel to Inkscape as streams
 * and come back as one (issue 49).
 */
import { z } from "zod";
import { VECTOR_PAIRS } from "../../engines/registry";
import { MIME as IMAGE_MIME } from "../../engines/kinds/image";
import type { VectorRequest } from "../../engines/kinds/vector";
import { useEngine } from "../../engines/use";
import { TaskError } from "../../engines/errors";
import { engineCall, formatOf, outputName, readInputOrStream, throwIfAborted } from "../kit";
import { boolParam, MAX_SIDE } from "../image/schemas";
import type { OperationHandler, OutputFile } from "../types";

const side = z.number().int().min(1).max(MAX_SIDE);

const params = z.object({
  pixel_density: z.number().int().min(1).max(2400).optional().describe("Raster outputs: pixels per inch (default 96)"),
  width: side.optional().describe("Raster outputs: width in pixels (the height follows unless given)"),
  height: side.optional().describe("Raster outputs: height in pixels (the width follows unless given)"),
  text_to_path: boolParam.describe("Vector outputs: convert text to outlines (no font needed to show it)"),
});

/** MIME type of each output: the image formats' (svg, pdf, eps, ps, odd and the raster outputs), and the drawings'. */
const MIME: Record<string, string> = {
  ...IMAGE_MIME,
  emf: "image/emf",
  wmf: "image/wmf",
  dxf: "image/vnd.dxf",
};

const ALIASES: Record<string, string> = { jpeg: "jpg", tif: "tiff" };

export const vectorConvert: OperationHandler<z.infer<typeof params>> = {
  operation: "convert",
  kind: "vector",
  formats: [...VECTOR_PAIRS],
  params,
  credits: 1,
  requiresOutputFormat: true,
  takesInput: true,
  async run(inputs, p, ctx) {
    const { engine, row } = useEngine(ctx, "vector", "convert");
    const outputFormat = (ALIASES[p.output_format!] ?? p.output_format!) as VectorRequest["outputFormat"];
    const files: OutputFile[] = [];
    const warnings: string[] = [];
    let version = row.version;
    for (const [i, file] of inputs.entries()) {
      throwIfAborted(ctx.signal);
      const inputFormat = formatOf(file, p.input_format) as VectorRequest["inputFormat"];
      if (!VECTOR_PAIRS.some((f) => f.input === inputFormat && f.output === outputFormat))
        throw new TaskError("INVALID_CONVERSION_TYPE", `convert cannot turn ${inputFormat} into ${outputFormat}.`);
      const r = await engineCall(
        engine.convert({
          // issue 49: a drawing over the row's stream threshold reaches Inkscape as a stream, its output comes back as one
          input: { data: await readInputOrStream(file, ctx, row), filename: file.filename },
          inputFormat,
          outputFormat,
          options: { pixel_density: p.pixel_density, width: p.width, height: p.height, text_to_path: p.text_to_path },
        }),
        file.filename,
        row.name,
      );
      version = r.engineVersion;
      warnings.push(...(r.warnings ?? []));
      files.push({
        filename: outputName({
          filename: p.filename,
          input: file.filename,
          ext: outputFormat,
          index: i + 1,
          numbered: false,
        }),
        data: r.data,
        contentType: MIME[outputFormat] ?? "application/octet-stream",
      });
    }
    return { files, engine: { name: row.name, version }, ...(warnings.length ? { extra: { warnings } } : {}) };
  },
};

/** The vector rows. */
export const VECTOR_HANDLERS: OperationHandler[] = [vectorConvert];
