/**
 * The invisible OCR text layer (issue 17, pdflib/text-layer.ts) on its own, with words placed by
 * the test: pdftotext -bbox finds each word on the box it was given (page-display coordinates, also
 * on pages with /Rotate 90 and 180), the page renders pixel-identical to the input (pdftoppm +
 * ImageMagick compare), non-Latin text is extractable through the ToUnicode map, and pageInfo
 * tells scanned pages from pages with text.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { createPdfLibEngine } from "../../src/engines/pdflib/engine";
import type { TextLayerWord } from "../../src/engines/kinds/pdf";
import { corpusInput, dataOf, expectQpdfCheck, tmpFile } from "../support/pdf-helpers";

const engine = createPdfLibEngine();
const SCAN = "scans/ocrmypdf-c02-22.pdf";

async function pdfInput(rel: string) {
  const f = corpusInput(rel);
  return { data: await f.bytes(), filename: f.filename };
}

/** Words pdftotext -bbox reports: text and box in points, origin top-left of the displayed page. */
function bboxWords(
  pdf: string,
): { text: string; x0: number; y0: number; x1: number; y1: number; pageHeight: number }[] {
  const html = execFileSync("pdftotext", ["-bbox", pdf, "-"], { encoding: "utf8" });
  const pageHeight = Number(/<page width="[\d.]+" height="([\d.]+)"/.exec(html)![1]);
  return [
    ...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g),
  ].map((m) => ({
    text: m[5]!,
    x0: Number(m[1]),
    y0: Number(m[2]),
    x1: Number(m[3]),
    y1: Number(m[4]),
    pageHeight,
  }));
}

/** PPM renders of page 1 at 50 ppi compared by ImageMagick: the number of differing pixels. */
function differingPixels(a: string, b: string): number {
  const render = (pdf: string) => {
    const out = `${pdf}-r`;
    execFileSync("pdftoppm", ["-r", "50", "-f", "1", "-l", "1", "-png", "-singlefile", pdf, out]);
    return `${out}.png`;
  };
  const r = spawnSync("compare", ["-metric", "AE", render(a), render(b), "null:"], { encoding: "utf8" });
  return Number(r.stderr.trim().split(/\s/)[0]);
}

const WORDS: TextLayerWord[] = [
  { text: "Huckleberry", x0: 50, y0: 400, x1: 150, y1: 414 },
  { text: "garden", x0: 200, y0: 100, x1: 260, y1: 112 },
];

describe("OCR text layer", () => {
  it("places invisible words on their boxes; the page renders exactly as before", async () => {
    const input = await pdfInput(SCAN);
    const r = await engine.textLayer!({ input, pages: [{ page: 1, words: WORDS }] });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.words).toBe(2);
    expectQpdfCheck(r.data);
    const out = tmpFile(r.data);
    const found = bboxWords(out);
    for (const w of WORDS) {
      const hit = found.find((f) => f.text === w.text);
      expect(hit, w.text).toBeDefined();
      // pdftotext's y runs down from the top; the layer's up from the bottom
      expect(Math.abs(hit!.x0 - w.x0)).toBeLessThan(2);
      expect(Math.abs(hit!.x1 - w.x1)).toBeLessThan(3);
      expect(Math.abs(hit!.pageHeight - hit!.y1 - w.y0)).toBeLessThan(4);
    }
    expect(differingPixels(tmpFile(input.data), out)).toBe(0);
  });

  it("maps display coordinates through /Rotate 90 and 180", async () => {
    for (const rotation of [90, 180]) {
      const rotated = await engine.rotate!({ input: await pdfInput(SCAN), rotation });
      if (!rotated.ok) throw new Error(rotated.error.message);
      // pdf-lib answers bytes (only the native qpdf streams, issue 49)
      if (!(rotated.data instanceof Uint8Array)) throw new Error("pdf-lib answered a stream");
      const info = await engine.pageInfo!({ input: { data: rotated.data, filename: "r.pdf" } });
      if (!info.ok) throw new Error(info.error.message);
      const { width, height } = info.pages[0]!;
      expect(rotation === 90 ? [width, height] : [height, width]).toEqual([470.88, 384]);
      const word = { text: "Watson", x0: 40, y0: height - 60, x1: 120, y1: height - 45 };
      const r = await engine.textLayer!({
        input: { data: rotated.data, filename: "r.pdf" },
        pages: [{ page: 1, words: [word] }],
      });
      if (!r.ok) throw new Error(r.error.message);
      const hit = bboxWords(tmpFile(r.data)).find((f) => f.text === "Watson");
      expect(hit, `rotation ${rotation}`).toBeDefined();
      expect(Math.abs(hit!.x0 - 40), `rotation ${rotation}`).toBeLessThan(2);
      expect(Math.abs(hit!.y0 - 45), `rotation ${rotation}`).toBeLessThan(4);
    }
  });

  it("any script is extractable (ToUnicode), and text turned 180° on the page reads along its baseline", async () => {
    const words: TextLayerWord[] = [
      { text: "繁體中文", x0: 50, y0: 300, x1: 130, y1: 320 },
      { text: "Привет", x0: 50, y0: 250, x1: 120, y1: 262 },
      { text: "upside", x0: 200, y0: 200, x1: 260, y1: 212, angle: 180 },
    ];
    const r = await engine.textLayer!({ input: await pdfInput(SCAN), pages: [{ page: 1, words }] });
    if (!r.ok) throw new Error(r.error.message);
    const text = execFileSync("pdftotext", [tmpFile(r.data), "-"], { encoding: "utf8" });
    for (const w of words) expect(text).toContain(w.text);
  });

  it("pageInfo: a scan has no text; a born-digital PDF has", async () => {
    const scan = await engine.pageInfo!({ input: await pdfInput(SCAN) });
    const digital = await engine.pageInfo!({ input: await pdfInput("pdf/pdfjs-tracemonkey.pdf") });
    if (!scan.ok || !digital.ok) throw new Error("pageInfo failed");
    expect(scan.pages.map((p) => p.hasText)).toEqual([false]);
    expect(digital.pages.every((p) => p.hasText)).toBe(true);
    // pdffonts agrees: no fonts in the scan
    expect(
      execFileSync("pdffonts", [tmpFile(dataOf(await corpusInput(SCAN).bytes()))], { encoding: "utf8" })
        .trim()
        .split("\n").length,
    ).toBe(2);
  });
});
