/**
 * The metadata kind (kinds/index.ts): what the metadata operations call and what a metadata engine
 * serves over RPC. Implemented by ExifTool in WebAssembly (engines/exiftool, engine Worker
 * wasm/exiftool/worker.ts) and, for files over its budget (issue 49), by Debian's exiftool in the native engine
 * (row exiftool-native, container/engines/exiftool.ts); property names are ExifTool's tag names.
 *
 * Everything is plain, structured-clone-serializable data (bytes in, bytes out), because in the
 * Worker `ctx.engines.exiftool` is a service-binding stub and in Node it is the in-process engine
 * (exiftool/engine.ts). Failures come back as data (`{ok: false, error}`), never as thrown classes: class
 * identity does not survive RPC (DESIGN.md principle 4).
 */
import type { TaskFailure } from "../errors";
import type { StreamedBytes } from "../../../native-protocol/frame";
import type { Metadata, RangedBytes } from "../../../native-protocol/metadata";

/** Limits of one call, checked before the interpreter starts (bytes) and while it runs (time). */
export interface MetadataBudget {
  /** Largest input in bytes (the whole file is copied into the interpreter's file system). */
  maxBytes: number;
  /** Largest input of a write, bytes (a write holds the file several times over; absent: `maxBytes`). */
  maxWriteBytes?: number;
  /**
   * Longest call in milliseconds. Enforced at each file operation of the interpreter in Node; in
   * workerd the clock stands still while WASM runs, so there the Worker's `limits.cpu_ms` is the bound.
   */
  timeoutMs: number;
}

interface RequestBase {
  /**
   * The file's bytes; for the native engine (issue 49) a stream too, which reaches it as a file in its folder and
   * which the WebAssembly engine refuses (UNSUPPORTED, a hand-off).
   */
  input: Uint8Array | StreamedBytes;
  /** The name the user uploaded (reported as SourceFile/FileName; never a sandbox path). */
  filename: string;
  /**
   * Format to read the file as (lower-case extension, e.g. "pdf"): the task's `input_format`.
   * Absent: the extension of `filename`. ExifTool mostly sniffs content; the extension decides
   * for text-like formats and is what a wrong extension is corrected by.
   */
  format?: string;
  /** Overrides of the engine's default budget for this call (exiftool/budget.ts DEFAULT_EXIFTOOL_BUDGET). */
  budget?: Partial<MetadataBudget>;
}

/**
 * Read every property ExifTool prints for the file (`exiftool -json FILE`). The WebAssembly engine also takes the file
 * by ranges (issue 49, RangedBytes): it then reads only what ExifTool's parsers ask for, at most its byte budget.
 */
export interface MetadataReadRequest extends Omit<RequestBase, "input"> {
  input: RequestBase["input"] | RangedBytes;
}

/** Write properties into a copy of the file (`exiftool -TAG=VALUE... -o OUT FILE`). */
export interface MetadataWriteRequest extends RequestBase {
  /**
   * Tag name (optionally `Group:Tag`, e.g. "XMP:Title") → value. An array writes a list
   * (Keywords); "" deletes the tag. Names are checked by {@link checkTags} (operation) and the engine.
   */
  tags: Record<string, string | number | string[]>;
}

interface CallFacts {
  /** The engine's real version, e.g. ExifTool "13.42". */
  engineVersion: string;
  /** Time spent in the call, milliseconds. */
  ms: number;
  /** Size of the interpreter's WebAssembly.Memory at the end of the call, bytes (its peak). */
  wasmMemoryBytes: number;
}

/** Result of a read, as data. */
export type MetadataReadResult =
  | (CallFacts & {
      ok: true;
      /** ExifTool's properties, SourceFile/FileName/Directory set to the uploaded name; may hold Error/Warning. */
      metadata: Metadata;
    })
  | { ok: false; error: TaskFailure; engineVersion: string };

/** Result of a write, as data. */
export type MetadataWriteResult =
  | (CallFacts & {
      ok: true;
      /** The new file; from the native engine (issue 49) a stream when over the answer threshold. */
      data: Uint8Array | StreamedBytes;
      /** ExifTool's minor warnings that named no requested property (e.g. "Creating non-standard IPTC in PNG"). */
      warnings: string[];
    })
  | { ok: false; error: TaskFailure; engineVersion: string };

/** A metadata engine: the in-process engine or the engine Worker's RPC stub (`ctx.engines.exiftool`). */
export interface MetadataEngine {
  /** Reads a file's metadata. Never rejects for bad input: failures are `{ok: false}`. */
  read(request: MetadataReadRequest): Promise<MetadataReadResult>;
  /** Writes metadata into a new file. Never rejects for bad input: failures are `{ok: false}`. */
  write(request: MetadataWriteRequest): Promise<MetadataWriteResult>;
  /** The engine's version and the WASM memory of the last call, bytes (starts nothing). */
  info(): Promise<{ engineVersion: string; wasmMemoryBytes: number }>;
}

// The rules for the properties `metadata/write` may set (checked by the operation at task creation and again by each
// engine) and the result's value types are shared with the native ExifTool: native-protocol/metadata.ts.
export { checkTags, MAX_VALUE_LENGTH, TAG_NAME } from "../../../native-protocol/metadata";
export type { Metadata, MetadataValue, RangedBytes } from "../../../native-protocol/metadata";
