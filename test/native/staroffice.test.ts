/**
 * StarOffice 3–5 documents (issue 32) through LibreOffice's libstaroffice import: sdw → doc, docx, html, odt, pdf, rtf,
 * txt; sdc → csv, html, ods, pdf, xls, xlsx; sda → eps, html, odp, pdf, ppt, pptx, swf. The fixtures come from
 * libstaroffice's regression suite (test/fixtures/staroffice/README.md: the corpus has none). Oracles outside our code:
 * libstaroffice's own tools (sdw2html's words, sd2text's words, upstream's expected CSV of the sheet, cell by cell),
 * unzip of the packages, pdftotext/pdfinfo, LibreOffice's CLI reading doc/rtf/xls/ppt back, ffprobe for the SWF.
 * Hostile: an sdw that is no OLE file → OPEN_FAILED; a truncated one → a coded error.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/runner/execute";
import { nativeEngineForFile } from "../support/native-engine";
import { bytesInput, dataOf, expectTaskError, testContext } from "../support/pdf-helpers";
import { videoFrames } from "../support/media-helpers";
import { scaled } from "../support/time-scale";

const native = nativeEngineForFile();

const FIXTURES = join(__dirname, "..", "fixtures", "staroffice");
const fixture = (name: string) => join(FIXTURES, name);
const dir = mkdtempSync(join(tmpdir(), "staroffice-"));
const ctx = () => testContext({ engines: native.engines() });
const norm = (s: string) =>
  s
    .replace(/<[^>]+>/g, " ")
    .replace(/&#?\w+;/g, " ")
    .replace(/\s+/g, " ");
const wordsOf = (s: string) => norm(s).match(/\p{L}{4,}/gu) ?? [];
async function convert(name: string, output_format: string) {
  const r = await execute(
    "convert",
    { output_format },
    [bytesInput(name, new Uint8Array(readFileSync(fixture(name))))],
    ctx(),
  );
  return { r, path: saved(dataOf(r.out.files[0]!), `${name}.${output_format}`) };
}
function saved(data: Uint8Array, name: string): string {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
}
/** LibreOffice's CLI converting `path` to `to` (a separate soffice, not the engine's pool); the output's path. */
function cli(path: string, to: string): string {
  spawnSync(
    "soffice",
    [
      `-env:UserInstallation=file://${join(dir, "profile")}`,
      "--headless",
      "--convert-to",
      to,
      "--outdir",
      join(dir, "cli"),
      path,
    ],
    { timeout: scaled(180_000) },
  );
  return join(
    dir,
    "cli",
    path
      .split("/")
      .pop()!
      .replace(/\.[^.]+$/, `.${to.split(":")[0]}`),
  );
}
const pdftext = (path: string) => execFileSync("pdftotext", [path, "-"], { encoding: "utf8" });
const unzipText = (path: string, member: string) =>
  execFileSync("unzip", ["-p", path, member], { encoding: "utf8", maxBuffer: 1 << 26 });
/** Share of `want` found in `text`'s words. */
function recall(want: string[], text: string): number {
  const got = new Set(wordsOf(text));
  return want.filter((w) => got.has(w)).length / want.length;
}

describe("sdw (StarWriter) → every output the catalogue lists", () => {
  const want = () =>
    wordsOf(
      execFileSync("sdw2html", [fixture("rousseau.sdw")], { encoding: "utf8" }).replace(
        /<style[\s\S]*?<\/style>/g,
        " ",
      ),
    );
  it("the oracle has the text (sdw2html)", () => {
    expect(want().length).toBeGreaterThan(30);
    expect(want()).toContain("Rousseau");
  });
  it.each(["pdf", "txt", "html", "odt", "docx", "doc", "rtf"])(
    "rousseau.sdw → %s: ≥ 95 % of sdw2html's words",
    async (format) => {
      const { r, path } = await convert("rousseau.sdw", format);
      expect(r.engine.name).toBe("libreoffice");
      const text =
        format === "pdf"
          ? pdftext(path)
          : format === "odt"
            ? unzipText(path, "content.xml")
            : format === "docx"
              ? unzipText(path, "word/document.xml")
              : format === "doc" || format === "rtf"
                ? readFileSync(cli(path, "txt:Text (encoded):UTF8"), "utf8")
                : readFileSync(path, "utf8");
      expect(recall(want(), text)).toBeGreaterThanOrEqual(0.95);
    },
    300_000,
  );
});

describe("sdc (StarCalc) → every output the catalogue lists", () => {
  /** Upstream's expected CSV (header row of column names dropped): formula cells it leaves empty are not compared. */
  const upstream = () =>
    readFileSync(fixture("nimp.sdc.csv"), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(",").map((c) => c.replace(/^"|"$/g, "")));
  it(
    "→ csv: the same rows and columns as upstream's CSV, every cell it fills equal",
    async () => {
      const { r } = await convert("nimp.sdc", "csv");
      expect(r.engine.name).toBe("libreoffice");
      const ours = new TextDecoder()
        .decode(dataOf(r.out.files[0]!))
        .trim()
        .split(/\r?\n/)
        .map((l) => l.split(","));
      const want = upstream();
      expect(ours.length).toBe(want.length);
      let compared = 0;
      for (const [i, row] of want.entries()) {
        expect(ours[i]!.length).toBe(row.length);
        for (const [j, cell] of row.entries())
          if (cell !== "") {
            expect(ours[i]![j], `row ${i + 1} column ${j + 1}`).toBe(cell);
            compared++;
          }
      }
      expect(compared).toBeGreaterThanOrEqual(10);
    },
    scaled(300_000),
  );
  it.each(["pdf", "html", "ods", "xlsx", "xls"])(
    "nimp.sdc → %s: the sheet's texts (A1, big row, 0.1+abs(3))",
    async (format) => {
      const { path } = await convert("nimp.sdc", format);
      const text =
        format === "pdf"
          ? pdftext(path)
          : format === "ods"
            ? unzipText(path, "content.xml")
            : format === "xlsx"
              ? unzipText(path, "xl/sharedStrings.xml")
              : format === "xls"
                ? readFileSync(cli(path, "csv"), "utf8")
                : readFileSync(path, "utf8");
      for (const t of ["A1", "big row", "small row", "0.1+abs(3)"]) expect(norm(text)).toContain(t);
    },
    300_000,
  );
});

describe("sda (StarImpress) → every output the catalogue lists", () => {
  const want = () => wordsOf(execFileSync("sd2text", [fixture("LWE-Dublin.sda")], { encoding: "utf8" }));
  it("the oracle has the slide's words (sd2text)", () => expect(want()).toContain("Conference"));
  it.each(["pdf", "html", "odp", "pptx", "ppt"])(
    "LWE-Dublin.sda → %s: ≥ 90 % of sd2text's words",
    async (format) => {
      const { r, path } = await convert("LWE-Dublin.sda", format);
      expect(r.engine.name).toBe("libreoffice");
      const text =
        format === "pdf"
          ? pdftext(path)
          : format === "odp"
            ? unzipText(path, "content.xml")
            : format === "pptx"
              ? unzipText(path, "ppt/slides/slide1.xml")
              : format === "ppt"
                ? pdftext(cli(path, "pdf"))
                : readFileSync(path, "utf8");
      expect(recall(want(), text)).toBeGreaterThanOrEqual(0.9);
    },
    300_000,
  );
  it(
    "LWE-Dublin.sda → eps: an EPS with its bounding box",
    async () => {
      const { r, path } = await convert("LWE-Dublin.sda", "eps");
      expect(r.out.files.length).toBe(1);
      expect(readFileSync(path, "latin1").startsWith("%!PS-Adobe")).toBe(true);
      expect(readFileSync(path, "latin1")).toMatch(/%%BoundingBox: \d+ \d+ \d+ \d+/);
    },
    scaled(300_000),
  );
  it(
    "LWE-Dublin.sda → swf: one frame per slide (ffprobe; slides counted by pdfinfo of LibreOffice's CLI PDF)",
    async () => {
      const { path } = await convert("LWE-Dublin.sda", "swf");
      const frames = videoFrames(path);
      const slides = execFileSync("pdfinfo", [cli(fixture("LWE-Dublin.sda"), "pdf")], { encoding: "utf8" });
      expect(frames).toBe(Number(/^Pages:\s+(\d+)/m.exec(slides)![1]));
    },
    scaled(300_000),
  );
});

describe("hostile StarOffice files", () => {
  it(
    "an .sdw that is no OLE compound file → OPEN_FAILED",
    async () => {
      await expectTaskError(
        () =>
          execute(
            "convert",
            { output_format: "pdf" },
            [bytesInput("x.sdw", new TextEncoder().encode("plain text"))],
            ctx(),
          ),
        "OPEN_FAILED",
      );
    },
    scaled(60_000),
  );
  it(
    "rousseau.sdw truncated to 4 KiB → a coded error, and the pool converts the next document",
    async () => {
      const cut = new Uint8Array(readFileSync(fixture("rousseau.sdw"))).subarray(0, 4096);
      let code = "";
      try {
        await execute("convert", { output_format: "pdf" }, [bytesInput("cut.sdw", cut)], ctx());
      } catch (e) {
        code = (e as { code?: string }).code ?? "";
      }
      expect(["OPEN_FAILED", "CONVERSION_FAILED"]).toContain(code);
      const { path } = await convert("rousseau.sdw", "pdf");
      expect(pdftext(path)).toContain("Rousseau");
    },
    scaled(300_000),
  );
});
