/**
 * Running one task's operation with engine fallback, and storing what it made: the part of the
 * runner shared by the queue consumer (run-task.ts) and the API's ingress operations (import/raw,
 * import/base64 run while the request is accepted, api/create.ts).
 *
 * The candidates come from routing (operations/registry.ts `route`): handlers × engines in the
 * table's (or ENGINE_ORDER's) order. Engines this host lacks, and engines whose byte budget is
 * below the largest input, are skipped; the first candidate runs, and one that answers with a
 * hand-off code (engines/routing.ts HAND_OFF_CODES: it cannot, not at this size, or not here)
 * passes the task to the next. The task reports the engine that actually ran; when the last candidate
 * cannot do the work at all after an earlier one found it over budget, the OVER_BUDGET error is the
 * task's (an image watermark over the WASM budget is "too large", not "unsupported").
 */
import { TaskError } from "../engines/errors";
import { HAND_OFF_CODES } from "../engines/routing";
import { hasEngine } from "../engines/use";
import type { StoredOutput } from "../model/types";
import { contentTypeOf, extensionOf } from "../operations/io/filenames";
import { route, type Candidate } from "../operations/registry";
import type { InputFile, OperationContext, OperationOutput, OutputFile } from "../operations/types";
import { ignoredOf, withoutIgnored } from "../operations/validate";
import type { FileStore } from "../storage/file-store";
import { outputKey } from "../storage/keys";

/** What running a task produced: its outputs, the engine that ran, and the credits it costs. */
export interface Executed {
  out: OperationOutput;
  engine: { name: string; version: string };
  credits: number;
}

/** The candidates this host can run for inputs this large. @throws TaskError ENGINE_UNAVAILABLE | OVER_BUDGET */
function runnable(all: Candidate[], ctx: OperationContext, largest: number, operation: string): Candidate[] {
  const here = all.filter((c) => hasEngine(ctx, c.engine.name));
  if (here.length === 0) {
    const names = [...new Set(all.map((c) => c.engine.name))].join(", ");
    throw new TaskError(
      "ENGINE_UNAVAILABLE",
      `${operation} needs the ${names} engine, which is not reachable in this deployment.`,
    );
  }
  // issue 49: an operation that reads its input by ranges (metadata) is held to the engine's rangeMaxBytes
  const limit = (c: Candidate) => (c.handler.readsRanges && c.engine.budget.rangeMaxBytes) || c.engine.budget.maxBytes;
  const fit = here.filter((c) => largest <= limit(c));
  if (fit.length === 0) {
    const max = Math.max(...here.map(limit));
    throw new TaskError(
      "OVER_BUDGET",
      `An input of ${operation} is ${largest} bytes; the engines here take files up to ${max} bytes.`,
    );
  }
  return fit;
}

/**
 * Routes and runs `operation` on `inputs`. `tried.engine` is set to each engine as it starts, so a
 * failed task still reports the engine that failed it.
 * @throws TaskError from the last candidate tried, or from routing
 */
export async function execute(
  operation: string,
  params: Record<string, unknown>,
  inputs: InputFile[],
  ctx: OperationContext,
  tried: { engine?: { name: string; version: string } } = {},
): Promise<Executed> {
  const ignored = ignoredOf(params);
  params = withoutIgnored(params);
  const all = route(operation, params, inputs[0]?.filename, ctx.engineOrder);
  const largest = Math.max(0, ...inputs.map((f) => f.size));
  const candidates = runnable(all, ctx, largest, operation);
  let overBudget: TaskError | undefined;
  for (const [i, { handler, engine }] of candidates.entries()) {
    tried.engine = { name: engine.name, version: engine.version };
    try {
      const out = await handler.run(inputs, params, { ...ctx, route: engine.name });
      const ran = out.engine ?? { name: engine.name, version: engine.version };
      const notes = ignoredWarnings(operation, params, inputs, ignored);
      if (notes.length)
        out.extra = { ...out.extra, warnings: [...((out.extra?.warnings as string[] | undefined) ?? []), ...notes] };
      const wanted = params.engine_version as string | undefined;
      if (wanted && wanted !== ran.version) {
        const note = `engine_version ${wanted} is not available; ${ran.name} ${ran.version} ran.`;
        out.extra = { ...out.extra, warnings: [...((out.extra?.warnings as string[] | undefined) ?? []), note] };
      }
      return { out, engine: ran, credits: handler.credits };
    } catch (err) {
      const last = i === candidates.length - 1;
      if (err instanceof TaskError && err.code === "OVER_BUDGET") overBudget ??= err;
      // "too large for the engine that could do it" says more than a later engine's "I don't do this"
      if (
        last &&
        overBudget &&
        err instanceof TaskError &&
        (err.code === "UNSUPPORTED" || err.code === "ENGINE_UNAVAILABLE")
      )
        throw overBudget;
      if (last || !(err instanceof TaskError) || !HAND_OFF_CODES.has(err.code) || ctx.signal.aborted) throw err;
    }
  }
  throw new TaskError("INTERNAL_ERROR", `${operation}: no candidate ran.`); // unreachable: the loop returns or throws
}

/**
 * One warning per option validation accepted and ignored (issue 31), naming it and what it was
 * ignored by: "some_other_option is not supported by convert from docx to pdf; it was ignored."
 */
export function ignoredWarnings(
  operation: string,
  params: Record<string, unknown>,
  inputs: InputFile[],
  ignored: { key: string; why?: string }[],
): string[] {
  const from = (params.input_format as string | undefined) ?? (inputs[0] ? extensionOf(inputs[0].filename) : "");
  const to = params.output_format as string | undefined;
  const what = [operation, from && `from ${from}`, to && `to ${to}`].filter(Boolean).join(" ");
  return ignored.map((o) => `${o.key} ${o.why ?? `is not supported by ${what}`}; it was ignored.`);
}

/** Writes `files` to the store under the task's keys; returns what the JobDO records. */
export async function storeOutputs(
  store: FileStore,
  jobId: string,
  taskId: string,
  files: OutputFile[],
): Promise<StoredOutput[]> {
  const stored: StoredOutput[] = [];
  for (const [i, f] of files.entries()) {
    const key = outputKey(jobId, taskId, i, f.filename);
    const contentType = f.contentType ?? contentTypeOf(f.filename);
    const s = await store.put(key, f.data, { contentType });
    stored.push({ filename: f.filename, size: s.size, key, contentType });
  }
  return stored;
}
