/**
 * One 7-Zip instance (7z-wasm 1.2.0: the `7zz` command line compiled with emscripten) made from the
 * compiled module, with its console captured, its WebAssembly memory measurable, and a cap on the
 * bytes written into its file system (MEMFS): a member whose header understates its size, or a
 * gzip whose trailer lies, stops at the cap instead of filling the isolate. Files enter and leave
 * MEMFS without copies (`canOwn` on the way in, the node's own array on the way out).
 */
import createSevenZip from "7z-wasm/7zz.es6.js";
import { asBrowser } from "../emscripten";

/** The emscripten file system calls the engine uses. */
export interface SevenZipFS {
  writeFile(path: string, data: Uint8Array, opts?: { canOwn?: boolean }): void;
  mkdir(path: string): void;
  mkdirTree?(path: string): void;
  readdir(path: string): string[];
  lstat(path: string): { size: number; mode: number };
  unlink(path: string): void;
  rmdir(path: string): void;
  chdir(path: string): void;
  isFile(mode: number): boolean;
  isDir(mode: number): boolean;
  lookupPath(
    path: string,
    opts?: { follow?: boolean },
  ): { node: { contents?: Uint8Array | null; usedBytes?: number; stream_ops?: Record<string, unknown> } };
  ErrnoError: new (errno: number) => Error;
}

/** A ready instance. */
export interface SevenZip {
  FS: SevenZipFS;
  /** Runs `7zz <args>`; its exit code (0 ok, 1 warning, 2 fatal, 7 bad command line, 8 out of memory), or -1 when it aborted. */
  run(args: string[]): number;
  /** Console lines of the last run: stdout, stderr. */
  stdout: string[];
  stderr: string[];
  /** The bytes of the regular file at `path`, without a copy (the MEMFS node's array); then the file is removed. */
  take(path: string): Uint8Array;
  /** Caps the bytes later writes may add to the file system; `capped()` says whether a write was refused. */
  capWrites(maxBytes: number): void;
  capped(): boolean;
  /** Current WebAssembly memory, bytes. */
  memoryBytes(): number;
}

interface RawModule {
  FS: SevenZipFS;
  callMain(args: string[]): number;
}

/** emscripten's errno for "no space left on device". */
const ENOSPC = 51;

/** A fresh 7-Zip from the compiled `module` (workerd: a CompiledWasm import; Node: WebAssembly.compile of the file). */
export async function newSevenZip(module: WebAssembly.Module): Promise<SevenZip> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  let memory: WebAssembly.Memory | undefined;
  const m = (await asBrowser(() =>
    createSevenZip({
      print: (s: string) => stdout.push(s),
      printErr: (s: string) => stderr.push(s),
      instantiateWasm(imports: WebAssembly.Imports, done: (i: WebAssembly.Instance, m: WebAssembly.Module) => void) {
        WebAssembly.instantiate(module, imports).then((i) => {
          memory = i.exports.memory as WebAssembly.Memory;
          done(i, module);
        });
        return {};
      },
    }),
  )) as RawModule;
  const FS = m.FS;
  // The write cap: every MEMFS file shares one stream_ops object; wrap its write once.
  FS.writeFile("/.probe", new Uint8Array(0));
  const ops = FS.lookupPath("/.probe").node.stream_ops as { write: (...a: unknown[]) => number };
  FS.unlink("/.probe");
  let allowance = Infinity;
  let refused = false;
  const write = ops.write;
  ops.write = function (this: unknown, ...a: unknown[]) {
    const length = a[3] as number;
    if (length > allowance) {
      refused = true;
      throw new FS.ErrnoError(ENOSPC);
    }
    allowance -= length;
    return write.apply(this, a);
  };
  return {
    FS,
    stdout,
    stderr,
    run(args) {
      stdout.length = 0;
      stderr.length = 0;
      try {
        return m.callMain(args);
      } catch (err) {
        // an uncaught C++ exception (a pointer) or an abort: the archive could not be read
        stderr.push(`aborted: ${err instanceof Error ? err.message : String(err)}`);
        return -1;
      }
    },
    take(path) {
      const node = FS.lookupPath(path).node;
      // MEMFS may hold a file as an Int8Array (a slice of HEAP8 when 7-Zip wrote it in one piece): answer a Uint8Array view
      const c = node.contents;
      const data = c ? new Uint8Array(c.buffer, c.byteOffset, node.usedBytes ?? c.length) : new Uint8Array(0);
      node.contents = null;
      FS.unlink(path);
      return data;
    },
    capWrites(maxBytes) {
      allowance = maxBytes;
      refused = false;
    },
    capped: () => refused,
    memoryBytes: () => memory?.buffer.byteLength ?? 0,
  };
}
