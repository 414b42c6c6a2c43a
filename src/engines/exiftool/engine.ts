/**
 * The in-process ExifTool engine (ExifTool 13.42 on zeroperl): the same code serves Node (tests,
 * bench) and the engine Worker (wasm/exiftool/worker.ts); only `loadWasm` differs per platform
 * (runtime/node-exiftool.ts compiles the bytes, workerd imports the precompiled module).
 *
 * Calls run one at a time (a promise queue here, so a call's prologue and result stay in order, and
 * an isolate-wide one in perl.ts), each in a fresh interpreter. Budgets are checked before the interpreter starts (bytes) and while it
 * runs (time). Failures come back as data ({ok: false, error}) with ExifTool's own message kept.
 */
import type { TaskFailure } from "../errors";
import { isStreamed, type StreamedBytes } from "../../../native-protocol/frame";
import { messagesOf, toMetadata } from "./json";
import { runExifTool, type PerlRun, type SandboxFiles } from "./perl";
import { tagArgs } from "./tags";
import { rangedFile } from "./ranged";
import { writeRefusal, type RangedBytes } from "../../../native-protocol/metadata";
import { DEFAULT_EXIFTOOL_BUDGET } from "./budget";
import {
  checkTags,
  type MetadataBudget,
  type MetadataEngine,
  type MetadataReadResult,
  type MetadataWriteRequest,
  type MetadataWriteResult,
} from "../kinds/metadata";

/** How this platform obtains the interpreter and the Perl files. */
export interface ExifToolLoader {
  /** zeroperl.wasm compiled (workerd: `import mod from "@6over3/zeroperl-ts/zeroperl.wasm"`; Node: WebAssembly.compile). */
  loadWasm(): Promise<WebAssembly.Module>;
  /** Sandbox path → text: wasm/exiftool/perl-files.json (the exiftool script, Archive::Zip, Charset tables, shims). */
  loadPerlFiles(): Promise<Record<string, string>>;
  /** Engine-wide budget overrides (a request's own `budget` overrides these). */
  budget?: Partial<MetadataBudget>;
}

const fail = (code: TaskFailure["code"], message: string, retryable = false): TaskFailure => ({
  code,
  message,
  retryable,
});

/** Whether `v` is a file read by ranges (kinds/metadata.ts RangedBytes). */
function isRanged(v: unknown): v is RangedBytes {
  return (
    !!v &&
    typeof v === "object" &&
    !(v instanceof Uint8Array) &&
    typeof (v as RangedBytes).read === "function" &&
    typeof (v as RangedBytes).length === "number"
  );
}

/** Sandbox file name: "input" plus the format's extension when it is a plain one (ExifTool decides some types by it). */
function sandboxName(filename: string, format: string | undefined, stem: string): string {
  const ext = (format ?? (filename.includes(".") ? filename.slice(filename.lastIndexOf(".") + 1) : "")).toLowerCase();
  return /^[a-z0-9]{1,10}$/.test(ext) ? `/work/${stem}.${ext}` : `/work/${stem}`;
}

/** A run that did not get as far as ExifTool's own answer, as a failure. */
function interpreterFailure(run: PerlRun, budget: MetadataBudget, what: string): TaskFailure {
  if (run.timedOut)
    return fail("TIMEOUT", `ExifTool took longer than ${budget.timeoutMs} ms on ${what} and was stopped.`);
  const message = run.error || run.stderr.trim() || `exit code ${run.exitCode}`;
  if (/memory|Maximum call stack/i.test(message))
    return fail("OVER_BUDGET", `ExifTool ran out of memory on ${what}: ${message}`);
  return fail("OPEN_FAILED", `ExifTool could not read ${what}: ${message}`);
}

/** The refusal of a write, naming the property when ExifTool's messages do (native-protocol/metadata.ts). */
function writeFailure(messages: string[], names: string[], what: string): TaskFailure | undefined {
  const r = writeRefusal(messages, names, what);
  return r && fail(r.code, r.message);
}

/** Creates the in-process engine. Nothing is loaded until the first call. */
export function createExifToolEngine(loader: ExifToolLoader): MetadataEngine {
  let assets: Promise<{ module: WebAssembly.Module; files: SandboxFiles; version: string }> | undefined;
  let version = "";
  let lastMemory = 0;
  let tail: Promise<unknown> = Promise.resolve();
  const load = () =>
    (assets ??= Promise.all([loader.loadWasm(), loader.loadPerlFiles()])
      .then(([module, perl]) => {
        const encoder = new TextEncoder();
        const files = Object.fromEntries(Object.entries(perl).map(([p, text]) => [p, encoder.encode(text)]));
        version = /my\$version='([\d.]+)'/.exec(perl["/exiftool"] ?? "")?.[1] ?? "unknown";
        return { module, files, version };
      })
      .catch((err) => {
        assets = undefined;
        throw err;
      }));
  /** Runs `fn` after every earlier call has finished (one interpreter at a time). */
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = tail.then(fn, fn);
    tail = next.catch(() => undefined);
    return next;
  };
  const budgetOf = (b?: Partial<MetadataBudget>): MetadataBudget => ({
    ...DEFAULT_EXIFTOOL_BUDGET,
    ...loader.budget,
    ...b,
  });

  /** Common prologue: shape and byte budget checks, then the run. */
  async function call(
    req: {
      input: Uint8Array | StreamedBytes | RangedBytes;
      filename: string;
      format?: string;
      budget?: Partial<MetadataBudget>;
    },
    args: (input: string) => string[],
    outputPath?: string,
  ) {
    const budget = budgetOf(req.budget);
    // only the native ExifTool takes a stream (issue 49): a hand-off code, so routing passes the task on
    if (isStreamed(req?.input))
      return {
        failure: fail("UNSUPPORTED", `ExifTool in WebAssembly takes ${req.filename} as bytes, not as a stream.`),
      };
    const what = String(req.filename ?? "the file");
    // issue 49: a file read by ranges, at most the byte budget of it (ranged.ts)
    const ranged = isRanged(req?.input) ? rangedFile(req.input, budget.maxBytes) : undefined;
    if (!ranged && !(req?.input instanceof Uint8Array))
      return { failure: fail("INTERNAL_ERROR", "Engine request without `input` bytes.") };
    if (req.input instanceof Uint8Array && req.input.byteLength > budget.maxBytes) {
      return {
        failure: fail(
          "OVER_BUDGET",
          `${what} is ${req.input.byteLength} bytes; metadata is read and written for files up to ${budget.maxBytes} bytes.`,
        ),
      };
    }
    let a;
    try {
      a = await load();
    } catch (err) {
      return {
        failure: fail(
          "INTERNAL_ERROR",
          `ExifTool could not start: ${err instanceof Error ? err.message : String(err)}`,
          true,
        ),
      };
    }
    const input = sandboxName(what, req.format, "input");
    const started = performance.now();
    const run = await runExifTool(
      a.module,
      { ...a.files, [input]: ranged?.blob ?? (req.input as Uint8Array) },
      args(input),
      outputPath,
      budget.timeoutMs,
    );
    lastMemory = run.wasmMemoryBytes;
    if (ranged?.overBudget())
      return {
        failure: fail(
          "OVER_BUDGET",
          `ExifTool would read more than ${budget.maxBytes} bytes of ${what}; metadata is read here up to that many.`,
        ),
      };
    return { run, input, what, budget, ms: performance.now() - started };
  }

  return {
    async info() {
      await load();
      return { engineVersion: version, wasmMemoryBytes: lastMemory };
    },
    read(req) {
      return serial(async (): Promise<MetadataReadResult> => {
        const c = await call(req, (input) => ["-json", input]);
        if ("failure" in c) return { ok: false, error: c.failure!, engineVersion: version };
        const metadata = toMetadata(c.run.stdout, c.what);
        // ExifTool exits 1 with an Error property for unreadable files: that answer is the result
        if (!metadata) return { ok: false, error: interpreterFailure(c.run, c.budget, c.what), engineVersion: version };
        return { ok: true, metadata, engineVersion: version, ms: c.ms, wasmMemoryBytes: c.run.wasmMemoryBytes };
      });
    },
    write(req: MetadataWriteRequest) {
      return serial(async (): Promise<MetadataWriteResult> => {
        const problems = checkTags(req?.tags ?? {});
        if (problems.length)
          return { ok: false, error: fail("CONVERSION_FAILED", problems.join(" ")), engineVersion: version };
        const output = sandboxName(String(req.filename), req.format, "output");
        const limit = budgetOf(req.budget).maxWriteBytes;
        // a stream is refused by the common prologue (UNSUPPORTED); bytes over the write budget hand off here
        if (limit !== undefined && req?.input instanceof Uint8Array && req.input.byteLength > limit)
          return {
            ok: false,
            error: fail(
              "OVER_BUDGET",
              limit === 0
                ? `${String(req.filename)}: ExifTool in WebAssembly does not write metadata in a Worker (its writer needs more than a 128 MB isolate at any size); the native exiftool writes it.`
                : `${String(req.filename)} is ${req.input.byteLength} bytes; metadata is written into files up to ${limit} bytes.`,
            ),
            engineVersion: version,
          };
        const c = await call(req, (input) => [...tagArgs(req.tags), "-o", output, input], output);
        if ("failure" in c) return { ok: false, error: c.failure!, engineVersion: version };
        if (c.run.exitCode === -1)
          return { ok: false, error: interpreterFailure(c.run, c.budget, c.what), engineVersion: version };
        const messages = [
          ...messagesOf(c.run.stderr, c.input),
          ...messagesOf(c.run.stdout, c.input).filter((m) => !/image files? (created|updated|unchanged)/.test(m)),
        ];
        const refused = writeFailure(messages, Object.keys(req.tags), c.what);
        if (refused) return { ok: false, error: refused, engineVersion: version };
        if (c.run.exitCode !== 0 || !c.run.output) {
          const detail =
            messages.map((m) => m.replace(/^(Warning|Error): /, "")).join("; ") ||
            c.run.error ||
            `exit code ${c.run.exitCode}`;
          return {
            ok: false,
            error: fail("CONVERSION_FAILED", `ExifTool wrote nothing into ${c.what}: ${detail}`),
            engineVersion: version,
          };
        }
        const warnings = messages.map((m) => m.replace(/^Warning: (\[minor\] )?/, ""));
        return {
          ok: true,
          data: c.run.output,
          warnings,
          engineVersion: version,
          ms: c.ms,
          wasmMemoryBytes: c.run.wasmMemoryBytes,
        };
      });
    },
  };
}
