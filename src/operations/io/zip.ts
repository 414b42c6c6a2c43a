/**
 * One ZIP of several files, for `export/url` with `archive_multiple_files: true` (contract §6 export/url;
 * issue 15). Written with fflate (a dependency, MIT) in one synchronous pass: formats that are already
 * compressed (images, PDFs, archives, media) are stored, the rest deflated at level 6. Names are the
 * files' own base names; a repeated name gets "-2", "-3"… before its extension, so every member keeps
 * its bytes and no member overwrites another when extracted.
 *
 * Budget: the inputs and the archive are both in memory at once, so the inputs may total at most
 * MAX_ZIP_INPUT_BYTES (48 MiB: ~2× that in a 128 MB isolate); more is OVER_BUDGET naming both sizes.
 */
import { zipSync, type Zippable } from "fflate";
import { TaskError } from "../../engines/errors";
import { extensionOf, safeFilename } from "./filenames";

/** Largest total size of the files of one archive export, in bytes. */
export const MAX_ZIP_INPUT_BYTES = 48 * 1024 * 1024;

/** Extensions whose data is already compressed: stored, not deflated again. */
const STORED = new Set([
  "jpg",
  "jpeg",
  "png",
  "gif",
  "webp",
  "avif",
  "heic",
  "heif",
  "pdf",
  "zip",
  "gz",
  "tar.gz",
  "tgz",
  "bz2",
  "tar.bz2",
  "xz",
  "7z",
  "rar",
  "mp3",
  "mp4",
  "m4a",
  "mov",
  "webm",
  "mkv",
  "ogg",
  "docx",
  "xlsx",
  "pptx",
  "odt",
  "ods",
  "odp",
  "epub",
]);

/** Unique member names in input order: "a.pdf", "a-2.pdf", "a-3.pdf"… */
export function uniqueNames(names: string[]): string[] {
  const taken = new Set<string>();
  return names.map((raw) => {
    const name = safeFilename(raw);
    const ext = extensionOf(name);
    const base = ext ? name.slice(0, name.length - ext.length - 1) : name;
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = ext ? `${base}-${n}.${ext}` : `${base}-${n}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

/** @throws TaskError OVER_BUDGET when files totalling `total` bytes are more than one archive takes (checked before reading them) */
export function checkZipBudget(total: number): void {
  if (total > MAX_ZIP_INPUT_BYTES) {
    throw new TaskError(
      "OVER_BUDGET",
      `archive_multiple_files: the files total ${total} bytes; one archive takes at most ${MAX_ZIP_INPUT_BYTES} bytes. Export them one by one.`,
    );
  }
}

/**
 * The ZIP of `files`, members named by {@link uniqueNames}.
 * @throws TaskError OVER_BUDGET when the files total more than MAX_ZIP_INPUT_BYTES
 */
export function zipFiles(files: { filename: string; data: Uint8Array }[]): Uint8Array {
  checkZipBudget(files.reduce((n, f) => n + f.data.byteLength, 0));
  const names = uniqueNames(files.map((f) => f.filename));
  const entries: Zippable = {};
  files.forEach((f, i) => {
    entries[names[i]] = [f.data, { level: STORED.has(extensionOf(names[i])) ? 0 : 6 }];
  });
  return zipSync(entries);
}
