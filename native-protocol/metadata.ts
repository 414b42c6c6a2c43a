/**
 * The metadata kind's rules shared by the WebAssembly ExifTool (src/engines/exiftool, an engine Worker) and the native
 * one (container/engines/exiftool.ts, Debian's exiftool; issue 49): which properties metadata/write may set and how
 * they become ExifTool arguments, how `exiftool -json` becomes the `metadata` result, and how ExifTool's answers to a
 * write are read back. One place, so both rows answer alike and routing can hand a task from one to the other. Also
 * the native engine's request shapes (the Worker's kind: src/engines/kinds/metadata.ts). Imports types only.
 */
import type { LocalFile, StreamedBytes } from "./frame.ts";

/** One metadata value as the `metadata` result carries it: ExifTool's printed value, scalar. */
export type MetadataValue = string | number;

/** Property name (ExifTool tag name, e.g. "Title", "ImageWidth") → value. */
export type Metadata = Record<string, MetadataValue>;

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

/**
 * Properties that describe the interpreter's in-memory file, not the user's: WASI reports zero
 * dates ("0000:00:00 00:00:00") and "----------" permissions. They are dropped; FileSize and the
 * File* type keys are kept (they describe the content).
 */
export const SANDBOX_KEYS = new Set([
  "FileModifyDate",
  "FileAccessDate",
  "FileInodeChangeDate",
  "FileCreateDate",
  "FilePermissions",
  "FileAttributes",
]);

/** One JSON value as a scalar: lists joined with ", " (ExifTool's own list separator), structures as JSON. */
export function toScalar(value: unknown): MetadataValue {
  if (typeof value === "number" || typeof value === "string") return value;
  if (typeof value === "boolean") return String(value);
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map((v) => toScalar(v)).join(", ");
  return JSON.stringify(value);
}

/**
 * Parses `exiftool -json` stdout (an array with one object) into Metadata. SourceFile and
 * FileName become `filename` (the uploaded name), Directory ".", as `exiftool -json NAME` prints
 * them in the file's own directory; SANDBOX_KEYS are dropped.
 * @returns undefined when stdout holds no JSON object (the caller reports ExifTool's stderr instead)
 */
export function toMetadata(stdout: string, filename: string): Metadata | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    return undefined;
  }
  const first = Array.isArray(parsed) ? parsed[0] : undefined;
  if (!first || typeof first !== "object") return undefined;
  const metadata: Metadata = {};
  for (const [key, value] of Object.entries(first as Record<string, unknown>)) {
    if (SANDBOX_KEYS.has(key)) continue;
    if (key === "SourceFile" || key === "FileName") metadata[key] = filename;
    else if (key === "Directory") metadata[key] = ".";
    else metadata[key] = toScalar(value);
  }
  return metadata;
}

/** ExifTool's stderr as separate messages, each without the trailing " - /sandbox/path". */
export function messagesOf(stderr: string, sandboxPath: string): string[] {
  return stderr
    .split(/\r?\n/)
    .map((line) => line.replace(` - ${sandboxPath}`, "").trim())
    .filter((line) => line.length > 0);
}

/** The ExifTool arguments that set `tags`: `-Tag=value` (a list repeats it; "" deletes the tag). */
export function tagArgs(tags: Record<string, string | number | string[]>): string[] {
  return Object.entries(tags).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((v) => `-${name}=${String(v)}`),
  );
}

/**
 * The requested property a warning of ExifTool names, if any. ExifTool's wordings (Writer.pl):
 * "Tag 'X' is not defined", "Sorry, X doesn't exist or isn't writable", "Sorry, G:X is not
 * writable", "Not an integer for G:X", "Error converting value for G:X (ValueConvInv)",
 * "Can't write G:X …" — the name appears bare or behind a group.
 */
export function namedProperty(message: string, names: string[]): string | undefined {
  if (/^Warning: \[minor\]/.test(message)) return undefined;
  for (const name of names) {
    const bare = name.includes(":") ? name.slice(name.indexOf(":") + 1) : name;
    const escaped = bare.replace(/[-]/g, "\\-");
    if (
      new RegExp(`(^|[\\s':,])([\\w-]+:)?${escaped}(?=$|[\\s',.(])`, "i").test(
        message.replace(/^(Warning|Error): /, " "),
      )
    )
      return name;
  }
  return undefined;
}

/**
 * The refusal of a write read from ExifTool's messages: CONVERSION_FAILED naming the property when one names a
 * requested property, UNSUPPORTED when ExifTool cannot write the format at all; undefined otherwise.
 */
export function writeRefusal(
  messages: string[],
  names: string[],
  what: string,
): { code: "CONVERSION_FAILED" | "UNSUPPORTED"; message: string } | undefined {
  for (const m of messages) {
    const name = namedProperty(m, names);
    if (name)
      return {
        code: "CONVERSION_FAILED",
        message: `metadata.${name} cannot be written to ${what}: ${m.replace(/^(Warning|Error): /, "")}`,
      };
  }
  const cannot = messages.find((m) => /Can't write \S+ files|not yet supported|Writing of \S+ files/i.test(m));
  if (cannot)
    return {
      code: "UNSUPPORTED",
      message: `ExifTool cannot write metadata into ${what}: ${cannot.replace(/^Error: /, "")}`,
    };
  return undefined;
}

/**
 * A file ExifTool reads by ranges (issue 49: "metadata reads what ExifTool needs with range reads from R2"): its size,
 * and a read of `length` bytes from `offset` (the store's ranged read; over an engine Worker's RPC, a call back to the
 * api Worker). The in-Worker ExifTool reads only what its parsers ask for (measured: 16 KiB of a 28.7 MB JPEG, 36 KiB
 * of a 3.6 MB MP4, 95 KB of a 1 MB PDF); the native engine does not take it (UNSUPPORTED: the framed wire is one
 * request and one answer, nothing can call back).
 */
export interface RangedBytes {
  length: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

/**
 * One native metadata request (the metadata kind's MetadataReadRequest, as container/engines/exiftool.ts reads it):
 * the file as bytes, or (issue 49: over the WebAssembly ExifTool's budget) streamed by the Worker and written to the
 * call's folder (LocalFile). `budget` is the WebAssembly engine's and is not read here (the call's own limits hold).
 */
export interface NativeMetadataReadRequest {
  input: Uint8Array | StreamedBytes | LocalFile | RangedBytes;
  filename: string;
  format?: string;
  budget?: unknown;
}

/** One native metadata/write request: a file (never by ranges) and the properties to write (checked by {@link checkTags}). */
export interface NativeMetadataWriteRequest extends NativeMetadataReadRequest {
  input: Uint8Array | StreamedBytes | LocalFile;
  tags: Record<string, string | number | string[]>;
}

/**
 * The native ExifTool's limits: a file sent as bytes passed through the Worker's memory (64 MiB, the native engine's
 * buffered limit), a streamed one is on the native engine's disk (5 GiB, the streamed limit).
 */
export const NATIVE_METADATA_BUDGET = { maxBytes: 64 * 1024 * 1024, maxStreamBytes: 5 * 1024 ** 3 } as const;
