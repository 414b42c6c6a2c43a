/**
 * Fonts (issue 33): `convert` between TrueType, OpenType, WOFF, WOFF2 and EOT, and to SVG fonts, by
 * the engine of kind font (row "fonttools", native). The formats are the row's (registry.ts
 * FONT_PAIRS: FONT_INPUTS × FONT_OUTPUTS, and SVG → ttf/otf/woff/woff2/eot as a font or an icon font); CloudConvert documents no font options, so the handler takes none
 * (others are accepted and reported in result.warnings by validation).
 */
import { z } from "zod";
import { FONT_PAIRS } from "../../engines/registry";
import { useEngine } from "../../engines/use";
import { eachConverted } from "../kit";
import type { OperationHandler } from "../types";
import type { FontFormat } from "../../../native-protocol/font";

/** MIME type of each output (IANA font/* types; SVG fonts are SVG documents). */
const CONTENT_TYPE: Record<FontFormat, string> = {
  ttf: "font/ttf",
  otf: "font/otf",
  woff: "font/woff",
  woff2: "font/woff2",
  eot: "application/vnd.ms-fontobject",
  svg: "image/svg+xml",
};

export const fontConvert: OperationHandler<Record<string, never>> = {
  operation: "convert",
  kind: "font",
  formats: [...FONT_PAIRS],
  params: z.object({}),
  credits: 1,
  requiresOutputFormat: true,
  takesInput: true,
  async run(inputs, p, ctx) {
    const format = String(p.output_format).toLowerCase() as FontFormat;
    const { engine, row } = useEngine(ctx, "font", "convert");
    const out = { filename: p.filename, ext: format, contentType: CONTENT_TYPE[format] };
    return eachConverted(row, ctx, inputs, out, (input) => engine.convert({ input, format }));
  },
};

/** The font rows. */
export const FONT_HANDLERS: OperationHandler[] = [fontConvert];
