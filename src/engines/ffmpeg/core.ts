/**
 * One ffmpeg core (@ffmpeg/core 0.12.10, ffmpeg 5.1.4 single-threaded) per call, made from the
 * compiled module in ~10 ms (shared/reference/wasm-engines.md: one instance runs out of bounds after
 * ~24 exec() calls). A call runs its ffprobe and its one or two ffmpeg runs in the same core, so
 * only one core's memory is alive at a time; the log level, which runs leave behind, is reset
 * before each ffmpeg run.
 *
 * Two fixes this file owns:
 * - the emscripten glue is run as if in a browser worker (no `process`, a `location` and `self`),
 *   because workerd and Node expose `process` and the glue would take its Node branch;
 * - a larger stack. The core is linked with emscripten's default 64 KiB stack, which libvpx-vp9
 *   and libopus overflow on their first frame ("RuntimeError: memory access out of bounds",
 *   ffmpegwasm/ffmpeg.wasm#591 and #679 — every WebM and Opus output). Before running, the stack
 *   pointer is moved to the top of a {@link STACK_BYTES} block from malloc (the stack grows down
 *   into it; the core has no stack-limit checks), which makes both encoders work.
 */
import createFFmpegCore from "@ffmpeg/core";
import { asBrowser } from "../emscripten";

/** Stack given to one run, bytes (VP9 at 1080p needs more than 1 MiB). */
export const STACK_BYTES = 4 * 1024 * 1024;

/** The emscripten file system calls the engine uses. */
export interface CoreFS {
  writeFile(path: string, data: Uint8Array | string): void;
  readFile(path: string): Uint8Array;
  mkdir(path: string): void;
  readdir(path: string): string[];
  stat(path: string): { size: number; mode: number };
  isFile(mode: number): boolean;
  chdir(path: string): void;
}

/** A ready core with its captured console. */
export interface Core {
  FS: CoreFS;
  /** Runs `ffmpeg <args>`; the exit code (0 = success). */
  ffmpeg(args: string[], timeoutMs?: number): number;
  /** Runs `ffprobe <args>`; the exit code. */
  ffprobe(args: string[]): number;
  /** Console lines: stdout and stderr in order, stdout alone, stderr alone. */
  lines: string[];
  stdout: string[];
  stderr: string[];
  /** Current WebAssembly memory, bytes. */
  memoryBytes(): number;
}

interface RawModule {
  FS: CoreFS;
  HEAPU8: Uint8Array;
  asm: Record<string, (...a: number[]) => number>;
  exec(...args: string[]): number;
  setLogger(fn: (m: { type: string; message: string }) => void): void;
  setTimeout(ms: number): void;
  reset(): void;
  _malloc(n: number): number;
  _ffprobe(argc: number, argv: number): number;
  stringsToPtr(args: string[]): number;
}

/**
 * A fresh core from the compiled `module` (workerd: imported as a CompiledWasm module; Node:
 * WebAssembly.compile of the file; browser: instantiateStreaming's module).
 */
export async function newCore(module: WebAssembly.Module): Promise<Core> {
  const m = (await asBrowser(() =>
    createFFmpegCore({
      instantiateWasm(imports: WebAssembly.Imports, done: (i: WebAssembly.Instance, m: WebAssembly.Module) => void) {
        WebAssembly.instantiate(module, imports).then((i) => done(i, module));
        return {};
      },
    }),
  )) as RawModule;
  const lines: string[] = [];
  const stdout: string[] = [];
  const stderr: string[] = [];
  m.setLogger(({ type, message }) => {
    if (message.startsWith("Aborted(")) return; // how the core ends every run
    lines.push(message);
    (type === "stdout" ? stdout : stderr).push(message);
  });
  // the larger stack (see the file comment): stackRestore is export "Ea" of this exact build
  const stackRestore = m.asm.Ea;
  if (typeof stackRestore !== "function")
    throw new Error("@ffmpeg/core is not the 0.12.10 build this engine patches (no stackRestore export).");
  const top = (m._malloc(STACK_BYTES) + STACK_BYTES) & ~15;
  return {
    FS: m.FS,
    lines,
    stdout,
    stderr,
    ffmpeg(args, timeoutMs) {
      stackRestore(top); // each run from the top (a run ends by unwinding through abort, not by returning)
      m.reset();
      if (timeoutMs && timeoutMs > 0) m.setTimeout(timeoutMs);
      // the log level is global: an earlier ffprobe -v error in this core would silence the run's console
      return m.exec("-loglevel", "info", ...args);
    },
    ffprobe(args) {
      stackRestore(top);
      const argv = ["./ffprobe", ...args];
      try {
        return m._ffprobe(argv.length, m.stringsToPtr(argv));
      } catch (err) {
        if (err instanceof Error && err.message.startsWith("Aborted")) return 1; // exit_program(): an option or input error
        throw err;
      }
    },
    memoryBytes: () => m.HEAPU8.buffer.byteLength,
  };
}
