/**
 * CAD drawings (issue 33): `convert` from DXF and DWG to PDF, SVG, EPS, EMF, WMF and raster images, and DWG
 * to DXF and DWG (registry.ts CAD_PAIRS), by the engine of kind cad (row "inkscape-cad", native). The drawing is cropped
 * to what it draws; raster outputs take CloudConvert's image options width/height (px) and
 * pixel_density (dpi, default 150), which other outputs ignore (reported in result.warnings).
 */
import { z } from "zod";
import { CAD_PAIRS } from "../../engines/registry";
import { useEngine } from "../../engines/use";
import { eachConverted } from "../kit";
import type { OperationHandler } from "../types";
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
    const done = await eachConverted(row, ctx, inputs, out, (input) =>
      engine.convert({
        input,
        format,
        ...(raster ? { raster: { width: p.width, height: p.height, pixel_density: p.pixel_density } } : {}),
      }),
    );
    return { ...done, ...(warnings.length ? { extra: { warnings } } : {}) };
  },
};

/** The CAD rows. */
export const CAD_HANDLERS: OperationHandler[] = [cadConvert];
