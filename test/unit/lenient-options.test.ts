/**
 * Issue 31, "Options: accept what CloudConvert accepts": a known option with an invalid value is a
 * 422 naming the task and the field; an unknown option, or one that does not apply to the formats or
 * the other options, is accepted, left out of the parameters and carried to the runner, which writes
 * one warning per key into result.warnings (runner/execute.ts ignoredWarnings).
 */
import { describe, expect, it } from "vitest";
import { parseJobTasks, parseTask } from "../../src/graph/parse";
import { handlersOf } from "../../src/operations/registry";
import {
  IGNORED_KEY,
  ignoredOf,
  TASK_CATALOG,
  validateTaskParams,
  withoutIgnored,
} from "../../src/operations/validate";
import { ignoredWarnings } from "../../src/runner/execute";
import type { InputFile } from "../../src/operations/types";

const job = (task: Record<string, unknown>, url: string) =>
  parseJobTasks({ imp: { operation: "import/url", url }, t: { input: "imp", ...task } }, TASK_CATALOG);
const paramsOf = (task: Record<string, unknown>, url: string): Record<string, unknown> => {
  const r = job(task, url);
  if ("errors" in r) throw new Error(JSON.stringify(r.errors));
  return r.specs.find((s) => s.name === "t")!.params;
};
const errorsOf = (task: Record<string, unknown>, url: string): string[] => {
  const r = job(task, url);
  return "errors" in r ? (r.errors["tasks.t"] ?? []) : [];
};
const input = (filename: string) => ({ filename }) as InputFile;

describe("unknown and inapplicable options", () => {
  it("csv options on a csv output are kept (issue 47: they were judged against no output and dropped); on ods, ignored", () => {
    const csv = paramsOf(
      { operation: "convert", output_format: "csv", delimiter: ";", sheet: 2 },
      "https://x.test/a.xlsx",
    );
    expect(withoutIgnored(csv)).toMatchObject({ delimiter: ";", sheet: 2 });
    expect(ignoredOf(csv)).toEqual([]);
    const ods = paramsOf({ operation: "convert", output_format: "ods", delimiter: ";" }, "https://x.test/a.xlsx");
    expect(withoutIgnored(ods)).not.toHaveProperty("delimiter");
    expect(ignoredOf(ods)).toEqual([{ key: "delimiter", why: "applies to csv output only, not ods" }]);
  });

  it("docx → pdf honours pages, pdf_a, include_markup and bookmarks (issue 32), warns optimize_print, ignores the rest", () => {
    const p = paramsOf(
      {
        operation: "convert",
        output_format: "pdf",
        pages: "1-2",
        optimize_print: true,
        pdf_a: true,
        include_markup: false,
        bookmarks: true,
        some_other_option: "value",
      },
      "https://example.com/report.docx",
    );
    expect(p).toMatchObject({
      output_format: "pdf",
      pages: "1-2",
      pdf_a: true,
      include_markup: false,
      bookmarks: true,
    });
    expect(
      ignoredOf(p)
        .map((o) => o.key)
        .sort(),
    ).toEqual(["optimize_print", "some_other_option"]);
    for (const k of ["optimize_print", "some_other_option"]) expect(p).not.toHaveProperty(k);
  });

  it("a known option with an invalid value stays a 422 naming the task and the field", () => {
    expect(
      errorsOf({ operation: "convert", output_format: "pdf", pages: "2-1" }, "https://example.com/a.docx"),
    ).toEqual([expect.stringMatching(/^Task t: pages: /)]);
    expect(
      errorsOf({ operation: "convert", output_format: "pdf", pdf_a: "maybe" }, "https://example.com/a.docx"),
    ).toEqual([expect.stringMatching(/^Task t: pdf_a: /)]);
    expect(
      errorsOf({ operation: "convert", output_format: "mp3", audio_bitrate: 100000 }, "https://example.com/a.wav")[0],
    ).toMatch(/^Task t: audio_bitrate: /);
    expect(errorsOf({ operation: "convert", output_format: "mp4", crf: 70 }, "https://example.com/a.mov")[0]).toMatch(
      /^Task t: crf: /,
    );
    // the common parameters stay strict
    expect(errorsOf({ operation: "convert", output_format: "p d f" }, "https://example.com/a.docx")[0]).toMatch(
      /output_format/,
    );
    expect(
      errorsOf({ operation: "convert", output_format: "pdf", timeout: "soon" }, "https://example.com/a.docx")[0],
    ).toMatch(/timeout/);
  });

  it("audio_codec copy with audio_bitrate: accepted, the bitrate ignored with its reason", () => {
    const p = paramsOf(
      { operation: "convert", output_format: "mp3", audio_codec: "copy", audio_bitrate: 128 },
      "https://example.com/a.mp3",
    );
    expect(p).toMatchObject({ audio_codec: "copy" });
    expect(p).not.toHaveProperty("audio_bitrate");
    expect(ignoredOf(p)).toEqual([{ key: "audio_bitrate", why: expect.stringMatching(/audio_codec copy/) }]);
    expect(ignoredWarnings("convert", withoutIgnored(p), [input("a.mp3")], ignoredOf(p))).toEqual([
      "audio_bitrate does not apply with audio_codec copy (the audio is kept as it is); it was ignored.",
    ]);
  });

  it("audio_bitrate on a wav output is not an option of wav: ignored", () => {
    const p = paramsOf({ operation: "convert", output_format: "wav", audio_bitrate: 128 }, "https://example.com/a.mp3");
    expect(ignoredOf(p)).toEqual([{ key: "audio_bitrate" }]);
    expect(ignoredWarnings("convert", withoutIgnored(p), [input("a.mp3")], ignoredOf(p))).toEqual([
      "audio_bitrate is not supported by convert from mp3 to wav; it was ignored.",
    ]);
  });

  it("pdf/ocr auto_orient and optimize flatten_signatures are honoured on PDFs; flatten_signatures ignored on images", () => {
    const ocr = paramsOf({ operation: "pdf/ocr", auto_orient: true, language: ["eng"] }, "https://example.com/s.pdf");
    expect(ocr).toMatchObject({ auto_orient: true });
    expect(ocr).not.toHaveProperty(IGNORED_KEY);
    const opt = paramsOf({ operation: "optimize", flatten_signatures: true }, "https://example.com/s.pdf");
    expect(opt).toMatchObject({ flatten_signatures: true });
    expect(opt).not.toHaveProperty(IGNORED_KEY);
    const png = paramsOf({ operation: "optimize", flatten_signatures: true }, "https://example.com/a.png");
    expect(ignoredWarnings("optimize", withoutIgnored(png), [input("a.png")], ignoredOf(png))).toEqual([
      "flatten_signatures is not supported by optimize from png; it was ignored.",
    ]);
  });

  it("page_range, the old docs' name of pages, is honoured as pages; beside pages it is ignored; a bad range is a 422", () => {
    const p = paramsOf({ operation: "convert", output_format: "png", page_range: "1-2" }, "https://example.com/s.pdf");
    expect(p).toMatchObject({ pages: "1-2" });
    expect(p).not.toHaveProperty("page_range");
    expect(p).not.toHaveProperty(IGNORED_KEY);
    const both = paramsOf(
      { operation: "convert", output_format: "png", pages: "3", page_range: "1-2" },
      "https://example.com/s.pdf",
    );
    expect(both).toMatchObject({ pages: "3" });
    expect(ignoredOf(both)).toEqual([{ key: "page_range" }]);
    expect(
      errorsOf({ operation: "convert", output_format: "png", page_range: "2-1" }, "https://example.com/s.pdf"),
    ).toEqual([expect.stringMatching(/^Task t: pages: /)]);
  });

  it("an unknown key on convert names the formats the task ran with", () => {
    const p = paramsOf(
      { operation: "convert", output_format: "pdf", some_other_option: "value" },
      "https://example.com/a.docx",
    );
    expect(ignoredWarnings("convert", withoutIgnored(p), [input("a.docx")], ignoredOf(p))).toEqual([
      "some_other_option is not supported by convert from docx to pdf; it was ignored.",
    ]);
  });

  it("without a format hint, the handler that declares the submitted keys judges them", () => {
    // pages is an option of office and pdf → pdf, not of image → pdf: it is kept, not ignored
    const r = validateTaskParams(handlersOf("convert")!, { output_format: "pdf", pages: "1-2" });
    expect(r).toEqual({ params: { output_format: "pdf", pages: "1-2" } });
    const bad = validateTaskParams(handlersOf("convert")!, { output_format: "pdf", pages: "x" });
    expect("errors" in bad && bad.errors[0]).toMatch(/^pages: /);
  });

  it("a password on a tar archive stays a 422: ignoring it would leave the files unencrypted", () => {
    const r = validateTaskParams(handlersOf("archive")!, { output_format: "tar", password: "x", extra: 1 });
    expect("errors" in r && r.errors).toEqual([
      "password: parameter not supported by archive to a tar format, which cannot be encrypted (use zip or 7z).",
    ]);
  });

  it("a task without ignored keys carries no ignored entry", () => {
    const p = paramsOf({ operation: "convert", output_format: "pdf", pages: "1" }, "https://example.com/a.docx");
    expect(p).not.toHaveProperty(IGNORED_KEY);
  });

  it("pdf → pdf is a conversion with pages and pdf_a", () => {
    const p = paramsOf(
      { operation: "convert", output_format: "pdf", pages: "1-2", pdf_a: true },
      "https://example.com/a.pdf",
    );
    expect(p).toMatchObject({ pages: "1-2", pdf_a: true });
    expect(p).not.toHaveProperty(IGNORED_KEY);
  });
});

describe("payload", () => {
  it("a task's payload echoes what was submitted with its operation (standalone tasks drop it in api/create.ts)", () => {
    const spec = parseTask(
      "t",
      { operation: "import/url", url: "https://example.com/a.pdf", filename: "a.pdf" },
      TASK_CATALOG,
      () => {},
    );
    expect(spec?.payload).toEqual({ operation: "import/url", url: "https://example.com/a.pdf", filename: "a.pdf" });
  });
});

describe("JSON depth bound (issue 45)", async () => {
  const { tooDeep, MAX_JSON_DEPTH } = await import("../../src/api/json-depth");
  it("finds the first field nested past the bound, iteratively, and passes shallower bodies", () => {
    let v: unknown = 1;
    for (let i = 0; i < 100_000; i++) v = [v];
    expect(tooDeep({ tasks: { t: { x: v } } })).toMatch(/^tasks\.t\.x(\.0)+$/);
    let ok: unknown = "leaf";
    for (let i = 0; i < MAX_JSON_DEPTH - 1; i++) ok = { k: ok };
    // ok nests MAX_JSON_DEPTH - 1 objects; one more level is the bound, two are past it
    expect(tooDeep({ k: ok })).toBeNull();
    expect(tooDeep({ k: { k: ok } })).toBe("k" + ".k".repeat(MAX_JSON_DEPTH - 1));
  });
});
