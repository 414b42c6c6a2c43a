/**
 * The archive kind (kinds/index.ts): archives written and read. Implemented by 7-Zip in WebAssembly
 * (engines/sevenzip, engine Worker wasm/7z, row "7z"). One engine covers every format the operations
 * offer today: it writes zip, 7z, tar, tar.gz and tar.bz2 and reads those plus RAR 4/5, ISO 9660,
 * tar.xz and the formats issue 34 added (ARCHIVE_INPUTS), with ZipCrypto, WinZip AES, 7z AES and RAR
 * passwords (issue 15). The format lists below are
 * the kind's vocabulary (requests are typed by them); the row claims them in registry.ts.
 */
import type { EngineResult } from "../errors";
import type { DeferredBytes, LocalFile, StreamedBytes } from "../../../native-protocol/frame";
import {
  NATIVE_ARCHIVE_INPUTS,
  NATIVE_ARCHIVE_LARGE_INPUTS,
  NATIVE_ARCHIVE_OUTPUTS,
  TAR_LZO_INPUTS,
  type NativeArchiveInput,
  type NativeArchiveOutput,
} from "../../../native-protocol/archive";

/** Formats an archive engine writes (`archive` output_format, and the target of a repack). tgz/tbz2 are tar.gz/tar.bz2 by another name. */
export const ARCHIVE_OUTPUTS = ["zip", "7z", "tar", "tar.gz", "tgz", "tar.bz2", "tbz2"] as const;
/**
 * Formats an archive engine reads (convert's input_format for extraction). Issue 34 added the rest of
 * CloudConvert's archive list that 7-Zip reads: packages (deb: its ar members; rpm: the files of its
 * cpio payload), old archivers (arj, cab, cpio, lha/lzh), disk images (dmg, img), jar (a zip), tars
 * under every compressor 7-Zip decodes (tar.Z/tz, tar.lzma/tlz, tar.7z, tar.bz), and the single-file
 * compressors (gz, bz2, bz, xz, lzma, z), which answer their one member.
 */
export const ARCHIVE_INPUTS = [
  "zip",
  "7z",
  "rar",
  "tar",
  "tar.gz",
  "tgz",
  "tar.bz2",
  "tbz2",
  "tbz",
  "tar.xz",
  "txz",
  "iso",
  "jar",
  "deb",
  "rpm",
  "arj",
  "cab",
  "cpio",
  "lha",
  "lzh",
  "dmg",
  "img",
  "tar.z",
  "tz",
  "taz",
  "tar.lzma",
  "tlz",
  "tar.7z",
  "tar.bz",
  "gz",
  "bz2",
  "bz",
  "xz",
  "lzma",
  "z",
] as const;
/** An archive format written: 7-Zip's in WebAssembly, or tar.lzo (the native archive engine, native-protocol/archive.ts). */
export type ArchiveOutput = (typeof ARCHIVE_OUTPUTS)[number] | NativeArchiveOutput;
/** An archive format read: 7-Zip's in WebAssembly, or one the native archive engine reads (lz, lzo, rz, tar.lzo, alz, arc…). */
export type ArchiveInput = (typeof ARCHIVE_INPUTS)[number] | NativeArchiveInput;
export { NATIVE_ARCHIVE_INPUTS, NATIVE_ARCHIVE_OUTPUTS, TAR_LZO_INPUTS };

/**
 * One file put into an archive: its member name (a plain name, or a relative path with "/") and bytes; for the
 * native engine (issue 49) a stream opened when the framed call reaches it (DeferredBytes: the file read from R2
 * into the native engine's folder, one member after another), which the WebAssembly engine refuses (UNSUPPORTED).
 */
export interface ArchiveMemberIn {
  name: string;
  data: Uint8Array | DeferredBytes;
}

/** One regular file taken out of an archive: its relative path inside the archive ("/"-separated) and bytes. */
export interface ArchiveMemberOut {
  path: string;
  /** The member's bytes; from the native engine, when the archive was streamed to it (issue 49), a stream. */
  data: Uint8Array | StreamedBytes;
}

/** An entry of an archive that was not extracted, and why (a symbolic link, a device, a FIFO…). */
export interface SkippedEntry {
  path: string;
  reason: string;
}

/** Writes one archive of `files` (names must be unique; the operation makes them so). */
export interface ArchiveCreateRequest {
  files: ArchiveMemberIn[];
  format: ArchiveOutput;
  /** Encrypts zip (AES-256) and 7z (AES-256, names too) archives; refused for tar formats. */
  password?: string;
  /** Compression level 0 (store) … 9, 7-Zip's -mx; default 5. */
  level?: number;
}

/** Reads one archive: every regular file, or a new archive of them in `repack` format (paths kept). */
export interface ArchiveExtractRequest {
  /**
   * The archive: bytes; for the native engine (issue 49) a stream too, which reaches it as a file in its folder
   * (LocalFile, the shape the native engine reads: native-protocol/archive.ts) and which the WebAssembly engine
   * refuses (UNSUPPORTED).
   */
  input: { data: Uint8Array | StreamedBytes | LocalFile; filename: string };
  format: ArchiveInput;
  password?: string;
  /** When set, the members are written into a new archive of this format instead of answered one by one. */
  repack?: ArchiveOutput;
  level?: number;
}

/** What an archive call answers beside its payload. */
interface Measured {
  /** WebAssembly memory at the end of the call, bytes. */
  wasmMemoryBytes?: number;
  /** Milliseconds the engine spent. */
  ms?: number;
}

/**
 * The archive engine. Failures are data (EngineResult): OPEN_FAILED (not an archive of that format,
 * truncated, CRC error), INVALID_PASSWORD (missing or wrong), UNSAFE_ARCHIVE (a member path that is
 * absolute or climbs with ".."), OVER_BUDGET (numbers in the message), UNSUPPORTED.
 */
export interface ArchiveEngine {
  /** The archive's bytes; from the native engine (issue 49) a stream when over the answer threshold. */
  create(req: ArchiveCreateRequest): Promise<EngineResult<{ data: Uint8Array | StreamedBytes } & Measured>>;
  extract(
    req: ArchiveExtractRequest,
  ): Promise<
    EngineResult<
      { members: ArchiveMemberOut[]; skipped: SkippedEntry[]; archive?: Uint8Array | StreamedBytes } & Measured
    >
  >;
  /** Version and current WebAssembly memory, bytes. */
  info(): Promise<{ engineVersion: string; wasmMemoryBytes: number }>;
}

/**
 * Limits of one call, checked on the archive's own listing before anything is inflated and
 * enforced again on the bytes actually written (a listing can lie).
 */
export interface ArchiveBudget {
  /** Largest archive to read, or total of the files to archive, bytes. */
  maxBytes: number;
  /** Largest total of the files taken out (or put in), bytes. */
  maxTotalBytes: number;
  /** Largest number of entries. */
  maxEntries: number;
  /** Largest ratio of the declared unpacked total to the archive's size, applied above `ratioFloorBytes`. */
  maxRatio: number;
  ratioFloorBytes: number;
  /** Largest decoder dictionary/window a member may need (LZMA, LZMA2, PPMd, RAR), bytes. */
  maxDictionaryBytes: number;
}

/**
 * The (input, output) pairs the native archive engine converts (issue 34): each format of NATIVE_ARCHIVE_INPUTS
 * to "files" and to 7-Zip's archive outputs, and the disk images (TAR_LZO_INPUTS) to tar.lzo.
 */
export const NATIVE_ARCHIVE_CONVERSIONS: readonly { input: string; output: string }[] = [
  ...NATIVE_ARCHIVE_INPUTS.flatMap((input) => [...ARCHIVE_OUTPUTS, "files"].map((output) => ({ input, output }))),
  ...TAR_LZO_INPUTS.map((input) => ({ input, output: "tar.lzo" })),
  // issue 49: zip, 7z and tar over the WebAssembly engine's budget, streamed to the native 7-Zip, members streamed back
  ...NATIVE_ARCHIVE_LARGE_INPUTS.map((input) => ({ input, output: "files" })),
];

/**
 * The pairs the native archive engine writes by `archive` (issue 49): any files → every format the WebAssembly 7-Zip
 * writes (ARCHIVE_OUTPUTS), which Debian's 7-Zip 26 writes too (zip, 7z, tar; gzip and bzip2 around the tar), for
 * files over the WebAssembly engine's budget.
 */
export const NATIVE_ARCHIVE_CREATES: readonly { input: string; output: string }[] = ARCHIVE_OUTPUTS.map((output) => ({
  input: "*",
  output,
}));
