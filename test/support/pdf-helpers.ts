/**
 * Shared fixtures of the pdf-* unit tests: corpus files as InputFile, a minimal OperationContext,
 * and native-tool oracles (qpdf, pdfinfo, pdftotext, pdftoppm from Debian; installed by .ci/run).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createReadStream, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { Readable } from "node:stream";
import { expect } from "vitest";
import { TaskError, type TaskErrorCode } from "../../src/engines/errors";
import type { InputFile, OutputFile } from "../../src/operations/types";

export { CORPUS } from "./corpus";
import { CORPUS } from "./corpus";
export const FACTS: Record<string, Record<string, unknown>> = JSON.parse(
  readFileSync(join(CORPUS, "facts.json"), "utf8"),
);

/** A corpus file (path relative to the corpus) as an operation input. */
export function corpusInput(rel: string, filename = basename(rel)): InputFile {
  const path = join(CORPUS, rel);
  return {
    filename,
    size: statSync(path).size,
    fromTask: "import",
    key: `corpus/${rel}`,
    bytes: async () => new Uint8Array(readFileSync(path)),
  };
}

/**
 * A file on disk as a stored input an operation can only stream (issue 49): asking for its bytes throws, so a test
 * that passes with it shows the file was streamed, never read whole.
 */
export function streamOnlyInput(path: string, filename = basename(path)): InputFile {
  return {
    filename,
    size: statSync(path).size,
    fromTask: "import",
    key: `test/${filename}`,
    bytes: async () => {
      throw new Error(`${filename} was read whole; it should have been streamed`);
    },
    stream: async () => Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>,
  };
}

/** In-memory bytes as an operation input. */
export function bytesInput(filename: string, data: Uint8Array): InputFile {
  return { filename, size: data.byteLength, fromTask: "previous", key: `memory/${filename}`, bytes: async () => data };
}

export { testContext } from "./context";

const dir = mkdtempSync(join(tmpdir(), "pdf-test-"));
let n = 0;
/** The bytes of an output (PDF operations always return bytes, never streams). */
export function dataOf(file: OutputFile | Uint8Array): Uint8Array {
  if (file instanceof Uint8Array) return file;
  if (!(file.data instanceof Uint8Array)) throw new Error(`${file.filename}: expected bytes, got a stream`);
  return file.data;
}

/** Writes output bytes to a temp file for the native tools; returns the path. */
export function tmpFile(file: OutputFile | Uint8Array, ext = "pdf"): string {
  const data = dataOf(file);
  const path = join(dir, `${++n}.${ext}`);
  writeFileSync(path, data);
  return path;
}

/** `qpdf --check` must exit 0 (no errors; warnings exit 3 and fail too) on the output. */
export function expectQpdfCheck(file: OutputFile | Uint8Array, password?: string): void {
  const args = ["--check", ...(password !== undefined ? [`--password=${password}`] : []), tmpFile(file)];
  const r = spawnSync("qpdf", args, { encoding: "utf8" });
  expect(r.status, `qpdf --check: ${r.stdout}${r.stderr}`).toBe(0);
}

/** pdfinfo fields of a PDF ("Pages", "Title", "Encrypted", …). */
export function pdfinfo(
  file: OutputFile | Uint8Array | string,
  password?: string,
  extra: string[] = [],
): Record<string, string> {
  const path = typeof file === "string" ? file : tmpFile(file);
  const out = execFileSync("pdfinfo", [...extra, ...(password !== undefined ? ["-upw", password] : []), path], {
    encoding: "utf8",
  });
  return Object.fromEntries(
    out
      .split("\n")
      .filter((l: string) => l.includes(":"))
      .map((l: string) => [l.slice(0, l.indexOf(":")).trim(), l.slice(l.indexOf(":") + 1).trim()]),
  );
}

/** /Rotate of every page per `pdfinfo -f 1 -l N` ("Page    3 rot:   90"). */
export function pageRotations(file: OutputFile | Uint8Array): number[] {
  const path = tmpFile(file);
  const pages = Number(pdfinfo(path).Pages);
  const out = execFileSync("pdfinfo", ["-f", "1", "-l", String(pages), path], { encoding: "utf8" });
  return [...out.matchAll(/Page\s+\d+ rot:\s+(\d+)/g)].map((m) => Number(m[1]));
}

/** Text of a PDF per pdftotext. */
export function pdftotext(file: OutputFile | Uint8Array, password?: string): string {
  return execFileSync("pdftotext", [...(password !== undefined ? ["-upw", password] : []), tmpFile(file), "-"], {
    encoding: "utf8",
  });
}

/**
 * Text of page `page` of a PDF (output bytes or a path) per `pdftotext -f N -l N -layout`, with
 * whitespace collapsed: the page oracle of split, extract, merge and rotate (issue 11).
 */
export function pageText(file: OutputFile | Uint8Array | string, page: number): string {
  const path = typeof file === "string" ? file : tmpFile(file);
  return execFileSync("pdftotext", ["-f", String(page), "-l", String(page), "-layout", path, "-"], { encoding: "utf8" })
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The OCR page oracle: `lines[i]` are the text lines native tesseract reads on page i+1 (facts.json
 * `ocr_measured_tesseract`). The PDF has one page per entry; each page's text (pdftotext -f N -l N)
 * holds every line of its own page and none of the lines only other pages have, so words put on the
 * wrong page, or every page's words on each, fail. `misread` lists, per page, lines the engine under
 * test is known to read differently (with the reason at the call): they are not required on their
 * page, and are still refused on every other page.
 */
export function expectLinesOnTheirPages(
  file: OutputFile | Uint8Array | string,
  lines: string[][],
  misread: Record<number, string[]> = {},
): void {
  const path = typeof file === "string" ? file : tmpFile(file);
  expect(Number(pdfinfo(path).Pages)).toBe(lines.length);
  const norm = (l: string) => l.replace(/\s+/g, " ").trim();
  for (const [i, own] of lines.entries()) {
    const text = pageText(path, i + 1);
    const ownLines = own.map(norm);
    for (const l of ownLines) if (!(misread[i + 1] ?? []).includes(l)) expect(text, `page ${i + 1}`).toContain(l);
    const elsewhere = lines.flatMap((o, k) => (k === i ? [] : o.map(norm))).filter((l) => !ownLines.includes(l));
    for (const l of elsewhere) expect(text, `page ${i + 1} has another page's "${l}"`).not.toContain(l);
  }
}

const sourceTexts = new Map<string, string[]>();
/** Texts (as {@link pageText}) of every page of a corpus PDF, index 0 = page 1; cached. */
export function corpusPageTexts(rel: string): string[] {
  let texts = sourceTexts.get(rel);
  if (!texts) {
    const path = join(CORPUS, rel);
    texts = Array.from({ length: Number(pdfinfo(path).Pages) }, (_, i) => pageText(path, i + 1));
    sourceTexts.set(rel, texts);
  }
  return texts;
}

/** A source page of an output page: [corpus file, 1-based page]. */
export type SourcePage = readonly [rel: string, page: number];

/**
 * Asserts that the PDF `file` has exactly the pages `from`, in that order: page N of the output has
 * the text of source page from[N-1]. So that a wrong page cannot pass, every source page named must
 * carry text that no other page of the named sources has (checked here, not assumed).
 */
export function expectPagesFrom(file: OutputFile | Uint8Array, from: readonly SourcePage[]): void {
  const path = tmpFile(file);
  expect(Number(pdfinfo(path).Pages), "page count").toBe(from.length);
  const all = [...new Set(from.map(([rel]) => rel))].flatMap((rel) =>
    corpusPageTexts(rel).map((text, i) => ({ rel, page: i + 1, text })),
  );
  from.forEach(([rel, page], i) => {
    const want = corpusPageTexts(rel)[page - 1];
    expect(want, `${rel} page ${page} has no text to compare`).not.toBe("");
    const twins = all.filter((s) => s.text === want && !(s.rel === rel && s.page === page));
    expect(twins, `${rel} page ${page} has the same text as other pages`).toEqual([]);
    const got = pageText(path, i + 1);
    const actual = all.find((s) => s.text === got);
    expect(
      got,
      `output page ${i + 1} should be ${basename(rel)} page ${page}, but is ${actual ? `${basename(actual.rel)} page ${actual.page}` : "none of the sources' pages"}`,
    ).toBe(want);
  });
}

/** Width and height in the IHDR chunk of PNG bytes (checks the signature and the chunk type). */
export function pngSize(data: Uint8Array): { width: number; height: number } {
  expect([...data.subarray(0, 8)], "PNG signature").toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(new TextDecoder().decode(data.subarray(12, 16)), "first chunk").toBe("IHDR");
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Runs `fn` and asserts it rejects with a TaskError of `code`; returns the error. */
export async function expectTaskError(fn: () => Promise<unknown>, code: TaskErrorCode): Promise<TaskError> {
  try {
    await fn();
  } catch (err) {
    expect(err, String(err)).toBeInstanceOf(TaskError);
    expect((err as TaskError).code, (err as Error).message).toBe(code);
    return err as TaskError;
  }
  throw new Error(`expected TaskError ${code}, but it succeeded`);
}
