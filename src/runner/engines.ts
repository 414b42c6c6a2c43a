/**
 * The engines this Worker can reach, by name, built from its bindings (DESIGN.md principle 2:
 * routing decided in one place). Operations ask `ctx.engines[name]` and answer UNSUPPORTED when
 * an engine is absent.
 */
import type { Env } from "../env";
import type { EngineSet } from "../operations/types";
import { workerdPdfiumEngine } from "../runtime/workerd-pdfium";

export function workerEngines(env: Env): EngineSet {
  const engines: EngineSet = { pdfium: workerdPdfiumEngine() };
  if (env.IMAGEMAGICK) engines.imagemagick = env.IMAGEMAGICK;
  if (env.EXIFTOOL) engines.exiftool = env.EXIFTOOL;
  return engines;
}
