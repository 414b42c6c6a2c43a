/**
 * OCR through the Workers as deployed (issue 17): text drawn on a white image by the image engine
 * Worker (watermark, its face from the fonts Worker), then convert → pdf with `ocr` recognised by
 * the tesseract engine Worker over its TESSERACT binding, and pdf/ocr of that PDF's plain twin.
 * NATIVE_ENGINE is "off" here, so a language only native tesseract reads ends with the WebAssembly
 * row's UNSUPPORTED naming the native engine (the hand-off has nowhere to go) rather than hanging.
 */
import { describe, expect, it } from "vitest";
import { b64, createJob, taskByName, waitJob, whiteBmp } from "./helpers";

const TEXT = "QUICK BROWN FOX";

describe("OCR in the tesseract engine Worker", () => {
  it("an image with text → searchable PDF (convert, ocr) and a plain PDF → pdf/ocr", async () => {
    const job = await createJob({
      in: { operation: "import/base64", file: b64(whiteBmp(900, 200)), filename: "in.bmp" },
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
