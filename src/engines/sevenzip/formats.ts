/**
 * How 7-Zip reads each archive input (issue 34): the `-t` type forced on it, and the layers unwrapped
 * before its members are taken out. Pure; read by engine.ts.
 *
 * - A compressed tar (tar.gz, tgz, tar.Z, tar.lzma, tar.7z, …) is a compressor around one tar: the
 *   compressor's single member is unwrapped first, then the tar is read.
 * - rpm is a lead and headers around a compressed cpio payload: 7-Zip's Rpm handler answers the
 *   payload (e.g. `x.cpio.gz`), which is unwrapped down to the cpio, whose files are the members —
 *   what bsdtar extracts from the same package.
 * - deb is an ar archive; 7-Zip would open its data.tar.xz by itself ("main subfile"), so the type
 *   is forced to `ar` and the members are the package's ar members (debian-binary, control.tar.*,
 *   data.tar.*), as bsdtar and `ar x` give them; nested archives come out as files.
 * - a single-file compressor (gz, bz2, bz, xz, lzma, z) answers its one decompressed member.
 */
import type { ArchiveInput } from "../kinds/archive";

/** What engine.ts does with an input format before extraction. */
export interface ReadPlan {
  /** 7-Zip's `-t` type to force (`ar` for deb), or undefined to let 7-Zip detect it. */
  type?: string;
  /**
   * The archive format the input wraps (`tar`, `cpio`): 7-Zip types other than it are unwrapped
   * (their single member decompressed) until it is reached, at most {@link MAX_LAYERS} times.
   */
  unwrapTo?: "tar" | "cpio";
}

/** Most compression layers unwrapped before the inner archive (rpm: payload → cpio.gz → cpio). */
export const MAX_LAYERS = 2;

/** Input formats that are a compressor around a tar. */
const TAR_WRAPPED: readonly ArchiveInput[] = [
  "tar.gz",
  "tgz",
  "tar.bz2",
  "tbz2",
  "tbz",
  "tar.bz",
  "tar.xz",
  "txz",
  "tar.z",
  "tz",
  "taz",
  "tar.lzma",
  "tlz",
  "tar.7z",
];

/** The read plan of `format`. */
export function readPlan(format: ArchiveInput): ReadPlan {
  if (format === "deb") return { type: "ar" };
  if (format === "rpm") return { unwrapTo: "cpio" };
  if (TAR_WRAPPED.includes(format)) return { unwrapTo: "tar" };
  return {};
}

/** True when 7-Zip's `Type` of a listing is already the archive `wanted` (7-Zip spells types "tar", "Cpio"). */
export function isType(type: string, wanted: string): boolean {
  return type.toLowerCase() === wanted;
}
