/**
 * One pandoc.wasm instance (pandoc-wasm 1.1.0: pandoc 3.10 built for WASI, with its `convert(json)` export) under
 * @bjorn3/browser_wasi_shim: an in-memory file system holding only the files a call gives it (no preopened host
 * folder, no sockets: WASI has none), the GHC runtime started once with a bounded heap. pandoc-wasm's own core.js does
 * the same with a fixed `+RTS -H64m` and no cap; this driver sets both (budget.ts) and reports the runtime's exit.
 */
import { ConsoleStdout, File, OpenFile, PreopenDirectory, WASI, WASIProcExit } from "@bjorn3/browser_wasi_shim";

/** What pandoc-wasm exports besides the WASI entry points. */
interface PandocExports {
  memory: WebAssembly.Memory;
  __wasm_call_ctors(): void;
  malloc(n: number): number;
  hs_init_with_rtsopts(argc: number, argv: number): void;
  convert(opts: number, length: number): void;
}

/** One call's answer: the output file's bytes (empty when none was written) and what pandoc said. */
export interface PandocRun {
  output: Uint8Array;
  /** pandoc's error text (stderr): non-empty when it refused the input. */
  stderr: string;
  /** pandoc's warnings, as its JSON log (`pretty`: the message; `verbosity`: INFO, WARNING, ERROR). */
  warnings: { type?: string; verbosity?: string; pretty?: string }[];
}

/** A pandoc instance: `run` converts with pandoc's options object (its defaults-file keys), `memoryBytes` its size. */
export interface PandocInstance {
  /**
   * Runs pandoc once on `files` (name → bytes; the options name them in `input-files` and `output-file`).
   * @throws PandocExit when the runtime exits (heap cap reached: `outOfMemory`); the instance is then unusable
   * @throws WebAssembly.RuntimeError on a trap; the instance is then unusable
   */
  run(options: Record<string, unknown>, files: Record<string, Uint8Array>, outputFile?: string): PandocRun;
  memoryBytes(): number;
}

/** The GHC runtime exited during a call (its message on stderr); the instance cannot be used again. */
export class PandocExit extends Error {
  constructor(
    readonly code: number,
    readonly stderr: string,
  ) {
    super(`pandoc exited with code ${code}: ${stderr.trim().slice(0, 300)}`);
    this.name = "PandocExit";
  }
  /** True when the heap cap was reached (the runtime's "out of memory"). */
  get outOfMemory(): boolean {
    return /out of memory|heap overflow|heap exhausted/i.test(this.stderr);
  }
}

const decoder = new TextDecoder();

/**
 * Starts pandoc from its compiled module (workerd imports it precompiled; Node and browsers compile the file).
 * `maxHeapBytes` caps the GHC heap (`-M`), with a 16 MiB allocation area (`-H16m`, half the memory of the package's
 * `-H64m` and faster in the measurements of shared/reference/wasm-candidates.md).
 */
export async function startPandoc(module: WebAssembly.Module, maxHeapBytes: number): Promise<PandocInstance> {
  const args = ["pandoc.wasm", "+RTS", "-H16m", `-M${Math.floor(maxHeapBytes / 1048576)}m`, "-RTS"];
  const fileSystem = new Map<string, File>();
  let stderrLines: string[] = [];
  const wasi = new WASI(
    args,
    [],
    [
      new OpenFile(new File(new Uint8Array(), { readonly: true })),
      ConsoleStdout.lineBuffered(() => {}),
      ConsoleStdout.lineBuffered((line) => void stderrLines.push(line)),
      new PreopenDirectory("/", fileSystem),
    ],
    { debug: false },
  );
  const instance = await WebAssembly.instantiate(module, {
    wasi_snapshot_preview1: wasi.wasiImport as unknown as WebAssembly.ModuleImports,
  });
  wasi.initialize(instance as { exports: { memory: WebAssembly.Memory; _initialize?: () => unknown } });
  const x = instance.exports as unknown as PandocExports;
  x.__wasm_call_ctors();
  const view = () => new DataView(x.memory.buffer);
  const cString = (s: string) => {
    const b = new TextEncoder().encode(s);
    const p = x.malloc(b.length + 1);
    new Uint8Array(x.memory.buffer, p, b.length).set(b);
    view().setUint8(p + b.length, 0);
    return p;
  };
  const argc = x.malloc(4);
  view().setUint32(argc, args.length, true);
  const argv = x.malloc(4 * (args.length + 1));
  args.forEach((a, i) => view().setUint32(argv + 4 * i, cString(a), true));
  view().setUint32(argv + 4 * args.length, 0, true);
  const argvRef = x.malloc(4);
  view().setUint32(argvRef, argv, true);
  x.hs_init_with_rtsopts(argc, argvRef);

  return {
    memoryBytes: () => x.memory.buffer.byteLength,
    run(options, files, outputFile) {
      fileSystem.clear();
      stderrLines = [];
      const stderr = new File(new Uint8Array());
      const warnings = new File(new Uint8Array());
      fileSystem.set("stdin", new File(new Uint8Array(), { readonly: true }));
      fileSystem.set("stdout", new File(new Uint8Array()));
      fileSystem.set("stderr", stderr);
      fileSystem.set("warnings", warnings);
      for (const [name, data] of Object.entries(files)) fileSystem.set(name, new File(data, { readonly: true }));
      if (outputFile) fileSystem.set(outputFile, new File(new Uint8Array()));
      // the options as JSON in the instance's memory (pandoc-wasm's core.js leaks this block per call; 1 KB or so)
      const json = new TextEncoder().encode(JSON.stringify(options));
      const at = x.malloc(json.length);
      new Uint8Array(x.memory.buffer, at, json.length).set(json);
      try {
        x.convert(at, json.length);
      } catch (err) {
        if (err instanceof WASIProcExit)
          throw new PandocExit(err.code, [decoder.decode(stderr.data), ...stderrLines].join("\n"));
        throw err;
      }
      let log: PandocRun["warnings"] = [];
      try {
        const text = decoder.decode(warnings.data);
        if (text.trim()) log = JSON.parse(text) as PandocRun["warnings"];
      } catch {
        log = [];
      }
      const out = outputFile ? fileSystem.get(outputFile) : undefined;
      return { output: out?.data ?? new Uint8Array(), stderr: decoder.decode(stderr.data), warnings: log };
    },
  };
}
