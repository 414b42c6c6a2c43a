/**
 * From `exiftool -json` output to the `metadata` result: scalar values, and the file-system
 * properties of the sandbox replaced by what the user uploaded.
 */
import type { Metadata, MetadataValue } from "../kinds/metadata";

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
