/**
 * What every native engine shares: the failure class, the per-call context, and the mapping of a
 * tool's exit into a failure with a code (DESIGN.md principle 3: normalise at the adapter).
 */
import { mkdir, open, readFile, readdir, rename, stat, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { pathSegment, shellQuote, splitArguments } from "../../native-protocol/command-args.ts";
import { LocalFile } from "../../native-protocol/frame.ts";
import { pickLine, runTool, type ToolCall, type ToolRun } from "../run.ts";
import type { Tool } from "../tools.ts";
import type {
  NativeKind,
  NativeKindAnswer,
  NativeKindMethod,
  NativeKindRequests,
} from "../../native-protocol/kinds.ts";

/** A failure with a task error code (src/engines/errors.ts vocabulary); becomes {ok: false, error} on the wire. */
export class NativeError extends Error {
  code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** One call's context: its own working directory, its time and memory limits, the caller's abort. */
export interface NativeCall {
  /** The call's own directory (removed after the call). */
  work: string;
  /** Milliseconds every tool run of this call may take, in total at most this. */
  timeoutMs: number;
  /** RLIMIT_AS of each tool run, bytes. */
  memoryBytes: number;
  signal: AbortSignal;
  /** The server's work root (long-lived state such as the office pool's profiles lives under it). */
  root: string;
  /** The tools of this host by name (tools.ts). */
  tools: Map<string, Tool>;
}

/**
 * One method of a native engine: its kind's request for the method (native-protocol/kinds.ts) → its kind's answer
 * fields (merged with ok/engineVersion), or throws NativeError.
 */
export type NativeMethod<Req, Answer = object> = (request: Req, call: NativeCall) => Promise<Answer>;

/**
 * A native engine of kind `K`: its methods, each typed by its kind's request. A module under container/engines/
 * default-exports one (`satisfies NativeEngineDef<"office">`), and native-protocol/engines.ts names its file and kind.
 */
export interface NativeEngineDef<K extends NativeKind = NativeKind> {
  kind: K;
  /** The methods it offers, some or all of its kind's (a missing one answers 404: the Worker routes elsewhere). */
  methods: { [M in NativeKindMethod<K>]?: NativeMethod<NativeKindRequests[K][M], NativeKindAnswer<K, M>> };
  /**
   * Whether its methods take LocalFile parts (issue 35): the parts of a framed request (native-protocol/frame.ts)
   * are then written to the call's folder as they arrive and reach the method as LocalFiles where the buffered
   * wire gives bytes. Without it a framed request's parts are bytes, bounded by the in-memory body limit.
   */
  files?: boolean;
}

/**
 * Method `name` of `def`, taking the request as it came off the wire: the server does not check a request's shape,
 * the Worker's kind sent it (its methods and these are checked against one list, native-protocol/kinds.ts).
 */
export function methodOf(def: NativeEngineDef, name: string): NativeMethod<unknown> | undefined {
  const methods: Partial<Record<string, NativeMethod<never>>> = def.methods;
  return Object.hasOwn(methods, name) ? (methods[name] as NativeMethod<unknown> | undefined) : undefined;
}

/** The tool `name`, or ENGINE_UNAVAILABLE. */
export function tool(call: NativeCall, name: string): Tool {
  const t = call.tools.get(name);
  if (!t) throw new NativeError("ENGINE_UNAVAILABLE", `${name} is not installed in the native engine.`);
  return t;
}

/** Runs `cmd args` in the call's directory within its limits. */
export function run(call: NativeCall, cmd: string, args: string[], extra: Partial<ToolCall> = {}): Promise<ToolRun> {
  return runTool({
    cmd,
    args,
    cwd: call.work,
    timeoutMs: call.timeoutMs,
    memoryBytes: call.memoryBytes,
    signal: call.signal,
    ...extra,
  });
}

/** Throws TIMEOUT / ENGINE_CRASHED / the code `fail` picks when a run did not exit 0. */
export function check(r: ToolRun, what: string, fail: (text: string) => NativeError): void {
  if (r.killed) throw new NativeError("TIMEOUT", `${what} did not finish within its time limit and was stopped.`);
  if (r.signal)
    throw new NativeError(
      "CONVERSION_FAILED",
      `${what} crashed (${r.signal}); the input may be damaged or too large for the engine's memory limit.`,
    );
  if (r.code !== 0) throw fail(`${r.stderr}\n${r.stdout}`);
}

/** A safe local name for an uploaded file: its base name without path or odd characters, prefixed. */
export function localName(prefix: string, filename: string): string {
  const ext = /\.([A-Za-z0-9]{1,8})$/.exec(basename(filename))?.[1]?.toLowerCase() ?? "bin";
  return `${prefix}.${ext}`;
}

/** Writes `data` to `name` in the call's directory; returns the path. */
export async function put(call: NativeCall, name: string, data: Uint8Array): Promise<string> {
  const p = join(call.work, name);
  await writeFile(p, data);
  return p;
}

/**
 * Puts a request's file at `name` in the call's directory: bytes are written, a LocalFile (already in the folder,
 * a framed request's part) is moved there. Returns the path.
 */
export async function place(call: NativeCall, name: string, data: Uint8Array | LocalFile): Promise<string> {
  if (!(data instanceof LocalFile)) return put(call, name, data);
  const p = join(call.work, name);
  await rename(data.path, p);
  return p;
}

/**
 * A request's file as the engine may place it: bytes, or a LocalFile (a framed call's part already in the call's
 * folder). A StreamedBytes never reaches the server as one (the framed reader turns it into either).
 * @throws NativeError UNSUPPORTED for anything else
 */
export function fileOf(data: unknown, what: string): Uint8Array | LocalFile {
  if (data instanceof Uint8Array || data instanceof LocalFile) return data;
  throw new NativeError("UNSUPPORTED", `${what} reached the native engine as neither bytes nor a file.`);
}

/**
 * A request's file as bytes, for a tool step that reads it in memory (a zip's directory, an XCF's header): bytes as
 * they are, a LocalFile read when it is at most `maxBytes`.
 * @throws NativeError OVER_BUDGET (a larger file) | UNSUPPORTED (neither bytes nor a file)
 */
export async function bytesOf(data: unknown, maxBytes: number, what: string): Promise<Uint8Array> {
  const f = fileOf(data, what);
  if (f instanceof Uint8Array) return f;
  if (f.size > maxBytes)
    throw new NativeError(
      "OVER_BUDGET",
      `${what} is ${Math.round(f.size / 2 ** 20)} MiB; this step of the native engine reads at most ${Math.round(maxBytes / 2 ** 20)} MiB.`,
    );
  return new Uint8Array(await readFile(f.path));
}

/**
 * The first `n` bytes of a request's file, from its bytes or its file (a framed call's part): for a signature check
 * that must not read a large file whole. Anything else: no bytes.
 */
export async function head(data: unknown, n: number): Promise<Uint8Array> {
  if (data instanceof Uint8Array) return data.subarray(0, n);
  if (!(data instanceof LocalFile)) return new Uint8Array();
  const f = await open(data.path);
  try {
    const buf = new Uint8Array(n);
    const { bytesRead } = await f.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await f.close();
  }
}

/** A file of the call's directory as a LocalFile answer (streamed from disk on a framed call). */
export async function localFile(call: NativeCall, name: string): Promise<LocalFile> {
  const p = join(call.work, name);
  return new LocalFile(p, (await stat(p)).size);
}

/**
 * A request's file as bytes, for an engine whose methods take bytes (its `files` unset: the server hands it each part
 * as bytes, whatever the wire).
 * @throws NativeError UNSUPPORTED for anything else (a LocalFile or a stream never reaches such an engine)
 */
export function heldData(input: { data: unknown; filename: string }): Uint8Array {
  if (input.data instanceof Uint8Array) return input.data;
  throw new NativeError("UNSUPPORTED", `${input.filename} reached an engine that takes bytes as a file or stream.`);
}

/** Reads a file of the call's directory. */
export async function get(call: NativeCall, name: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(join(call.work, name)));
}

/** The most telling line of a tool's error output. */
export const why = (text: string, re?: RegExp) => pickLine(text, re).slice(0, 300);

/**
 * The start of a user's command of the `command` operation (command.ts, ffmpeg.ts): its arguments split into words
 * (no shell) and held to the engine's `checkWords`, then the call's directory laid out, each input at
 * input/<task>/<file> (bytes written, a framed call's file moved there: issue 49) and an empty output/ (the user's
 * /input/ and /output/). Answers the words and the output folder's path.
 * @throws NativeError UNSUPPORTED when the arguments do not split, a word is refused, or an input is neither bytes
 *   nor a file
 */
export async function layOutCommand(
  call: NativeCall,
  req: { arguments: string; inputs: { task: string; filename: string; data: unknown }[] },
  checkWords: (words: string[]) => string | null,
): Promise<{ words: string[]; outDir: string }> {
  const split = splitArguments(req.arguments);
  if ("error" in split) throw new NativeError("UNSUPPORTED", `arguments: ${split.error}.`);
  const problem = checkWords(split.words);
  if (problem) throw new NativeError("UNSUPPORTED", `arguments: ${problem}`);
  for (const f of req.inputs) {
    await mkdir(join(call.work, "input", pathSegment(f.task)), { recursive: true });
    await place(call, join("input", pathSegment(f.task), pathSegment(f.filename)), fileOf(f.data, f.filename));
  }
  const outDir = join(call.work, "output");
  await mkdir(outDir, { recursive: true });
  return { words: split.words, outDir };
}

/**
 * The files a command wrote under output/, in name order, as LocalFiles (issue 49: streamed back from disk on a framed
 * call, read into the answer on a buffered one).
 */
export async function commandOutputs(call: NativeCall): Promise<{ filename: string; data: LocalFile }[]> {
  const names = (await readdir(join(call.work, "output"), { withFileTypes: true }))
    .filter((d) => d.isFile())
    .map((d) => d.name)
    .sort();
  return Promise.all(names.map(async (n) => ({ filename: n, data: await localFile(call, join("output", n)) })));
}

/**
 * Runs a user's command of the command operation (`exe` with `args`, the user's `words` mapped onto this call's
 * folder; command.ts and ffmpeg.ts) in `outDir`, and answers the files it wrote under output/, the command as the
 * user wrote it (shell-quoted) and, with `capture_output`, its console text with this call's folder taken out.
 * @throws NativeError TIMEOUT when it was stopped at its time limit, CONVERSION_FAILED naming `detail(output)` when
 *   it exited non-zero
 */
export async function runUserCommand(
  call: NativeCall,
  req: { command: string; capture_output?: boolean },
  words: string[],
  run_: { exe: string; args: string[]; outDir: string; env?: Record<string, string> },
  detail: (output: string) => string,
): Promise<{ files: { filename: string; data: LocalFile }[]; command: string; output?: string }> {
  const r = await run(call, run_.exe, run_.args, { cwd: run_.outDir, ...(run_.env ? { env: run_.env } : {}) });
  if (r.killed)
    throw new NativeError("TIMEOUT", `${req.command} did not finish within its time limit and was stopped.`);
  // the console speaks of /input/… and /output/…, the paths the user wrote, not of this call's folder
  const output = `${r.stdout}${r.stderr}`.replaceAll(call.work, "");
  if (r.code !== 0)
    throw new NativeError(
      "CONVERSION_FAILED",
      `${req.command} exited with ${r.signal ?? `code ${r.code}`}: ${detail(output)}`,
    );
  return {
    files: await commandOutputs(call),
    command: [req.command, ...words].map(shellQuote).join(" "),
    ...(req.capture_output ? { output } : {}),
  };
}
