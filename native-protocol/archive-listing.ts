/**
 * 7-Zip's technical listing (`7zz l -slt`) read into entries, and the checks made on it before a
 * byte is inflated: member paths that are absolute or climb out with ".." (zip-slip), entry
 * counts, the declared unpacked total against the archive's size, and the decoder dictionary each
 * member needs. Pure functions, tested on their own (test/unit/archive-listing.test.ts). Shared by the
 * WebAssembly 7-Zip (src/engines/sevenzip, which re-exports it as listing.ts) and the native archive engine
 * (container/engines/archive.ts, Debian's 7-Zip 26), so both refuse the same archives. Imports nothing.
 */

/** The limits a listing is checked against (the archive kind's ArchiveBudget, src/engines/kinds/archive.ts). */
export interface ListingBudget {
  maxTotalBytes: number;
  maxEntries: number;
  maxRatio: number;
  ratioFloorBytes: number;
  maxDictionaryBytes: number;
}

/** What an entry is, as far as the listing says. */
export type EntryType = "file" | "dir" | "symlink" | "hardlink" | "device";

/** One entry of an archive. */
export interface ArchiveEntry {
  /** The path as the archive stores it. */
  raw: string;
  /** The path made relative: "./" steps and repeated slashes removed; "" for the archive root. */
  path: string;
  type: EntryType;
  /** Declared unpacked size, bytes (0 when not given). */
  size: number;
  /** False when the listing gives no size at all (compress .Z, lzma-alone, some bzip2 streams). */
  sized?: boolean;
  /**
   * The file's identity when it has more than one link (cpio's hard links: "Links = 2" with one iNode;
   * the bytes travel with one of the names only), "dev:inode"; undefined otherwise.
   */
  inode?: string;
  encrypted: boolean;
  method: string;
  /** The target of a symbolic or hard link. */
  link?: string;
}

/** The archive as the listing describes it. */
export interface ArchiveListing {
  /** 7-Zip's name of the format found ("zip", "7z", "Rar5", "tar", "Iso", "gzip"…). */
  type: string;
  entries: ArchiveEntry[];
  /** Archive-level errors and warnings 7-Zip printed (truncation, unexpected end…). */
  errors: string[];
}

const UNITS: Record<string, number> = { "": 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** The largest decoder dictionary or window a 7-Zip method string names, bytes ("LZMA2:24" → 16 MiB, "v6:m5:128K" → 128 KiB, "PPMD:o6:mem24" → 16 MiB). */
export function dictionaryBytes(method: string): number {
  let max = 0;
  for (const token of method.split(/\s+/)) {
    const lzma = /^LZMA2?:(\d+)([kmg]?)$/i.exec(token) ?? /^(?:LZMA2?|Deflate64|BZip2):(\d+)([kmg])$/i.exec(token);
    if (lzma) max = Math.max(max, lzma[2] ? Number(lzma[1]) * UNITS[lzma[2].toLowerCase()]! : 2 ** Number(lzma[1]));
    const ppmd = /mem(\d+)([kmg]?)/i.exec(token);
    if (ppmd) max = Math.max(max, ppmd[2] ? Number(ppmd[1]) * UNITS[ppmd[2].toLowerCase()]! : 2 ** Number(ppmd[1]));
    for (const w of token.matchAll(/:(\d+)([KMG])(?=:|$)/g))
      max = Math.max(max, Number(w[1]) * UNITS[w[2]!.toLowerCase()]!);
  }
  return max;
}

/** The relative form of an archive path: backslashes kept (a legal name character on Unix), "./" and empty steps dropped. */
export function relativePath(raw: string): string {
  return raw
    .split("/")
    .filter((s) => s !== "" && s !== ".")
    .join("/");
}

/** Why `raw` may not be extracted (absolute, a drive letter, a ".." step), or null when it is safe. */
export function unsafePath(raw: string): string | null {
  if (raw.startsWith("/") || raw.startsWith("\\")) return "an absolute path";
  if (/^[A-Za-z]:/.test(raw)) return "a drive letter";
  if (raw.split(/[\\/]/).includes("..")) return 'a ".." step that leaves the archive\'s folder';
  return null;
}

/** The entry type from the listing's Folder, Attributes, Mode, link and device fields. */
function typeOf(f: Record<string, string>): EntryType {
  const mode = f["Mode"] || /(?:^|\s)([-dlbcps][rwxsStT-]{9})/.exec(f["Attributes"] ?? "")?.[1] || "";
  if (f["Folder"] === "+" || mode.startsWith("d") || /^D/.test(f["Attributes"] ?? "")) return "dir";
  if (mode.startsWith("l") || f["Symbolic Link"]) return "symlink";
  if (f["Hard Link"]) return "hardlink";
  if (/^[bcps]/.test(mode)) return "device";
  // device numbers count only when no mode says otherwise (old Sun tars write numbers on regular files)
  if (!mode && (Number(f["Device Major"] || 0) > 0 || Number(f["Device Minor"] || 0) > 0)) return "device";
  return "file";
}

/** Reads `7zz l -slt` output. */
export function parseListing(out: string): ArchiveListing {
  const lines = out.split("\n");
  const sep = lines.indexOf("----------");
  const head = sep === -1 ? lines : lines.slice(0, sep);
  const errors: string[] = [];
  let type = "";
  let inErrors = false;
  for (const l of head) {
    const m = /^Type = (.*)$/.exec(l);
    if (m) type = m[1]!;
    if (/^(ERRORS|WARNINGS):$/.test(l)) inErrors = true;
    else if (inErrors && l.trim() && !/ = /.test(l)) errors.push(l.trim());
    else inErrors = false;
    if (/^(Open )?(ERROR|WARNING): /.test(l)) errors.push(l.trim());
  }
  const entries: ArchiveEntry[] = [];
  if (sep !== -1) {
    let f: Record<string, string> = {};
    const flush = () => {
      if (f["Path"] !== undefined) {
        const t = typeOf(f);
        entries.push({
          raw: f["Path"],
          path: relativePath(f["Path"]),
          type: t,
          size: Number(f["Size"] || 0) || 0,
          sized: (f["Size"] ?? "") !== "",
          ...(Number(f["Links"] || 0) > 1 && f["iNode"]
            ? { inode: `${f["Dev Major"] ?? ""}:${f["Dev Minor"] ?? ""}:${f["iNode"]}` }
            : {}),
          encrypted: f["Encrypted"] === "+",
          method: f["Method"] ?? "",
          ...(t === "symlink" ? { link: f["Symbolic Link"] ?? "" } : t === "hardlink" ? { link: f["Hard Link"] } : {}),
        });
      }
      f = {};
    };
    for (const l of lines.slice(sep + 1)) {
      if (l === "") flush();
      const m = /^([A-Za-z][A-Za-z ]*?) = (.*)$/.exec(l);
      if (m) f[m[1]!] = m[2]!;
    }
    flush();
  }
  return { type, entries, errors };
}

/** A refusal found on the listing: its task error code and message. */
export interface ListingRefusal {
  code: "UNSAFE_ARCHIVE" | "OVER_BUDGET" | "INVALID_PASSWORD";
  message: string;
}

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1).replace(/\.0$/, "")} MiB`;

/**
 * Checks a listing against `budget` before extraction: unsafe paths (refused, naming the member),
 * entry count, the declared total (absolute and as a ratio to `archiveBytes`), decoder dictionaries,
 * and encrypted members when no password was given.
 */
export function checkListing(
  listing: ArchiveListing,
  archiveBytes: number,
  budget: ListingBudget,
  hasPassword: boolean,
): ListingRefusal | null {
  for (const e of listing.entries) {
    const why = unsafePath(e.raw);
    if (why)
      return {
        code: "UNSAFE_ARCHIVE",
        message: `The member "${e.raw}" has ${why}; this archive is refused (zip-slip).`,
      };
    if (e.type === "hardlink" && e.link && unsafePath(e.link))
      return {
        code: "UNSAFE_ARCHIVE",
        message: `The hard link "${e.raw}" points at "${e.link}", outside the archive; this archive is refused.`,
      };
  }
  if (listing.entries.length > budget.maxEntries) {
    return {
      code: "OVER_BUDGET",
      message: `The archive has ${listing.entries.length} entries; at most ${budget.maxEntries} are taken out.`,
    };
  }
  const total = listing.entries.reduce((n, e) => n + (e.type === "file" ? e.size : 0), 0);
  if (total > budget.maxTotalBytes) {
    return {
      code: "OVER_BUDGET",
      message: `The archive's files total ${mib(total)} unpacked; at most ${mib(budget.maxTotalBytes)} are taken out.`,
    };
  }
  if (total > budget.ratioFloorBytes && total > archiveBytes * budget.maxRatio) {
    return {
      code: "OVER_BUDGET",
      message: `The archive's files total ${mib(total)} from ${mib(archiveBytes)}, a ratio of ${Math.round(total / Math.max(1, archiveBytes))}:1; above ${budget.maxRatio}:1 is refused as a decompression bomb.`,
    };
  }
  for (const e of listing.entries) {
    const dict = dictionaryBytes(e.method);
    if (dict > budget.maxDictionaryBytes) {
      return {
        code: "OVER_BUDGET",
        message: `The member "${e.raw}" needs a ${mib(dict)} decoder dictionary (${e.method}); at most ${mib(budget.maxDictionaryBytes)} here.`,
      };
    }
  }
  if (!hasPassword) {
    const locked = listing.entries.find((e) => e.encrypted);
    if (locked)
      return {
        code: "INVALID_PASSWORD",
        message: `The member "${locked.raw}" is encrypted; give the archive's password in the task's \`password\` parameter.`,
      };
  }
  return null;
}
