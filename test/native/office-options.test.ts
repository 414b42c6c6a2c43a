/**
 * CloudConvert's office options (issue 32) on office → pdf and office → images, through the operations with the
 * native engine as a local process. Oracles: qpdf --json (the outline), pdfinfo (pages), pdftotext (which slides),
 * identify (image sizes).
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { nodeEngines } from "../../src/runtime/node/engines";
import { handlersOf } from "../../src/operations/registry";
import { validateTaskParams } from "../../src/operations/validate";
import { execute } from "../../src/runner/execute";
import { nativeEngineForFile } from "../support/native-engine";
import { corpusInput, dataOf, pdfinfo, pdftotext, testContext, tmpFile } from "../support/pdf-helpers";

const native = nativeEngineForFile();
const ctx = () => testContext({ engines: { ...nodeEngines(), ...native.engines() } });

const convert = (rel: string, params: Record<string, unknown>) => execute("convert", params, [corpusInput(rel)], ctx());
/** Outline items of a PDF as qpdf --json lists them. */
const outlines = (pdf: Uint8Array) =>
  (JSON.parse(execFileSync("qpdf", ["--json", "--json-key=outlines", tmpFile(pdf)], { encoding: "utf8" })).outlines ??
    []) as unknown[];

describe("office → pdf options", () => {
  it("bookmarks: the ODT's headings become the outline by default; bookmarks false leaves none", async () => {
    const on = await convert("office/tika-testODFwithOOo3.odt", { output_format: "pdf" });
    const off = await convert("office/tika-testODFwithOOo3.odt", { output_format: "pdf", bookmarks: false });
    expect(outlines(dataOf(on.out.files[0]!)).length).toBeGreaterThan(0);
    expect(outlines(dataOf(off.out.files[0]!))).toEqual([]);
  });

  it("output_type notes: a presentation's notes pages (portrait) instead of its slides (landscape)", async () => {
    const slides = await convert("office/xapian-presentation.odp", { output_format: "pdf" });
    const notes = await convert("office/xapian-presentation.odp", { output_format: "pdf", output_type: "notes" });
    const size = (f: Uint8Array) =>
      pdfinfo(f)
        ["Page size"]!.match(/([\d.]+) x ([\d.]+)/)!
        .slice(1)
        .map(Number);
    const [sw, sh] = size(dataOf(slides.out.files[0]!));
    const [nw, nh] = size(dataOf(notes.out.files[0]!));
    expect(sw! > sh!).toBe(true);
    expect(nw! < nh!).toBe(true);
    expect(Number(pdfinfo(dataOf(notes.out.files[0]!)).Pages)).toBe(2);
    expect(pdftotext(notes.out.files[0]!)).toContain("501 Fascinating Facts");
  });

  it("optimize_print and slides_per_handout_page: accepted and named in result.warnings; a bad value is a 422 naming it", async () => {
    const convertHandlers = handlersOf("convert")!;
    const v = validateTaskParams(
      convertHandlers,
      { output_format: "pdf", optimize_print: true, slides_per_handout_page: 2, hidden_slides: true },
      "pptx",
    );
    expect("params" in v).toBe(true);
    const r = await execute(
      "convert",
      (v as { params: Record<string, unknown> }).params,
      [corpusInput("office/xapian-presentation.odp")],
      ctx(),
    );
    const warnings = (r.out.extra?.warnings as string[]).join(" ");
    expect(warnings).toMatch(/optimize_print .*ignored/);
    expect(warnings).toMatch(/slides_per_handout_page .*ignored/);
    expect(warnings).not.toMatch(/hidden_slides/);
    expect(Number(pdfinfo(dataOf(r.out.files[0]!)).Pages)).toBe(2);
    const bad = validateTaskParams(convertHandlers, { output_format: "pdf", hidden_slides: "maybe" }, "pptx");
    expect("errors" in bad && bad.errors.join(" ")).toMatch(/hidden_slides/);
  });

  it("csv options on a docx output are warned, not applied; an unknown encoding is a 422", () => {
    const convertHandlers = handlersOf("convert")!;
    const v = validateTaskParams(convertHandlers, { output_format: "docx", delimiter: ";" }, "odt");
    expect("params" in v && JSON.stringify(v.params)).toMatch(/delimiter/);
    const bad = validateTaskParams(convertHandlers, { output_format: "csv", encoding: "klingon" }, "xlsx");
    expect("errors" in bad && bad.errors.join(" ")).toMatch(/encoding/);
  });
});

describe("office → images", () => {
  it("docx → png: one image per page, pixel_density 72 gives A4/Letter-sized pixels; pages picks them", async () => {
    const all = await convert("office/gotenberg-pages_3.docx", { output_format: "png", pixel_density: 72 });
    expect(all.out.files.map((f) => f.filename)).toEqual([
      "gotenberg-pages_3-1.png",
      "gotenberg-pages_3-2.png",
      "gotenberg-pages_3-3.png",
    ]);
    const pdf = await convert("office/gotenberg-pages_3.docx", { output_format: "pdf" });
    const [w, h] = pdfinfo(dataOf(pdf.out.files[0]!))
      ["Page size"]!.match(/([\d.]+) x ([\d.]+)/)!
      .slice(1)
      .map(Number);
    const dims = execFileSync("identify", ["-format", "%w %h", tmpFile(dataOf(all.out.files[0]!), "png")], {
      encoding: "utf8",
    });
    expect(dims).toBe(`${Math.round(w!)} ${Math.round(h!)}`);
    const two = await convert("office/gotenberg-pages_3.docx", { output_format: "jpg", pages: "2" });
    expect(two.out.files.map((f) => f.filename)).toEqual(["gotenberg-pages_3-2.jpg"]);
  });

  it("pptx → jpg: one image per slide (the chart deck has 1 slide)", async () => {
    const r = await convert("office/python-pptx-cht-charts.pptx", { output_format: "jpg", pixel_density: 96 });
    expect(r.out.files).toHaveLength(1);
    expect(
      execFileSync("identify", ["-format", "%m", tmpFile(dataOf(r.out.files[0]!), "jpg")], { encoding: "utf8" }),
    ).toBe("JPEG");
  });
});
