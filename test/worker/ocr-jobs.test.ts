/**
 * OCR through the Workers as deployed (issue 17): text drawn on a white image by the image engine
 * Worker (watermark, its face from the fonts Worker), then convert → pdf with `ocr` recognised by
 * the tesseract engine Worker over its TESSERACT binding, and pdf/ocr of that PDF's plain twin.
 * NATIVE_ENGINE is "off" here, so a language only native tesseract reads ends with the WebAssembly
 * row's UNSUPPORTED naming the native engine (the hand-off has nowhere to go) rather than hanging.
 */
import { describe, expect, it } from "vitest";
import { createJob, taskByName, waitJob } from "./helpers";

/** A w×h white 24-bit BMP, base64. */
function whiteBmp64(w: number, h: number): string {
  const row = Math.ceil((w * 3) / 4) * 4;
  const b = new Uint8Array(54 + row * h).fill(255);
  const v = new DataView(b.buffer);
  b.set([0x42, 0x4d]);
  v.setUint32(2, b.length, true); v.setUint32(6, 0, true); v.setUint32(10, 54, true); v.setUint32(14, 40, true);
  v.setInt32(18, w, true); v.setInt32(22, h, true); v.setUint16(26, 1, true); v.setUint16(28, 24, true);
  for (let i = 30; i < 54; i++) b[i] = 0;
  v.setUint32(34, row * h, true);
  let s = "";
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return btoa(s);
}

const TEXT = "QUICK BROWN FOX";

describe("OCR in the tesseract engine Worker", () => {
  it("an image with text → searchable PDF (convert, ocr) and a plain PDF → pdf/ocr", async () => {
    const job = await createJob({
      in: { operation: "import/base64", file: whiteBmp64(900, 200), filename: "in.bmp" },
      text: { operation: "watermark", input: "in", text: TEXT, font_size: 72, font_color: "#000000" },
      searchable: { operation: "convert", input: "text", output_format: "pdf", ocr: true, language: ["eng"] },
      plain: { operation: "convert", input: "text", output_format: "pdf" },
      ocr: { operation: "pdf/ocr", input: "plain" },
      deu: { operation: "convert", input: "text", output_format: "pdf", ocr: true, language: ["deu"] },
    });
    const done = await waitJob(job.id);
    const t = (n: string) => taskByName(done, n);
    expect(t("text"), JSON.stringify(t("text"))).toMatchObject({ status: "finished" });
    expect(t("searchable"), JSON.stringify(t("searchable"))).toMatchObject({ status: "finished", engine: "tesseract" });
    expect(t("searchable").result.ocr).toMatchObject({ pages: [1] });
    expect(t("searchable").result.ocr.words).toBeGreaterThanOrEqual(3);
    expect(t("plain")).toMatchObject({ status: "finished", engine: "pdflib" });
    expect(t("ocr"), JSON.stringify(t("ocr"))).toMatchObject({ status: "finished", engine: "tesseract" });
    expect(t("ocr").result.ocr.words).toBeGreaterThanOrEqual(3);
    expect(t("deu"), JSON.stringify(t("deu"))).toMatchObject({ status: "error", code: "UNSUPPORTED" });
    expect(t("deu").message).toMatch(/deu is recognised by the native engine \(tesseract-native\)/);
  });
});
