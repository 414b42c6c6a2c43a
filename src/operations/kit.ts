/**
 * The operation kit: what every operation needs around its engine call, in one place — output
 * naming (contract §6 `filename`, printf `%d`), reading inputs under the routed engine's byte
 * budget, cancellation, and turning an engine's answer (data, engines/errors.ts EngineResult) back
 * into a TaskError.
 */
import type { DeferredBytes, StreamedBytes } from "../../native-protocol/frame";
import type { RangedBytes } from "../../native-protocol/metadata";
import { TaskError, type TaskFailure } from "../engines/errors";
import type { EngineRow } from "../engines/registry";
import { extensionOf } from "./io/filenames";
import type { InputFile, OperationOutput, OutputFile } from "./types";

/** "report.final.pdf" → "report.final"; a name without extension stays as it is. */
export function baseName(filename: string): string {
  const ext = extensionOf(filename);
  return ext ? filename.slice(0, filename.length - ext.length - 1) : filename;
}

/** What {@link outputName} needs. */
export interface NameRequest {
  /** The task's `filename` parameter. */
  filename?: string;
  /** Name of the input the output was made from. */
  input: string;
  /** Extension of the output format, without the dot ("" keeps the input's name as it is). */
  ext: string;
  /** 1-based number of this output (a page number, or the output's position). */
  index: number;
  /** True for tasks that make several outputs of one input (split pages, thumbnails with count > 1). */
  numbered: boolean;
}

/**
 * The name of one output. `filename` with `%d` (printf, e.g. "page-%02d.png") gets `index`;
 * without `%d` it names the first output, and later ones (or every one, when `numbered`) get
 * "-index" before its extension. Without `filename`: the input's base name with `ext`, plus
 * "-index" when `numbered`.
 */
export function outputName(r: NameRequest): string {
  const { filename, input, ext, index, numbered } = r;
  if (filename && /%0?\d*d/.test(filename)) {
    return filename.replace(/%(0?)(\d*)d/, (_, zero: string, width: string) =>
      String(index).padStart(Number(width || 0), zero ? "0" : " "),
    );
  }
  const dotted = (base: string, e: string) => (e ? `${base}.${e}` : base);
  if (filename) {
    if (index === 1 && !numbered) return filename;
    return dotted(`${baseName(filename)}-${index}`, extensionOf(filename) || ext);
  }
  return dotted(numbered ? `${baseName(input)}-${index}` : baseName(input), ext);
}

/** Throws CANCELLED when the task's signal is aborted (between files and pages). */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new TaskError("CANCELLED", "The task was cancelled.");
}

/**
 * Reads an input's bytes, refusing it on its stored size first against the budget of the engine
 * that will process it (registry.ts row `budget.maxBytes`; for a row that streams larger inputs, its
 * `streamOver`: bytes are held in the Worker's memory).
 * @throws TaskError OVER_BUDGET | FILE_NOT_FOUND | CANCELLED
 */
export async function readInput(
  file: InputFile,
  ctx: { signal: AbortSignal },
  row: EngineRow,
  label = "input",
): Promise<Uint8Array> {
  const { maxBytes, streamOver } = row.budget;
  if (file.size > (streamOver ?? maxBytes)) {
    throw new TaskError(
      "OVER_BUDGET",
      `The ${label} ${file.filename} is ${mib(file.size)} MiB; the ${row.name} engine takes files up to ${mib(streamOver ?? maxBytes)} MiB` +
        (streamOver !== undefined ? ` here (up to ${mib(maxBytes)} MiB where an operation streams them).` : "."),
    );
  }
  const bytes = await file.bytes();
  throwIfAborted(ctx.signal);
  return bytes;
}

/**
 * An engine's answer as bytes: itself, or a stream (a native page operation's answer, issue 49) read whole. For
 * callers that hand an engine bytes (never a stream), whose answers are therefore bytes or small streams.
 */
export async function heldBytes(data: Uint8Array | StreamedBytes): Promise<Uint8Array> {
  if (data instanceof Uint8Array) return data;
  return new Uint8Array(await new Response(data.stream).arrayBuffer());
}

/**
 * An input for an engine that takes streamed inputs (registry.ts row `budget.streamOver`: the native
 * media row, issue 35): its bytes up to the stream threshold — the row's `streamOver`, or the
 * deployment's `nativeStreamBytes` (NATIVE_STREAM_BYTES) when lower — and above it a stream of exactly
 * its size read from the store, so no whole file passes through the Worker's memory. Any other row:
 * {@link readInput}. `held`: bytes of the same call the caller already holds (merge's earlier inputs), counted against
 * the threshold with this file, so a call's inputs together stay under it.
 * @throws TaskError OVER_BUDGET (over the row's `maxBytes`) | FILE_NOT_FOUND | CANCELLED
 */
export async function readInputOrStream(
  file: InputFile,
  ctx: { signal: AbortSignal; settings: { nativeStreamBytes?: number } },
  row: EngineRow,
  label = "input",
  held = 0,
): Promise<Uint8Array | StreamedBytes> {
  const data = await readInputOrDefer(file, ctx, row, label, held);
  return data instanceof Uint8Array ? data : { stream: await data.open(), length: data.length };
}

/**
 * {@link readInputOrStream} whose stream is opened only when a framed call reaches it ({@link deferredInput}): for an
 * operation that may send several large inputs in one call (merge), so that their store reads open one after another
 * (a Worker keeps six connections; an R2 body opened early and left unread holds one).
 * @throws TaskError OVER_BUDGET (over the row's `maxBytes`) | FILE_NOT_FOUND | CANCELLED
 */
export async function readInputOrDefer(
  file: InputFile,
  ctx: { signal: AbortSignal; settings: { nativeStreamBytes?: number } },
  row: EngineRow,
  label = "input",
  held = 0,
): Promise<Uint8Array | DeferredBytes> {
  const { maxBytes, streamOver } = row.budget;
  if (
    streamOver === undefined ||
    held + file.size <= Math.min(streamOver, ctx.settings.nativeStreamBytes ?? streamOver)
  )
    return readInput(file, ctx, row, label);
  if (file.size > maxBytes)
    throw new TaskError(
      "OVER_BUDGET",
      `The ${label} ${file.filename} is ${mib(file.size)} MiB; the ${row.name} engine takes files up to ${mib(maxBytes)} MiB.`,
    );
  return deferredInput(file, ctx);
}

/** The stream of an input's stored bytes (its store's, or its bytes' where it has none). @throws TaskError CANCELLED */
async function openStream(file: InputFile, ctx: { signal: AbortSignal }): Promise<ReadableStream<Uint8Array>> {
  throwIfAborted(ctx.signal);
  const stream = file.stream
    ? await file.stream()
    : new Blob([(await file.bytes()) as Uint8Array<ArrayBuffer>]).stream();
  if (ctx.signal.aborted) await stream.cancel().catch(() => {});
  throwIfAborted(ctx.signal);
  return stream;
}

/**
 * An input read by ranges (issue 49: metadata reads what ExifTool asks for, engines/exiftool/ranged.ts) for a row that
 * reads by ranges (registry.ts `budget.rangeMaxBytes`) when its store reads ranges (InputFile `range`: R2); undefined
 * otherwise, or when the file is over the row's `rangeMaxBytes`. Each read is checked for cancellation.
 */
export function rangedInput(file: InputFile, ctx: { signal: AbortSignal }, row: EngineRow): RangedBytes | undefined {
  const { rangeMaxBytes } = row.budget;
  const range = file.range?.bind(file);
  if (!range || rangeMaxBytes === undefined || file.size > rangeMaxBytes) return undefined;
  return {
    length: file.size,
    async read(offset, length) {
      throwIfAborted(ctx.signal);
      return range(offset, length);
    },
  };
}

/**
 * An input as bytes read only when a framed call to the native engine reaches it (issue 49, native-protocol/frame.ts
 * DeferredBytes): for operations that send several large files in one call (archive), so that their store reads are
 * opened one after another, never all at once. Its size is the stored one; a stream of another length fails the call.
 */
export function deferredInput(file: InputFile, ctx: { signal: AbortSignal }): DeferredBytes {
  return { length: file.size, open: () => openStream(file, ctx) };
}

/**
 * The first file of another task of the job that a parameter names (watermark `image`, pdf/a
 * `invoice`), read under `row`'s byte budget.
 * @throws TaskError INPUT_TASK_FAILED (the task produced no file) | OVER_BUDGET | FILE_NOT_FOUND | CANCELLED
 */
export async function readTaskFile(
  ctx: { signal: AbortSignal; taskFiles(name: string): Promise<InputFile[]> },
  task: string,
  row: EngineRow,
  label: string,
): Promise<{ file: InputFile; data: Uint8Array }> {
  const [file] = await ctx.taskFiles(task);
  if (!file) throw new TaskError("INPUT_TASK_FAILED", `The ${label} task "${task}" produced no file.`);
  return { file, data: await readInput(file, ctx, row, label) };
}

/** Format of an input as the task declares it (`input_format`) or its extension says; undefined when neither does. */
export function formatOf(file: InputFile, inputFormat: string | undefined): string | undefined {
  return inputFormat?.toLowerCase() || extensionOf(file.filename) || undefined;
}

type Answer = { ok: true; engineVersion: string } | { ok: false; error: TaskFailure; engineVersion: string };

/**
 * Awaits an engine call and returns its successful answer. A failure as data becomes a TaskError
 * with the engine's code, its message prefixed by `what` (the file; "" when the engine's messages
 * already name it); an absent call (the engine lacks the method) is UNSUPPORTED; a rejected call becomes, naming the
 * engine: OVER_BUDGET when the engine Worker's isolate went over its 128 MB (workerd's "Worker exceeded memory limit.",
 * Cloudflare's Workers limits page: the runtime cancels the isolate's requests), which hands the task to the next row (a
 * native twin, runner/execute.ts); TIMEOUT when it went over its CPU time; a retryable INTERNAL_ERROR otherwise (a
 * binding that failed).
 */
export async function engineCall<T extends Answer>(
  call: Promise<T> | undefined,
  what: string,
  engine: string,
): Promise<Extract<T, { ok: true }>> {
  const prefix = what ? `${what}: ` : "";
  if (!call) throw new TaskError("UNSUPPORTED", `${prefix}the ${engine} engine does not offer this.`);
  let result: T;
  try {
    result = await call;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const code = /memory limit|exceeded ?memory/i.test(message)
      ? "OVER_BUDGET"
      : /CPU|time limit|exceeded/i.test(message)
        ? "TIMEOUT"
        : "INTERNAL_ERROR";
    throw new TaskError(code, `${prefix}the ${engine} engine failed: ${message}`, {
      retryable: code === "INTERNAL_ERROR",
      cause: err,
    });
  }
  if (!result.ok)
    throw new TaskError(result.error.code, `${prefix}${result.error.message}`, { retryable: result.error.retryable });
  return result as Extract<T, { ok: true }>;
}

function mib(n: number): string {
  return (n / 1024 / 1024).toFixed(1).replace(/\.0$/, "");
}

/**
 * One engine call per input, in turn, each answering one file: `call` asks the engine of `row` about one input (its
 * bytes and name); the answer is named as the task's `filename` says or after its input with `out.ext`, of
 * `out.contentType` where given (the runner derives it from the name otherwise). The engine's version is what its
 * last call reported. `read` reads each input: its bytes ({@link readInput}) unless given, e.g. {@link readInputOrStream}
 * for a row that takes streams (issue 49), whose answers may then be streams too.
 */
export async function eachConverted<
  T extends Answer & ({ ok: false } | { ok: true; data: Uint8Array | StreamedBytes }),
  D extends Uint8Array | StreamedBytes = Uint8Array,
>(
  row: EngineRow,
  ctx: { signal: AbortSignal },
  inputs: InputFile[],
  out: { filename?: string; ext: string; contentType?: string },
  call: (input: { data: D; filename: string }, file: InputFile) => Promise<T> | undefined,
  read?: (file: InputFile) => Promise<D>,
): Promise<OperationOutput & { engine: { name: string; version: string } }> {
  const files: OutputFile[] = [];
  let version = row.version;
  for (const [i, file] of inputs.entries()) {
    throwIfAborted(ctx.signal);
    const data = read ? await read(file) : ((await readInput(file, ctx, row)) as D);
    const input = { data, filename: file.filename };
    const r = await engineCall(call(input, file), file.filename, row.name);
    version = r.engineVersion;
    files.push({
      filename: outputName({
        filename: out.filename,
        input: file.filename,
        ext: out.ext,
        index: i + 1,
        numbered: false,
      }),
      data: r.data,
      ...(out.contentType ? { contentType: out.contentType } : {}),
    });
  }
  return { files, engine: { name: row.name, version } };
}
