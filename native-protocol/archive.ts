/**
 * The archive formats the native engine reads and writes (issue 34), for those 7-Zip in WebAssembly does
 * not decode, as the Worker's archive kind (src/engines/kinds/archive.ts) sends them and the native
 * engine's archive row (container/engines/archive.ts) runs them.
 *
 * - single-file compressors, which answer their one member: lz (lzip), lzo (lzop), rz (rzip);
 * - tars under lzop or lzip: tar.lzo, tzo, tar.lz (the compressor, then the tar read by Debian's 7-Zip; a
 *   name ending .tar.lz is taken as tar.lz, src/operations/io/filenames.ts);
 * - old archivers: alz (ALZip, unalz), arc (SEA ARC, nomarch).
 *
 * ACE is not here: Debian's only reader, unace 1.2, reads ACE 1.x archives alone, and the one real ACE
 * file at hand (patool's test data, written by WinACE 2) lists as empty in it. RAR output stays refused:
 * no freely licensed RAR encoder exists.
 */
import type { DeferredBytes, LocalFile, StreamedBytes } from "./frame.ts";

export const NATIVE_ARCHIVE_INPUTS = ["lz", "lzo", "rz", "tar.lzo", "tzo", "tar.lz", "alz", "arc"] as const;

/**
 * Archives 7-Zip in WebAssembly reads too, which the native engine extracts when they are over its budget (issue 49:
 * a 1.5 GB zip): the Worker streams the archive to the native engine's folder, Debian's 7-Zip extracts it there, and
 * the members stream back one by one. "files" only: a repack of such an archive stays the WebAssembly engine's.
 */
export const NATIVE_ARCHIVE_LARGE_INPUTS = ["zip", "7z", "tar"] as const;
export type NativeArchiveInput = (typeof NATIVE_ARCHIVE_INPUTS)[number];

/**
 * Disk images CloudConvert repacks as tar.lzo (its catalogue's only tar.lzo outputs): read by Debian's
 * 7-Zip, the tar compressed by lzop.
 */
export const TAR_LZO_INPUTS = ["dmg", "img", "iso"] as const;

/** Archive formats the native engine writes: 7-Zip's (zip, 7z, tar, tar.gz, tar.bz2) and tar.lzo (lzop). */
export const NATIVE_ARCHIVE_OUTPUTS = ["zip", "7z", "tar", "tar.gz", "tgz", "tar.bz2", "tbz2", "tar.lzo"] as const;
export type NativeArchiveOutput = (typeof NATIVE_ARCHIVE_OUTPUTS)[number];

/**
 * The native engine's limits on one archive call whose archive came as bytes. The members travel back to the api
 * Worker in its memory (128 MB isolate), so the unpacked total is the WebAssembly engine's (64 MiB), the archive
 * itself may be as large as any native input (64 MiB); 10,000 entries; above 16 MiB unpacked, a ratio over 200:1 is a
 * decompression bomb; decoder dictionaries up to 64 MiB (Debian's 7-Zip runs outside the isolate).
 */
export const NATIVE_ARCHIVE_BUDGET = {
  maxBytes: 64 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
  maxEntries: 10_000,
  maxRatio: 200,
  ratioFloorBytes: 16 * 1024 * 1024,
  maxDictionaryBytes: 64 * 1024 * 1024,
} as const;

/**
 * The limits of a call whose archive came streamed (issue 49): the members go back as files streamed from disk,
 * so the archive and its unpacked total may be as large as a streamed input (5 GiB, the Worker's MAX_IMPORT_BYTES
 * default), bounded by the native engine's disk budget; the entry count, bomb ratio and dictionaries as above.
 */
export const NATIVE_ARCHIVE_STREAM_BUDGET = {
  ...NATIVE_ARCHIVE_BUDGET,
  maxBytes: 5 * 1024 * 1024 * 1024,
  maxTotalBytes: 5 * 1024 * 1024 * 1024,
} as const;

/** One native extraction request (the archive kind's ArchiveExtractRequest, as container/engines/archive.ts reads it). */
export interface NativeArchiveExtractRequest {
  /** The archive: bytes, or (issue 49) streamed by the Worker and written to the call's folder (LocalFile). */
  input: { data: Uint8Array | StreamedBytes | LocalFile; filename: string };
  format: NativeArchiveInput | (typeof TAR_LZO_INPUTS)[number] | (typeof NATIVE_ARCHIVE_LARGE_INPUTS)[number];
  password?: string;
  repack?: NativeArchiveOutput;
  level?: number;
}

/**
 * One native create request (the archive kind's ArchiveCreateRequest, as container/engines/archive.ts reads it). A
 * member is bytes, or (issue 49: files over the WebAssembly 7-Zip's budget) a stream the Worker opens when the framed
 * call reaches it, written to the call's folder (LocalFile) before the method runs.
 */
export interface NativeArchiveCreateRequest {
  files: { name: string; data: Uint8Array | DeferredBytes | LocalFile }[];
  format: NativeArchiveOutput;
  password?: string;
  level?: number;
}
