/**
 * Where files go and what imported files are called (issue 35; storage-connectors.md §5.8–9).
 *
 * Export: `key`/`blob`/`file` names the object; with several files its printf placeholder `%d`
 * (also `%02d`…) is the file's 1-based number, as CloudConvert documents (`myfile-%d.pdf` →
 * `myfile-1.pdf`, `myfile-2.pdf`); several files and no placeholder: `-1`, `-2` … before the
 * extension, with a warning (never one object overwritten by the next). `*_prefix`: prefix + the
 * file's name; SFTP `path`: path + "/" + the file's name. Neither: the file's name.
 *
 * Import: `key` (one object) is named by `filename`, else the last segment of its path; a prefix
 * imports every object under it (directory placeholders left out), each named by the last segment
 * of its path, with `dir` = the path before that segment.
 */
import { extensionOf } from "../io/filenames";

/** Formats `template`'s first printf integer placeholder (`%d`, `%3d`, `%03d`) with `n`; null when there is none. */
export function printfNumber(template: string, n: number): string | null {
  const m = /%(0?)(\d*)d/.exec(template);
  if (!m) return null;
  const width = Number(m[2] || 0);
  const num = String(n).padStart(width, m[1] === "0" ? "0" : " ");
  return template.slice(0, m.index) + num + template.slice(m.index + m[0].length);
}

/** `name` with `-n` before its extension ("a.pdf", 2 → "a-2.pdf"). */
export function numbered(name: string, n: number): string {
  const slash = name.lastIndexOf("/");
  const base = name.slice(slash + 1);
  const ext = extensionOf(base);
  const stem = ext ? base.slice(0, base.length - ext.length - 1) : base;
  return `${name.slice(0, slash + 1)}${stem}-${n}${ext ? `.${ext}` : ""}`;
}

/**
 * The store path of each exported file, in input order, and the warnings to report.
 * `one`/`many` are the values of the connector's target parameters.
 */
export function exportPaths(
  filenames: string[],
  one: string | undefined,
  many: string | undefined,
  manyIsDirectory: boolean,
  oneName: string,
): { paths: string[]; warnings: string[] } {
  if (one) {
    if (filenames.length === 1) return { paths: [printfNumber(one, 1) ?? one], warnings: [] };
    const placed = filenames.map((_, i) => printfNumber(one, i + 1));
    if (placed.every((x) => x !== null)) return { paths: placed as string[], warnings: [] };
    return {
      paths: filenames.map((_, i) => numbered(one, i + 1)),
      warnings: [
        `${oneName} "${one}" has no %d placeholder for ${filenames.length} files; they were numbered ${numbered(one, 1)}, ${numbered(one, 2)}, ….`,
      ],
    };
  }
  if (many !== undefined && many !== "") {
    const dir = manyIsDirectory ? many.replace(/\/*$/, "/") : many;
    return { paths: filenames.map((f) => dir + f), warnings: [] };
  }
  return { paths: filenames, warnings: [] };
}

/** Last segment of a store path, and the path before it (`dir`, "" at the top). */
export function splitPath(path: string): { name: string; dir: string } {
  const i = path.lastIndexOf("/");
  return { name: path.slice(i + 1), dir: path.slice(0, i + 1) };
}
