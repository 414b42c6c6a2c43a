/**
 * One run of the `exiftool` script on zeroperl (Perl 5 compiled to WASI, @6over3/zeroperl-ts):
 * a fresh interpreter per call in an in-memory file system, disposed when the call ends.
 *
 * Why a fresh interpreter each time (reference/wasm-engines.md, measured): a reused one leaks
 * ~7 MB of WASM memory per call and cannot be reset after a failed call ("Failed to reset Perl
 * interpreter"). Calls must not overlap (zeroperl shares output buffers): engine.ts queues them.
 *
 * The same code runs in Node and workerd; only how the compiled module is obtained differs. zeroperl
 * loads its .wasm itself (node:fs next to `import.meta.url`, which a bundle breaks), so the module
 * is handed in through its browser path: `fetch` answers with our module while `window`/`document`
 * exist for the synchronous start of `ZeroPerl.create`, and `WebAssembly.instantiate(module)` is
 * made to answer `{module, instance}` as it does for bytes.
 */
import { MemoryFileSystem, ZeroPerl } from "@6over3/zeroperl-ts";

/**
 * Paths and contents of the interpreter's file system: the script, libraries, input. A Blob is read by ranges as the
 * interpreter asks (issue 49, ranged.ts: zeroperl awaits a Blob's slices).
 */
export type SandboxFiles = Record<string, Uint8Array | Blob>;

/** What one run produced. */
export interface PerlRun {
  /** Process exit code (0 = success); -1 when the interpreter itself failed. */
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Perl's `$@` or the interpreter's own failure, when any. */
  error?: string;
  /** Contents of `outputPath` after the run, when it exists. */
  output?: Uint8Array;
  /** WebAssembly.Memory size at the end of the run, bytes. */
  wasmMemoryBytes: number;
  /** True when the run was stopped at its deadline. */
  timedOut: boolean;
}

/** Thrown inside a WASI call once the deadline has passed: unwinds the interpreter. */
class DeadlineExceeded extends Error {}

// State of the (single, queued) run in progress, read by the import wrappers.
let deadline = Infinity;
let lastMemory: WebAssembly.Memory | undefined;
const ours = new WeakSet<WebAssembly.Module>();
const GUARDED = ["fd_read", "fd_write", "fd_seek", "path_open", "fd_filestat_get", "path_filestat_get"];

/** Size of the last started interpreter's memory, bytes (0 before one started). */
const memoryBytes = (): number => (lastMemory as WebAssembly.Memory | undefined)?.buffer.byteLength ?? 0;

/** Wraps the interpreter's WASI imports with the deadline check (file operations happen all the time). */
function guardImports(imports: WebAssembly.Imports): WebAssembly.Imports {
  const wasi = imports.wasi_snapshot_preview1 as Record<string, unknown> | undefined;
  if (!wasi) return imports;
  const guarded: Record<string, unknown> = { ...wasi };
  for (const name of GUARDED) {
    const fn = wasi[name];
    if (typeof fn !== "function") continue;
    guarded[name] = (...args: unknown[]) => {
      if (performance.now() > deadline) throw new DeadlineExceeded("deadline");
      return fn(...args);
    };
  }
  return { ...imports, wasi_snapshot_preview1: guarded as WebAssembly.ModuleImports };
}

/** Makes `WebAssembly.instantiate(ourModule, imports)` answer `{module, instance}` (once per isolate). */
function installInstantiateShim(): void {
  const wa = WebAssembly as unknown as { instantiate: (...a: unknown[]) => Promise<unknown>; __exiftoolShim?: true };
  if (wa.__exiftoolShim) return;
  const original = wa.instantiate.bind(WebAssembly);
  wa.instantiate = async (source: unknown, imports?: unknown) => {
    if (!(source instanceof WebAssembly.Module) || !ours.has(source)) return original(source, imports);
    const instance = (await original(source, guardImports(imports as WebAssembly.Imports))) as WebAssembly.Instance;
    lastMemory = instance.exports.memory as WebAssembly.Memory;
    return { module: source, instance };
  };
  wa.__exiftoolShim = true;
}

/** Starts an interpreter from the compiled module; `window`/`document` exist only during the synchronous start. */
function createPerl(
  module: WebAssembly.Module,
  fileSystem: MemoryFileSystem,
  out: string[],
  err: string[],
): Promise<ZeroPerl> {
  ours.add(module);
  installInstantiateShim();
  const g = globalThis as Record<string, unknown>;
  const added = ["window", "document"].filter((k) => !(k in g));
  for (const k of added) g[k] = k === "window" ? g : {};
  const decoder = new TextDecoder();
  const text = (d: string | Uint8Array) => (typeof d === "string" ? d : decoder.decode(d, { stream: true }));
  try {
    return ZeroPerl.create({
      fileSystem,
      stdout: (d) => void out.push(text(d)),
      stderr: (d) => void err.push(text(d)),
      fetch: async () => ({ arrayBuffer: async () => module }) as unknown as Response,
    });
  } finally {
    for (const k of added) delete g[k];
  }
}

/**
 * Runs `/exiftool ARGS` once in a fresh interpreter over `files`. Never throws: the script's exit
 * code, stdout and stderr come back, and a failure of the interpreter itself (cannot start, WASM
 * trap, deadline) is exitCode -1 with `error` holding the original message. Runs wait for each other (one
 * interpreter at a time per isolate); the arguments are runNow's: the compiled module, the files, exiftool's
 * arguments, the path of a file it writes (or undefined) and `timeoutMs`, the budget of the whole run in
 * milliseconds (see MetadataBudget.timeoutMs, kinds/metadata.ts).
 */
export function runExifTool(...run: Parameters<typeof runNow>): Promise<PerlRun> {
  const next = queue.then(() => runNow(...run));
  queue = next.catch(() => undefined);
  return next;
}

/** Tail of the isolate-wide queue of runs. */
let queue: Promise<unknown> = Promise.resolve();

async function runNow(
  module: WebAssembly.Module,
  files: SandboxFiles,
  args: string[],
  outputPath: string | undefined,
  timeoutMs: number,
): Promise<PerlRun> {
  const fileSystem = new MemoryFileSystem({ "/": "" });
  for (const [path, data] of Object.entries(files)) fileSystem.addFile(path, data);
  const out: string[] = [],
    err: string[] = [];
  deadline = performance.now() + timeoutMs;
  lastMemory = undefined;
  let perl: ZeroPerl | undefined;
  try {
    perl = await createPerl(module, fileSystem, out, err);
    const r = await perl.runFile("/exiftool", args);
    perl.flush();
    const node = outputPath ? fileSystem.lookup(outputPath) : null;
    const output = node?.type === "file" && node.content instanceof Uint8Array ? node.content : undefined;
    const error = r.success ? undefined : r.error || perl.getLastError() || undefined;
    return {
      exitCode: r.exitCode,
      stdout: out.join(""),
      stderr: err.join(""),
      error,
      output,
      wasmMemoryBytes: memoryBytes(),
      timedOut: false,
    };
  } catch (e) {
    const timedOut = e instanceof DeadlineExceeded || (e instanceof Error && e.cause instanceof DeadlineExceeded);
    const message = e instanceof Error ? e.message : String(e);
    return {
      exitCode: -1,
      stdout: out.join(""),
      stderr: err.join(""),
      error: message,
      wasmMemoryBytes: memoryBytes(),
      timedOut,
    };
  } finally {
    deadline = Infinity;
    // the interpreter's memory is dropped with it: held here until the next run, it stayed in the isolate beside the
    // next interpreter's (issue 49: a write measured +12 MB for it)
    lastMemory = undefined;
    try {
      perl?.dispose();
    } catch {
      /* a trapped interpreter cannot be freed; the instance is dropped anyway */
    }
  }
}
