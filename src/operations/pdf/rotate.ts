/**
 * pdf/rotate-pages: turns the pages of `pages` (all when absent) by `rotation`, relative to their
 * current /Rotate. `rotation`: "+90", "90" and "-270" turn clockwise (PDF /Rotate is clockwise,
 * ISO 32000-1 §7.7.3.3), "-90"/"270" counter-clockwise, "180"/"-180" upside down; numbers are
 * accepted too. Only multiples of 90 exist in PDF; anything else is refused at creation.
 */
import { z } from "zod";
import type { OperationHandler } from "../types";
import { checkPagesParam, pagesParam, passwordParam, perDocumentStreamed, PDF_TO_PDF } from "./common";

/** "+90" | "-90" | "180" | "90" | "270" (or a number) → clockwise quarter turns as degrees 0..270. */
export function parseRotation(value: string | number): number | null {
  const s = String(value).trim();
  if (!/^[+-]?\d{1,4}$/.test(s)) return null;
  const deg = Number(s);
  if (deg % 90 !== 0) return null;
  return ((deg % 360) + 360) % 360;
}

const params = z.object({
  rotation: z
    .union([z.string().max(8), z.number().int()])
    .refine((v) => parseRotation(v) !== null, {
      message: 'must be a multiple of 90 degrees such as "+90", "-90", "180" or "270" (clockwise when positive)',
    })
    .describe(
      'Quarter turns relative to the current /Rotate: "+90"/"90" clockwise, "-90"/"270" counter-clockwise, "180"',
    ),
  pages: pagesParam,
  password: passwordParam,
});

export const rotatePages: OperationHandler<z.infer<typeof params>> = {
  operation: "pdf/rotate-pages",
  ...PDF_TO_PDF,
  params,
  check: checkPagesParam,
  run: (inputs, p, ctx) =>
    perDocumentStreamed(
      "pdf/rotate-pages",
      inputs,
      p,
      ctx,
      (engine, input) => engine.rotate?.({ input, rotation: parseRotation(p.rotation) ?? 0, pages: p.pages }),
      p.password,
    ),
};
