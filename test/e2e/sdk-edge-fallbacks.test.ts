/**
 * Issue 47's Chrome fallback routes end to end through the official SDK, under `npm start` with no native engine
 * (NATIVE=off: LibreOffice and Inkscape unavailable, so routing falls to chrome; the BROWSER binding drives Debian's
 * Chromium offline). Real files written by others: the corpus's xlsx, xls, ods and Numbers workbooks, the spreadsheet
 * fixtures' European CSV (Latin-1, `;`) and xlsm, the corpus's UTF-8 text and Inkscape's example SVGs.
 *
 * Oracles, none from the code under test: LibreOffice's own CSV of each workbook's first sheet (soffice
 * --convert-to csv, read with Python's csv module) or Python's csv module on the CSV source, against pdftotext of the
 * PDF; pdfinfo (pages, page size), identify (the image), pdfimages -list (no raster image in a vector drawing's PDF);
 * the SVG's own width/height attributes in points. Hostile cells and drawings (`<script>`, `file:` and loopback
 * references, prerender links, speculation rules) come out as text, and a listener on loopback — reachable, the server
 * has ALLOW_PRIVATE_IMPORTS=true — receives no request.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { basename, extname, join } from "node:path";
import { gzipSync } from "node:zlib";
import * as XLSX from "@e965/xlsx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHEETS_LAYOUT_WARNING } from "../../src/operations/web/sheets";
import { SVG_LAYOUT_WARNING } from "../../src/operations/web/svg";
import { TEXT_LAYOUT_WARNING } from "../../src/operations/web/text";
import { corpusPath } from "../support/corpus";
import { runFileJob } from "../support/jobs";
import { identify, pdfinfo, run } from "../support/native";
import { startDevServer, type DevServer } from "../support/server";
import { scaled } from "../support/time-scale";

let server: DevServer;
let probe: Server;
let probeBase: string;
const probed: string[] = [];
const dir = mkdtempSync(join(tmpdir(), "edge-fallbacks-"));
const fixture = (name: string) => join(__dirname, "..", "fixtures", "spreadsheet", name);

beforeAll(async () => {
  probe = createServer((req, res) => {
    probed.push(req.url ?? "/");
    res.writeHead(200, { "content-type": "text/plain" }).end("probe");
  });
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", () => r()));
  probeBase = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  server = await startDevServer(
    { API_KEYS: "key-a:alice", ALLOW_PRIVATE_IMPORTS: "true", NATIVE: "off" },
    scaled(300_000),
  );
}, scaled(320_000));
afterAll(async () => {
  probe?.close();
  await server?.stop();
});

const norm = (s: string) => s.replace(/\s+/g, " ").trim();
const pdfText = (path: string) => norm(run("pdftotext", ["-enc", "UTF-8", path, "-"]).out);

const CSV_PY = `import csv, json, sys
print(json.dumps([c.strip() for r in csv.reader(open(sys.argv[1], encoding=sys.argv[2], newline=""), delimiter=sys.argv[3]) for c in r if c.strip()]))`;

/** The non-empty cells of a delimited file, by Python's csv module. */
const csvCells = (path: string, encoding: string, delimiter: string): string[] =>
  JSON.parse(execFileSync("python3", ["-c", CSV_PY, path, encoding, delimiter], { encoding: "utf8" }));

/** The non-empty cells of a workbook's first sheet as LibreOffice shows them (its CSV export, UTF-8, `,`). */
function libreOfficeCells(path: string): string[] {
  const out = mkdtempSync(join(dir, "lo-"));
  execFileSync(
    "soffice",
    [
      `-env:UserInstallation=file://${join(dir, "lo-profile")}`,
      "--headless",
      "--convert-to",
      "csv:Text - txt - csv (StarCalc):44,34,76,1",
      "--outdir",
      out,
      path,
    ],
    { stdio: "ignore", timeout: scaled(180_000) },
  );
  return csvCells(join(out, `${basename(path, extname(path))}.csv`), "utf-8", ",");
}

/** Converts the file at `path` to `output` (pdf, png, jpg) on the native-less server; the task and the file's path. */
async function convert(path: string, output: string, extra: Record<string, unknown> = {}) {
  const { job, files, task } = await runFileJob(server.base, path, {
    out: { operation: "convert", input: "in", output_format: output, ...extra },
  });
  const t = task("out");
  expect(job.status, JSON.stringify(t)).toBe("finished");
  return {
    task: t,
    result: t.result as { warnings?: string[]; refused?: string[]; pages?: number },
    path: files.out![0]!.path,
  };
}

/** A date as LibreOffice's CSV shows one (m/d/yy). */
const isDate = (s: string) => /^\d{1,2}\/\d{1,2}\/\d{2}$/.test(s);

describe("spreadsheets → pdf, png, jpg by Chrome when LibreOffice is not there", () => {
  const workbooks: [string, string][] = [
    ["xlsx", corpusPath("office/tika-testEXCEL.xlsx")],
    ["xls", corpusPath("office/tika-testEXCEL.xls")],
    ["ods", corpusPath("office/tika-testFooter.ods")],
    ["xlsm", fixture("tika-testEXCEL_macro.xlsm")],
  ];
  it.each(workbooks)("%s → pdf holds every cell LibreOffice shows on the first sheet", async (_f, path) => {
    const cells = libreOfficeCells(path);
    expect(cells.length).toBeGreaterThan(0);
    const { task, result, path: pdf } = await convert(path, "pdf");
    expect(task.engine).toBe("chrome");
    expect(result.warnings).toContain(SHEETS_LAYOUT_WARNING);
    expect(Number(pdfinfo(pdf).Pages)).toBeGreaterThanOrEqual(1);
    const text = pdfText(pdf);
    expect(cells.filter((c) => !text.includes(norm(c)))).toEqual([]);
  });

  it("numbers → pdf holds every cell LibreOffice shows on the first sheet but its dates", async () => {
    const path = corpusPath("office/tika-testNumbers2013.numbers");
    const cells = libreOfficeCells(path);
    const { task, path: pdf } = await convert(path, "pdf");
    expect(task.engine).toBe("chrome");
    const text = pdfText(pdf);
    expect(cells.filter((c) => !isDate(c) && !text.includes(norm(c)))).toEqual([]);
  });

  // Known: SheetJS's reading of this Numbers file puts 4 of its 14 dates a day later than LibreOffice and libetonyek
  // (numbers2text: "10/21/09") show them — 10/22/09 for 10/21/09 — in every SheetJS output (csv, xlsx, html); the
  // engine's (src/engines/sheetjs/engine.ts), not this route's. Flip to `it` when fixed.
  it.fails("numbers → pdf shows the dates LibreOffice shows", async () => {
    const path = corpusPath("office/tika-testNumbers2013.numbers");
    const dates = libreOfficeCells(path).filter(isDate);
    const text = pdfText((await convert(path, "pdf")).path);
    expect(dates.filter((d) => !text.includes(d))).toEqual([]);
  });

  it("a European CSV (Latin-1, `;`, decimal commas) → pdf holds every cell Python's csv module reads", async () => {
    const path = fixture("frictionless-table-with-accents.csv");
    const cells = csvCells(path, "latin-1", ";");
    const { task, result, path: pdf } = await convert(path, "pdf");
    expect(task.engine).toBe("chrome");
    expect(result.warnings).toContain(SHEETS_LAYOUT_WARNING);
    expect(Number(pdfinfo(pdf).Pages)).toBeGreaterThan(1);
    const text = pdfText(pdf);
    expect(cells.filter((c) => !text.includes(norm(c)))).toEqual([]);
  });

  it.each([
    ["xlsx", "png", corpusPath("office/tika-testEXCEL.xlsx"), "PNG"],
    ["ods", "jpg", corpusPath("office/tika-testFooter.ods"), "JPEG"],
    ["csv", "png", fixture("frictionless-bom.csv"), "PNG"],
  ])("%s → %s is a non-empty image", async (_f, output, path, format) => {
    const { task, path: image } = await convert(path, output);
    expect(task.engine).toBe("chrome");
    const id = identify(image);
    expect(id.format).toBe(format);
    expect(id.width).toBeGreaterThan(0);
    expect(id.height).toBeGreaterThan(0);
  });

  it("LibreOffice's options (password, pages, pdf_a) are accepted and reported as ignored", async () => {
    const { result } = await convert(corpusPath("office/tika-testEXCEL.xlsx"), "pdf", {
      password: "unused",
      pages: "1",
      pdf_a: true,
    });
    for (const k of ["password", "pages", "pdf_a"])
      expect(result.warnings!.some((w) => w.startsWith(`${k} is not supported`))).toBe(true);
  });
});

describe("txt → pdf, png by Chrome", () => {
  it("the PDF's text is the file's text (whitespace aside)", async () => {
    const path = corpusPath("markup/tika-udhr-known.txt");
    const { task, result, path: pdf } = await convert(path, "pdf");
    expect(task.engine).toBe("chrome");
    expect(result.warnings).toContain(TEXT_LAYOUT_WARNING);
    expect(pdfText(pdf)).toBe(norm(readFileSync(path, "utf8")));
  });
  it("→ png is a non-empty image", async () => {
    const id = identify((await convert(corpusPath("markup/tika-udhr-known.txt"), "png")).path);
    expect([id.format, id.width > 0, id.height > 0]).toEqual(["PNG", true, true]);
  });
});

/**
 * Chrome's PDF page comes out up to ~1.5 pt larger than asked (measured: A4 as 595.92 × 842.88 for 595.28 × 841.89,
 * 75 × 37.5 pt as 76.08 × 37.92): a side within 1.5 pt of the drawing's.
 */
const closeTo = (got: number, want: number) =>
  expect(Math.abs(got - want), `${got} for ${want}`).toBeLessThanOrEqual(1.5);

/** The page size pdfinfo reports, in points. */
const pageSize = (pdf: string) => {
  const m = /^([\d.]+) x ([\d.]+) pts/.exec(pdfinfo(pdf)["Page size"] ?? "")!;
  return { width: Number(m[1]), height: Number(m[2]) };
};

describe("svg, svgz → pdf by Chrome: vectors on a page of the drawing's size", () => {
  it.each([
    ["inkscape-gradient.svg", 1358.653, 951.648],
    ["inkscape-text-on-path.svg", 605.28, (297 * 72) / 25.4],
  ])("%s: one page of its width × height in points, no raster image", async (name, w, h) => {
    const path = corpusPath(`vector/${name}`);
    // the oracle's sizes are the SVG's own attributes (corpus facts: svg_width, svg_height)
    expect(readFileSync(path, "utf8")).toMatch(/width="[\d.]+(pt|mm)"/);
    const { task, result, path: pdf } = await convert(path, "pdf");
    expect(task.engine).toBe("chrome");
    expect(result.warnings).toContain(SVG_LAYOUT_WARNING);
    expect(pdfinfo(pdf).Pages).toBe("1");
    const size = pageSize(pdf);
    closeTo(size.width, w);
    closeTo(size.height, h);
    const images = run("pdfimages", ["-list", pdf])
      .out.split("\n")
      .slice(2)
      .filter((l) => l.trim());
    expect(images).toEqual([]);
  });

  it("the text-on-path drawing's text stays text (a font in the PDF, glyphs extractable), not pixels", async () => {
    const { path: pdf } = await convert(corpusPath("vector/inkscape-text-on-path.svg"), "pdf");
    const fonts = run("pdffonts", [pdf])
      .out.split("\n")
      .slice(2)
      .filter((l) => l.trim());
    expect(fonts.length).toBeGreaterThan(0);
    // each glyph sits on its path, so pdftotext reads them out of order: every letter of the drawing's first text
    // (corpus facts svg_text_sample) is there as often as it is written, not the words in order
    const count = (s: string) => {
      const m = new Map<string, number>();
      for (const ch of s.replace(/\s+/g, "")) m.set(ch, (m.get(ch) ?? 0) + 1);
      return m;
    };
    const got = count(pdfText(pdf));
    for (const [ch, n] of count("Several texts can be attached to the same path."))
      expect(got.get(ch) ?? 0, ch).toBeGreaterThanOrEqual(n);
  });

  it("a real svgz (xapian's diagram, 120.160mm × 147.910mm) is inflated and printed at its size, its text as text", async () => {
    const path = join(__dirname, "..", "fixtures", "vector", "xapian-diagram.svgz");
    const { task, path: pdf } = await convert(path, "pdf");
    expect(task.engine).toBe("chrome");
    const size = pageSize(pdf);
    closeTo(size.width, (120.16 * 72) / 25.4);
    closeTo(size.height, (147.91 * 72) / 25.4);
    expect(pdfText(pdf)).toContain("Start"); // the fixture's facts: text_elements ["Start"]
  });

  it("an svgz (the gradient drawing gzipped) is inflated and printed the same size", async () => {
    const path = join(dir, "gradient.svgz");
    writeFileSync(path, gzipSync(readFileSync(corpusPath("vector/inkscape-gradient.svg"))));
    const { task, path: pdf } = await convert(path, "pdf");
    expect(task.engine).toBe("chrome");
    const size = pageSize(pdf);
    closeTo(size.width, 1358.653);
    closeTo(size.height, 951.648);
  });
});

describe("hostile content fetches nothing and runs nothing", () => {
  const hostile = () => [
    "<script>document.body.innerHTML='PWNED'</script>",
    "<img src=file:///etc/passwd>",
    `<img src=${probeBase}/img onerror="fetch('${probeBase}/onerror')">`,
    `<link rel=prerender href="${probeBase}/prerender">`,
    `<script type=speculationrules>{"prefetch":[{"source":"list","urls":["${probeBase}/speculation"]}]}</script>`,
  ];

  it("a CSV's markup cells are printed as text; the loopback listener sees no request", async () => {
    const path = join(dir, "hostile.csv");
    writeFileSync(
      path,
      `cell\n${hostile()
        .map((h) => `"${h.replace(/"/g, '""')}"`)
        .join("\n")}\n`,
    );
    const { result, path: pdf } = await convert(path, "pdf");
    expect(result.refused).toBeUndefined();
    const text = pdfText(pdf);
    expect(text).toContain("<script>document.body.innerHTML='PWNED'</script>");
    expect(text).toContain("<img src=file:///etc/passwd>");
    expect(text).toContain("<link rel=prerender");
    const png = await convert(path, "png");
    expect(png.result.refused).toBeUndefined();
    expect(probed).toEqual([]);
  });

  it("an xlsx with the same cells, and an SVG referencing loopback, fetch nothing either", async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([["cell"], ...hostile().map((h) => [h])]), "Sheet1");
    const xlsx = join(dir, "hostile.xlsx");
    writeFileSync(xlsx, new Uint8Array(XLSX.write(wb, { type: "array", bookType: "xlsx" }) as ArrayBuffer));
    const { result, path: pdf } = await convert(xlsx, "pdf");
    expect(result.refused).toBeUndefined();
    expect(pdfText(pdf)).toContain("<script>document.body.innerHTML='PWNED'</script>");
    const svg = join(dir, "hostile.svg");
    writeFileSync(
      svg,
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="50"><style>@import url(${probeBase}/css);</style><image href="${probeBase}/image.png" width="10" height="10"/><image xlink:href="file:///etc/passwd" width="10" height="10"/><script>fetch("${probeBase}/script")</script><rect width="100" height="50" fill="#0a0"/></svg>`,
    );
    const drawn = await convert(svg, "pdf");
    expect(drawn.result.refused).toBeUndefined();
    closeTo(pageSize(drawn.path).width, 75);
    closeTo(pageSize(drawn.path).height, 37.5);
    expect(probed).toEqual([]);
  });
});
