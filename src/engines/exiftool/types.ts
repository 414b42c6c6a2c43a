/**
 * The ExifTool engine seam: what the metadata operations call and what the engine Worker serves
 * over RPC (wasm/exiftool/worker.ts).
 *
 * Everything is plain, structured-clone-serializable data (bytes in, bytes out), because in the
 * Worker `ctx.engines.exiftool` is a service-binding stub and in Node it is the in-process engine
 * (engine.ts). Failures come back as data (`{ok: false, error}`), never as thrown classes: class
 * identity does not survive RPC (DESIGN.md principle 4).
 */
import type { TaskFailure } from "../errors";

/** One metadata value as the `metadata` result carries it: ExifTool's printed value, scalar. */
export type MetadataValue = string | number;

/** Property name (ExifTool tag name, e.g. "Title", "ImageWidth") → value. */
export type Metadata = Record<string, MetadataValue>;

/** Limits of one call, checked before the interpreter starts (bytes) and while it runs (time). */
export interface ExifToolBudget {
  /** Largest input in bytes (the whole file is copied into the interpreter's file system). */
  maxBytes: number;
  /**
   * Longest call in milliseconds. Enforced at each file operation of the interpreter in Node; in
   * workerd the clock stands still while WASM runs, so there the Worker's `limits.cpu_ms` is the bound.
   */
  timeoutMs: number;
}

/**
 * Defaults: 64 MB of input (a call's WASM memory is ~40 MB plus the file) and 30 s (AES-256
 * encrypted PDFs take 10–17 s in WASM, reference/wasm-engines.md).
 */
export const DEFAULT_EXIFTOOL_BUDGET: ExifToolBudget = { maxBytes: 64 * 1024 * 1024, timeoutMs: 30_000 };

interface RequestBase {
  /** The file's bytes. */
  input: Uint8Array;
  /** The name the user uploaded (reported as SourceFile/FileName; never a sandbox path). */
  filename: string;
  /**
   * Format to read the file as (lower-case extension, e.g. "pdf"): the task's `input_format`.
   * Absent: the extension of `filename`. ExifTool mostly sniffs content; the extension decides
   * for text-like formats and is what a wrong extension is corrected by.
   */
  format?: string;
  /** Overrides of DEFAULT_EXIFTOOL_BUDGET for this call. */
  budget?: Partial<ExifToolBudget>;
}

/** Read every property ExifTool prints for the file (`exiftool -json FILE`). */
export type ExifToolReadRequest = RequestBase;

/** Write properties into a copy of the file (`exiftool -TAG=VALUE... -o OUT FILE`). */
export interface ExifToolWriteRequest extends RequestBase {
  /**
   * Tag name (optionally `Group:Tag`, e.g. "XMP:Title") → value. An array writes a list
   * (Keywords); "" deletes the tag. Names are checked against tagNamePattern (engine.ts).
   */
  tags: Record<string, string | number | string[]>;
}

interface CallFacts {
  /** Real ExifTool version, e.g. "13.42". */
  engineVersion: string;
  /** Time spent in the call, milliseconds. */
  ms: number;
  /** Size of the interpreter's WebAssembly.Memory at the end of the call, bytes (its peak). */
  wasmMemoryBytes: number;
}

/** Result of a read, as data. */
export type ExifToolReadResult =
  | (CallFacts & {
      ok: true;
      /** ExifTool's properties, SourceFile/FileName/Directory set to the uploaded name; may hold Error/Warning. */
      metadata: Metadata;
    })
  | { ok: false; error: TaskFailure; engineVersion: string };

/** Result of a write, as data. */
export type ExifToolWriteResult =
  | (CallFacts & {
      ok: true;
      /** The new file. */
      data: Uint8Array;
      /** ExifTool's minor warnings that named no requested property (e.g. "Creating non-standard IPTC in PNG"). */
      warnings: string[];
    })
  | { ok: false; error: TaskFailure; engineVersion: string };

/** What `ctx.engines.exiftool` holds: the in-process engine or the engine Worker's RPC stub. */
export interface ExifToolEngine {
  /** Reads a file's metadata. Never rejects for bad input: failures are `{ok: false}`. */
  read(request: ExifToolReadRequest): Promise<ExifToolReadResult>;
  /** Writes metadata into a new file. Never rejects for bad input: failures are `{ok: false}`. */
  write(request: ExifToolWriteRequest): Promise<ExifToolWriteResult>;
  /** ExifTool's version and the WASM memory of the last call (starts nothing). */
  info(): Promise<{ engineVersion: string; wasmMemoryBytes: number }>;
}
