/**
 * The archive kind (engines/kinds.ts): archives written and read by 7-Zip in WebAssembly (engine
 * Worker wasm/7z, row "7z"). One engine covers every format the operations offer: it writes zip,
 * 7z, tar, tar.gz and tar.bz2 and reads those plus RAR 4/5, ISO 9660 and tar.xz, with ZipCrypto,
 * WinZip AES, 7z AES and RAR passwords (issue 15).
 */
import type { EngineResult } from "../kinds";

/** Formats the engine writes (`archive` output_format, and the target of a repack). tgz/tbz2 are tar.gz/tar.bz2 by another name. */
export const ARCHIVE_OUTPUTS = ["zip", "7z", "tar", "tar.gz", "tgz", "tar.bz2", "tbz2"] as const;
/** Formats the engine reads (convert's input_format for extraction). */
export const ARCHIVE_INPUTS = ["zip", "7z", "rar", "tar", "tar.gz", "tgz", "tar.bz2", "tbz2", "tbz", "tar.xz", "txz", "iso"] as const;
export type ArchiveOutput = (typeof ARCHIVE_OUTPUTS)[number];
export type ArchiveInput = (typeof ARCHIVE_INPUTS)[number];

/** One file put into an archive: its member name (a plain name, or a relative path with "/") and bytes. */
export interface ArchiveMemberIn {
  name: string;
  data: Uint8Array;
}

/** One regular file taken out of an archive: its relative path inside the archive ("/"-separated) and bytes. */
export interface ArchiveMemberOut {
  path: string;
  data: Uint8Array;
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
  input: { data: Uint8Array; filename: string };
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
  create(req: ArchiveCreateRequest): Promise<EngineResult<{ data: Uint8Array } & Measured>>;
  extract(req: ArchiveExtractRequest): Promise<EngineResult<{ members: ArchiveMemberOut[]; skipped: SkippedEntry[]; archive?: Uint8Array } & Measured>>;
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
 * The engine Worker's budget (its isolate has 128 MB for everything). The archive and every file
 * taken out live in MEMFS as JavaScript arrays (handed over without copies), beside 7-Zip's own
 * WebAssembly memory: measured 17 MB (its initial heap) for every read and for zip/tar/gzip/bzip2
 * writes, 49 MB for a 7z write with the engine's 4 MiB LZMA2 dictionary (`npm run bench -- archive`,
 * 4.5 MB of mixed files). So
 * 32 MiB in and 64 MiB out, 10,000 entries, a 200:1 ratio above 16 MiB unpacked, and decoder
 * dictionaries up to 32 MiB.
 */
export const DEFAULT_ARCHIVE_BUDGET: ArchiveBudget = {
  maxBytes: 32 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
  maxEntries: 10_000,
  maxRatio: 200,
  ratioFloorBytes: 16 * 1024 * 1024,
  maxDictionaryBytes: 32 * 1024 * 1024,
};
