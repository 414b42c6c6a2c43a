/**
 * Issue 49, "Budgets that hold in a 128 MB isolate", for pdf-lib (the api Worker's PDF engine): a PDF at the edge of
 * its byte budget (DEFAULT_PDF_BUDGET.maxBytes), written by Ghostscript from noise JPEGs ImageMagick made (pages that
 * do not compress; as many as fit), goes through every pdf-lib call a task makes; each call runs in a process of its own
 * (test/support/pdf-memory-probe.mts), whose peak resident memory growth is read from the kernel (VmHWM). The input
 * the runner holds plus that growth must stay ≤ 100 MB: a budget that let an isolate pass 128 MB fails here. A PDF
 * just over the budget is refused OVER_BUDGET, which hands it to the native qpdf.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PDF_BUDGET } from "../../src/engines/pdflib/budget";
import { scaled } from "../support/time-scale";

const LIMIT = 100e6;
const dir = mkdtempSync(join(tmpdir(), "pdf-isolate-"));
const VIEWJPEG = execFileSync(
  "gs",
  ["-q", "-dNODISPLAY", "-dNOSAFER", "-c", "(viewjpeg.ps) findlibfile { pop = } { pop } ifelse quit"],
  {
    encoding: "utf8",
  },
).trim();
let atEdge = "";
let over = "";

/** A PDF of `pages` pages, each one 1500×1150 noise JPEG (~3 MB) drawn by Ghostscript's pdfwrite. */
function noisePdf(name: string, pages: number): string {
  const out = join(dir, name);
  const jpgs = Array.from({ length: pages }, (_, i) => {
    const jpg = join(dir, `page-${i}.jpg`);
    if (!existsSync(jpg))
      execFileSync("convert", [
        "-size",
        "1500x1150",
        "xc:",
        "-seed",
        String(i + 1),
        "+noise",
        "Random",
        "-quality",
        "92",
        jpg,
      ]);
    return jpg;
  });
  execFileSync("gs", [
    "-q",
    "-dNOSAFER",
    "-dBATCH",
    "-dNOPAUSE",
    "-sDEVICE=pdfwrite",
    "-o",
    out,
    VIEWJPEG,
    "-c",
    jpgs.map((j) => `(${j}) viewJPEG showpage`).join(" "),
  ]);
  return out;
}

/** The PDF of the most pages whose size is at most `bytes` (and at least one page). */
function pdfUpTo(name: string, bytes: number): string {
  let pages = 1;
  while (statSync(noisePdf(name, pages + 1)).size <= bytes) pages++;
  return noisePdf(name, pages);
}

beforeAll(() => {
  // the most pages under the budget, and one page more
  atEdge = pdfUpTo("edge.pdf", DEFAULT_PDF_BUDGET.maxBytes);
  const pages = Number(/^Pages:\s+(\d+)$/m.exec(execFileSync("pdfinfo", [atEdge], { encoding: "utf8" }))![1]);
  over = noisePdf("over.pdf", pages + 1);
}, scaled(120_000));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const probe = (file: string, op: string) =>
  JSON.parse(
    execFileSync(
      process.execPath,
      ["--import", "tsx", join(import.meta.dirname, "../support/pdf-memory-probe.mts"), file, op],
      {
        encoding: "utf8",
        maxBuffer: 1 << 20,
      },
    )
      .trim()
      .split("\n")
      .pop()!,
  ) as { ok: boolean; inputBytes: number; growth: number };

describe("pdf-lib at its byte budget stays inside an isolate", () => {
  it("the test PDFs sit at the budget's edge (pdfinfo counts their pages)", () => {
    expect(statSync(atEdge).size).toBeLessThanOrEqual(DEFAULT_PDF_BUDGET.maxBytes);
    expect(statSync(atEdge).size).toBeGreaterThan(DEFAULT_PDF_BUDGET.maxBytes * 0.7);
    expect(statSync(over).size).toBeGreaterThan(DEFAULT_PDF_BUDGET.maxBytes);
    expect(execFileSync("pdfinfo", [atEdge], { encoding: "utf8" })).toMatch(/^Pages:\s+\d+$/m);
  });

  it.each(["split", "rotate", "extract", "encrypt"])(
    "%s: the input plus the call's peak memory growth ≤ 100 MB",
    (op) => {
      const r = probe(atEdge, op);
      expect(r.ok).toBe(true);
      console.log(`pdf-lib ${op} of ${(r.inputBytes / 1e6).toFixed(1)} MB: +${(r.growth / 1e6).toFixed(0)} MB`);
      expect(r.inputBytes + r.growth).toBeLessThanOrEqual(LIMIT);
    },
    scaled(120_000),
  );

  it(
    "merge of two halves of the budget: their total plus the peak growth ≤ 100 MB",
    () => {
      const half = pdfUpTo("half.pdf", DEFAULT_PDF_BUDGET.maxBytes / 2);
      const r = probe(half, "merge");
      expect(r.ok).toBe(true);
      console.log(`pdf-lib merge of ${(r.inputBytes / 1e6).toFixed(1)} MB: +${(r.growth / 1e6).toFixed(0)} MB`);
      expect(r.inputBytes + r.growth).toBeLessThanOrEqual(LIMIT);
    },
    scaled(120_000),
  );

  it(
    "one page more is refused OVER_BUDGET before it is parsed (a hand-off code: the native qpdf takes it)",
    () => {
      const r = JSON.parse(
        execFileSync(
          process.execPath,
          [
            "--import",
            "tsx",
            "-e",
            `
        const { createPdfLibEngine } = await import(${JSON.stringify(join(import.meta.dirname, "../../src/engines/pdflib/engine.ts"))});
        const { readFileSync } = await import("node:fs");
        const r = await createPdfLibEngine().rotate({ input: { filename: "over.pdf", data: new Uint8Array(readFileSync(${JSON.stringify(over)})) }, rotation: 90 });
        console.log(JSON.stringify(r.ok ? { ok: true } : r.error));`,
          ],
          { encoding: "utf8" },
        )
          .trim()
          .split("\n")
          .pop()!,
      );
      expect(r.code).toBe("OVER_BUDGET");
    },
    scaled(60_000),
  );
});
