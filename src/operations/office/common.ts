/**
 * The loop both office converts run (office/index.ts → pdf, convert.ts office ↔ office and pdf → documents): one
 * call of the office engine per input, in turn, the pages counted and the fonts substituted gathered over all
 * of them for the task's result.
 */
import type { OfficeEngine, OfficeRequest } from "../../engines/kinds/office";
import type { UsedEngine } from "../../engines/use";
import { engineCall, readInputOrStream, throwIfAborted } from "../kit";
import type { InputFile, OperationContext, OutputFile } from "../types";

/** One successful answer of the office engine. */
export type OfficeAnswer = Extract<Awaited<ReturnType<OfficeEngine["convert"]>>, { ok: true }>;

/** What the office converts report beside their files: pages written, fonts substituted (result.extra). */
export type OfficeTotals = {
  pages: number;
  fonts_substituted: { requested: string; used: string }[];
  /** What the engine said it left out or chose (kinds/office.ts), each input's once; absent when none. */
  warnings?: string[];
};

/**
 * Converts each input in turn with the office engine `used`: `ask` makes the request of one input (its bytes, or a
 * stream for a row that takes them, its name and `password`), `place` the files of one answer (`i`: the input's
 * position; the answer's files are bytes or streams, OfficeData).
 */
export async function eachDocument(
  { engine, row }: UsedEngine<"office">,
  ctx: OperationContext,
  inputs: InputFile[],
  password: string | undefined,
  ask: (input: OfficeRequest["input"]) => OfficeRequest,
  place: (r: OfficeAnswer, file: InputFile, i: number) => OutputFile[],
): Promise<{ files: OutputFile[]; totals: OfficeTotals; engine: { name: string; version: string } }> {
  const files: OutputFile[] = [];
  const substituted = new Map<string, string>();
  let version = row.version;
  let pages = 0;
  const warnings = new Set<string>();
  for (const [i, file] of inputs.entries()) {
    throwIfAborted(ctx.signal);
    // issue 49: a row that takes streams (the native LibreOffice, `budget.streamOver`) gets a large input as a stream,
    // and may answer its files as streams; other rows bytes within their budgets (over them: OVER_BUDGET, hand-off)
    const input = { data: await readInputOrStream(file, ctx, row), filename: file.filename, password };
    const r = await engineCall(engine.convert(ask(input)), file.filename, row.name);
    version = r.engineVersion;
    pages += r.pages ?? 0;
    for (const s of r.fontsSubstituted) substituted.set(s.requested, s.used);
    for (const w of r.warnings ?? []) warnings.add(inputs.length > 1 ? `${file.filename}: ${w}` : w);
    files.push(...place(r, file, i));
  }
  const fonts_substituted = [...substituted].map(([requested, used]) => ({ requested, used }));
  return {
    files,
    totals: { pages, fonts_substituted, ...(warnings.size ? { warnings: [...warnings] } : {}) },
    engine: { name: row.name, version },
  };
}
