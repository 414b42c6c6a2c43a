/**
 * The metadata kind (kinds/index.ts): what the metadata operations call and what a metadata engine
 * serves over RPC. Implemented by ExifTool in WebAssembly (engines/exiftool, engine Worker
 * wasm/exiftool/worker.ts); property names are ExifTool's tag names.
 *
 * Everything is plain, structured-clone-serializable data (bytes in, bytes out), because in the
 * Worker `ctx.engines.exiftool` is a service-binding stub and in Node it is the in-process engine
 * (exiftool/engine.ts). Failures come back as data (`{ok: false, error}`), never as thrown classes: class
 * identity does not survive RPC (DESIGN.md principle 4).
 */
import type { TaskFailure } from "../errors";

/** One metadata value as the `metadata` result carries it: ExifTool's printed value, scalar. */
export type MetadataValue = string | number;

/** Property name (ExifTool tag name, e.g. "Title", "ImageWidth") → value. */
export type Metadata = Record<string, MetadataValue>;

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
  /** Overrides of the engine's default budget for this call (exiftool/budget.ts DEFAULT_EXIFTOOL_BUDGET). */
  budget?: Partial<MetadataBudget>;
}

/** Read every property ExifTool prints for the file (`exiftool -json FILE`). */
export type MetadataReadRequest = RequestBase;

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
      /** The new file. */
      data: Uint8Array;
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

// Rules for the properties `metadata/write` may set (checked by the operation at task creation and
// again by the engine).

/** `Tag` or `Group:Tag` (ExifTool tag names are letters, digits, `-` and `_`; e.g. "XMP-dc:Title"). */
export const TAG_NAME = /^(?:[A-Za-z][\w-]{0,63}:)?[A-Za-z][\w-]{0,63}$/;

/**
 * Pseudo-tags that would rename, move, link or strip the file rather than set metadata
 * (ExifTool "Extra Tags" writable only as file operations), and the File group itself.
 */
const FORBIDDEN = new Set([
  "all",
  "filename",
  "directory",
  "testname",
  "hardlink",
  "symlink",
  "filemodifydate",
  "filecreatedate",
  "filepermissions",
  "fileattributes",
  "fileuserid",
  "filegroupid",
]);

/** Largest value of one property, characters (XMP and PDF strings are unbounded; this keeps calls small). */
export const MAX_VALUE_LENGTH = 64 * 1024;

/**
 * Checks the `metadata` object of metadata/write. Returns messages naming each bad property
 * (empty when all are fine). Values: string, number, or a list of strings (Keywords).
 */
export function checkTags(tags: Record<string, unknown>): string[] {
  const errors: string[] = [];
  const names = Object.keys(tags);
  if (names.length === 0) errors.push('metadata must name at least one property, e.g. {"Title": "Report"}.');
  for (const name of names) {
    const value = tags[name];
    const bare = name.includes(":") ? name.slice(name.indexOf(":") + 1) : name;
    if (!TAG_NAME.test(name))
      errors.push(`metadata.${name}: not an ExifTool property name (letters, digits, - and _, optionally Group:Name).`);
    else if (FORBIDDEN.has(bare.toLowerCase()) || /^file:/i.test(name))
      errors.push(`metadata.${name}: describes the file, not its metadata, and cannot be written.`);
    const list = Array.isArray(value) ? value : [value];
    if (list.some((v) => typeof v !== "string" && typeof v !== "number"))
      errors.push(`metadata.${name}: must be a string, a number or a list of strings.`);
    else if (list.some((v) => String(v).length > MAX_VALUE_LENGTH))
      errors.push(`metadata.${name}: longer than ${MAX_VALUE_LENGTH} characters.`);
  }
  return errors;
}
