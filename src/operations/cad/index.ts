/**
 * CAD drawings (issue 33): `convert` from DXF and DWG to PDF, SVG, EPS, EMF, WMF and raster images, and DWG
 * to DXF and DWG (registry.ts CAD_PAIRS), by the engine of kind cad routing picks (row "inkscape-cad", native; else
 * row "dxf", issue 47, DXF → SVG and rasters without text). The drawing is cropped to what it draws; raster outputs
 * take CloudConvert's image options width/height (px) and pixel_density (dpi, default 150), which other outputs
 * ignore (reported in result.warnings), as are the engine's own warnings (entities it did not draw). An engine that
 * answers a raster as a sized SVG (`format: "svg"`, kinds/cad.ts) has it drawn by the image engine (resvg).
 */
import { z } from "zod";
import { CAD_PAIRS } from "../../engines/registry";
import { TaskError, toFailure } from "../../engines/errors";
import type { ImageFormat } from "../../engines/kinds/image";
import { useEngine } from "../../engines/use";
import { eachConverted, engineCall, heldBytes, readInputOrStream } from "../kit";
import type { InputFile, OperationContext, OperationHandler } from "../types";
import { CAD_RASTER_OUTPUTS, type CadFormat } from "../../../native-protocol/cad";

const px = z.coerce.number().int().min(1).max(30_000);
const params = z.object({
  width: px.optional().describe("Raster outputs: width, px (height follows the drawing unless given)"),
  height: px.optional().describe("Raster outputs: height, px"),
  pixel_density: z.coerce.number().int().min(10).max(2400).optional().describe("Raster outputs: dpi (default 150)"),
});
type Params = z.infer<typeof params>;

/** MIME types the extension does not give (the runner derives the rest). */
const CONTENT_TYPE: Partial<Record<CadFormat, string>> = {
  emf: "image/emf",
  wmf: "image/wmf",
  eps: "application/postscript",
  dxf: "image/vnd.dxf",
  dwg: "image/vnd.dwg",
};

export const cadConvert: OperationHandler<Params> = {
  operation: "convert",
  kind: "cad",
  formats: [...CAD_PAIRS],
  params,
  credits: 1,
  requiresOutputFormat: true,
  takesInput: true,
  async run(inputs, p, ctx) {
    const format = String(p.output_format).toLowerCase() as CadFormat;
    const raster = (CAD_RASTER_OUTPUTS as readonly string[]).includes(format);
    const given = (["width", "height", "pixel_density"] as const).filter((k) => p[k] !== undefined);
    const warnings = raster ? [] : given.map((k) => `${k} applies to raster outputs only; it was ignored.`);
    const { engine, row } = useEngine(ctx, "cad", "convert");
    const out = { filename: p.filename, ext: format, contentType: CONTENT_TYPE[format] };
    const noted = new Set<string>();
    // issue 49: a drawing over the row's stream threshold (the native Inkscape's) reaches it as a stream, its output
    // comes back as one
    const done = await eachConverted(
      row,
      ctx,
      inputs,
      out,
      async (input) => {
        const r = await engine.convert({
          input,
          format,
          ...(raster ? { raster: { width: p.width, height: p.height, pixel_density: p.pixel_density } } : {}),
        });
        if (!r.ok) return r;
        for (const w of r.warnings ?? []) noted.add(inputs.length > 1 ? `${input.filename}: ${w}` : w);
        if (r.format !== "svg" || format === "svg") return r;
        // the image engine's failure as the row's answer (data, not a throw: eachConverted takes a throw for a crash)
        try {
          return { ...r, data: await drawSvg(ctx, await heldBytes(r.data), format, input.filename) };
        } catch (err) {
          return { ok: false as const, error: toFailure(err), engineVersion: r.engineVersion };
        }
      },
      (file: InputFile) => readInputOrStream(file, ctx, row),
    );
    warnings.push(...noted);
    return { ...done, ...(warnings.length ? { extra: { warnings } } : {}) };
  },
};

/**
 * The raster `format` of `svg`, an SVG a CAD engine sized in pixels for it (kinds/cad.ts CadAnswer.format), drawn by
 * the image engine at its own size (jpg at quality 92, as the native engine writes it).
 * @throws TaskError ENGINE_UNAVAILABLE when this runtime has no image engine for svg → `format`; the image engine's
 * failure (OVER_BUDGET over its pixels…) as it answers
 */
async function drawSvg(ctx: OperationContext, svg: Uint8Array, format: CadFormat, filename: string) {
  let image;
  try {
    image = useEngine(ctx, "image", "convert", { input: "svg", output: format });
  } catch (err) {
    throw new TaskError(
      "ENGINE_UNAVAILABLE",
      `Drawing ${filename} as ${format} needs an SVG image engine, which this runtime lacks; use output_format svg.`,
      { cause: err },
    );
  }
  const res = await engineCall(
    image.engine.run({
      op: "convert",
      input: svg,
      inputFormat: "svg",
      outputFormat: format as ImageFormat,
      options: format === "jpg" ? { quality: 92 } : {},
    }),
    filename,
    image.row.name,
  );
  return heldBytes(res.outputs[0].data);
}

/** The CAD rows. */
export const CAD_HANDLERS: OperationHandler[] = [cadConvert];
