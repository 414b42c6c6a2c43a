/**
 * Debian's tesseract (5.3.0, tessdata_fast models from the tesseract-ocr-<lang> packages): the
 * OCR rows' native engine (engine table row "tesseract-native", kind ocr, issue 17) for the
 * languages the WebAssembly build lacks and pages over its budget. The request and answer are the
 * Worker's (native-protocol/ocr.ts OcrRequest → OcrPage).
 *
 * One `tesseract in.<ext> out --psm N [--dpi D] -l a+b tsv` run with OMP_THREAD_LIMIT=1 (one
 * thread: with OpenMP's two threads tesseract is slower on a shared 2-core host,
 * shared/reference/wasm-engines.md). With `autoRotate` (default) the page segmentation mode is 1
 * (automatic with orientation and script detection, osd.traineddata): tesseract recognises turned
 * text upright and reports boxes in the given image's coordinates; the turn itself is read back from
 * the words' reading direction ({@link rotationOfWords}). TSV gives every word's box, confidence and
 * block/paragraph/line numbers.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { rotationOfWords, type OcrRequest, type OcrWord } from "../../native-protocol/ocr.ts";
import { NativeError, check, localName, put, run, tool, why, type NativeCall, type NativeEngineDef } from "./common.ts";

let installed: Promise<Set<string>> | undefined;

/** The languages `tesseract --list-langs` names on this host (asked once per process). */
export function installedLanguages(bin: string): Promise<Set<string>> {
  return (installed ??= new Promise((ok) =>
    execFile(bin, ["--list-langs"], { timeout: 30_000 }, (_e, out, err) =>
      ok(
        new Set(
          `${out}\n${err}`
            .split("\n")
            .map((l) => l.trim())
            .filter((l) => /^[a-z]{3}(_[a-z]+)?$/.test(l)),
        ),
      ),
    ),
  ));
}

/** Debian's package of a tesseract language ("chi_tra" → "tesseract-ocr-chi-tra"). */
export const packageOf = (lang: string) => `tesseract-ocr-${lang.replace(/_/g, "-")}`;

/**
 * The words, page size and text of tesseract's TSV (columns level, page_num, block_num, par_num,
 * line_num, word_num, left, top, width, height, conf, text). `line` counts text lines in reading
 * order; `text` has a line per text line and a blank line between paragraphs, as tesseract's own
 * text output.
 */
export function parseTsv(tsv: string): { width: number; height: number; words: OcrWord[]; text: string } {
  let width = 0;
  let height = 0;
  const words: OcrWord[] = [];
  const lines: { key: string; par: string; words: string[] }[] = [];
  for (const row of tsv.split("\n").slice(1)) {
    const c = row.split("\t");
    if (c.length < 12) continue;
    const [level, , block, par, line] = c.map(Number);
    const [left, top, w, h, conf] = c.slice(6, 11).map(Number);
    if (level === 1) {
      width = w;
      height = h;
    }
    const text = c.slice(11).join("\t");
    if (level !== 5 || !text.trim()) continue;
    const key = `${block}.${par}.${line}`;
    if (lines.at(-1)?.key !== key) lines.push({ key, par: `${block}.${par}`, words: [] });
    lines.at(-1)!.words.push(text);
    words.push({
      text,
      x0: left,
      y0: top,
      x1: left + w,
      y1: top + h,
      confidence: Math.max(0, Math.min(100, Math.round(conf * 100) / 100)),
      line: lines.length - 1,
    });
  }
  let text = "";
  lines.forEach((l, i) => {
    if (i > 0 && lines[i - 1].par !== l.par) text += "\n";
    text += `${l.words.join(" ")}\n`;
  });
  return { width, height, words, text };
}

async function recognize(req: OcrRequest, call: NativeCall) {
  const t0 = Date.now();
  const bin = tool(call, "tesseract").path;
  const langs = [
    ...new Set(
      (req.languages?.length ? req.languages : ["eng"])
        .flatMap((l) => String(l).split("+"))
        .map((l) => l.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  const bad = langs.filter((l) => !/^[a-z]{3}(_[a-z]+)?$/.test(l));
  if (bad.length)
    throw new NativeError(
      "UNSUPPORTED",
      `${bad.join(", ")} is not a tesseract language code (three letters, e.g. eng, deu, chi_tra).`,
    );
  const have = await installedLanguages(bin);
  const missing = langs.filter((l) => !have.has(l));
  if (missing.length) {
    throw new NativeError(
      "UNSUPPORTED",
      `The native OCR engine has no ${missing.join(", ")} (apt-get install ${missing.map(packageOf).join(" ")}); it has ${[
        ...have,
      ]
        .filter((l) => l !== "osd")
        .sort()
        .join(", ")}.`,
    );
  }
  const autoRotate = req.autoRotate !== false && have.has("osd");
  const input = await put(call, localName("in", req.filename), req.image);
  const dpi = req.dpi && req.dpi > 0 ? ["--dpi", String(Math.round(req.dpi))] : [];
  const r = await run(
    call,
    bin,
    [input, join(call.work, "out"), "--psm", autoRotate ? "1" : "3", ...dpi, "-l", langs.join("+"), "tsv"],
    { env: { OMP_THREAD_LIMIT: "1" } },
  );
  check(r, "tesseract", (text) =>
    /pixRead|Unsupported image|Image file .* cannot be read|Error during processing/i.test(text)
      ? new NativeError(
          "OPEN_FAILED",
          `${req.filename} could not be read as an image: ${why(text, /Error|error|cannot/)}`,
        )
      : new NativeError("CONVERSION_FAILED", `tesseract failed on ${req.filename}: ${why(text, /Error|error/)}`),
  );
  let tsv: string;
  try {
    tsv = await readFile(join(call.work, "out.tsv"), "utf8");
  } catch {
    throw new NativeError(
      "OPEN_FAILED",
      `${req.filename} could not be read as an image: ${why(r.stderr) || "tesseract wrote no result"}`,
    );
  }
  const page = parseTsv(tsv);
  if (!page.width || !page.height)
    throw new NativeError(
      "OPEN_FAILED",
      `${req.filename} could not be read as an image: ${why(r.stderr) || "no page in tesseract's result"}`,
    );
  return { ...page, rotation: autoRotate ? rotationOfWords(page.words) : 0, ms: Date.now() - t0 };
}

/** The native OCR engine (kind ocr: recognize). */
export const tesseractNative = { kind: "ocr", methods: { recognize } } satisfies NativeEngineDef<"ocr">;

export default tesseractNative;
