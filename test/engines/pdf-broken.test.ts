/**
 * Broken and hostile PDFs (corpus/broken): every operation ends quickly, either in a TaskError
 * with a code or with an output that passes qpdf --check; budgets refuse before heavy work.
 */
import { describe, expect, it } from "vitest";
import { TaskError } from "../../src/engines/errors";
import { decryptPdf } from "../../src/operations/pdf/decrypt";
import { encryptPdf } from "../../src/operations/pdf/encrypt";
import { extractPages } from "../../src/operations/pdf/extract";
import { mergePdf } from "../../src/operations/pdf/merge";
import { convertPdfToImage } from "../../src/operations/pdf/rasterize";
import { rotatePages } from "../../src/operations/pdf/rotate";
import { splitPages } from "../../src/operations/pdf/split";
import { pdfThumbnail } from "../../src/operations/pdf/thumbnail";
import { watermarkPdf } from "../../src/operations/pdf/watermark";
import { ocrPdf } from "../../src/operations/pdf/ocr";
import { nodeTesseractEngine } from "../../src/runtime/node/tesseract";
import type { OperationHandler } from "../../src/operations/types";
import { nodePdfiumEngine } from "../../src/runtime/node/pdfium";
import { DEFAULT_PDF_BUDGET } from "../../src/engines/pdflib/budget";
import { bytesInput, corpusInput, expectQpdfCheck, expectTaskError, testContext } from "../support/pdf-helpers";

const ctx = testContext({ engines: { pdfium: nodePdfiumEngine(), tesseract: nodeTesseractEngine() } });

const OPS: [string, OperationHandler, Record<string, unknown>][] = [
  ["merge", mergePdf, { output_format: "pdf" }],
  ["split", splitPages, {}],
  ["extract", extractPages, { pages: "1" }],
  ["rotate", rotatePages, { rotation: "90" }],
  ["encrypt", encryptPdf, { set_password: "x" }],
  ["decrypt", decryptPdf, {}],
  ["watermark", watermarkPdf, { text: "W" }],
  ["convert", convertPdfToImage, { output_format: "png", pixel_density: 72 }],
  ["thumbnail", pdfThumbnail, { output_format: "png", width: 100 }],
  ["ocr", ocrPdf, { pages: "1" }],
];

/** What each broken file must give: a code, or "ok" (processed within limits). */
const EXPECTED: Record<string, Partial<Record<string, string>> & { default: string }> = {
  "ocrmypdf-invalid.pdf": { default: "OPEN_FAILED" }, // header + %%EOF only
  "pdfjs-bomb_giant.pdf": { default: "OPEN_FAILED", convert: "ok", thumbnail: "ok" }, // PDFium draws the bogus page blank in ms
  "ocrmypdf-hugemono.pdf": { default: "ok", convert: "OVER_BUDGET", thumbnail: "OVER_BUDGET", ocr: "OVER_BUDGET" }, // 35000² px image
  "qpdf-append-xref-loop.pdf": { default: "ok" }, // /Prev loop: recovered, 30 pages
  "pdfjs-scan-bad.pdf": { default: "ok" }, // no xref, truncated JPEG: recovered
};

describe.each(Object.keys(EXPECTED))("broken/%s", (file) => {
  it.each(OPS.map(([name, h, p]) => [name, h, p] as const))(
    "%s ends with the expected outcome (its speed: npm run bench)",
    async (name, handler, params) => {
      const want = EXPECTED[file][name] ?? EXPECTED[file].default;
      try {
        const { files } = await handler.run([corpusInput(`broken/${file}`)], params, ctx);
        expect(want, `succeeded, expected ${want}`).toBe("ok");
        expect(files.length).toBeGreaterThan(0);
        // pdf/ocr hands back a PDF it has nothing to add to byte for byte, broken or not (pages with text are left alone)
        const unchanged =
          name === "ocr" &&
          Buffer.from(files[0].data as Uint8Array).equals(Buffer.from(await corpusInput(`broken/${file}`).bytes()));
        if (files[0].filename.endsWith(".pdf") && name !== "encrypt" && !unchanged) expectQpdfCheck(files[0]);
      } catch (err) {
        expect(err, String(err)).toBeInstanceOf(TaskError);
        expect((err as TaskError).code, (err as Error).message).toBe(want);
      }
    },
  );
});

describe("budgets are checked before the work", () => {
  it("refuses inputs over their engine's budget by their stored size, without reading them", async () => {
    const sized = (size: number) => ({
      ...corpusInput("pdf/pdfjs-rotation.pdf"),
      size,
      bytes: async () => {
        throw new Error("must not be read");
      },
    });
    // over every PDF engine's budget
    for (const [, handler, params] of OPS)
      await expectTaskError(() => handler.run([sized(101 * 1024 * 1024)], params, ctx), "OVER_BUDGET");
    // pdf-lib's own (16 MiB, issue 49: an isolate's 128 MB), for the operations only it serves here
    for (const [name, handler, params] of OPS.filter(([n]) =>
      ["merge", "split", "extract", "rotate", "encrypt", "decrypt", "watermark"].includes(n),
    ))
      await expectTaskError(
        () => handler.run([sized(DEFAULT_PDF_BUDGET.maxBytes + 1)], params, ctx),
        "OVER_BUDGET",
      ).then((e) => expect(e.message, name).toMatch(/MiB|bytes/));
  });

  it("refuses more than 2000 pages before copying any", async () => {
    const { PDFDocument } = await import("@cantoo/pdf-lib");
    const doc = await PDFDocument.create();
    for (let i = 0; i < 2001; i++) doc.addPage([10, 10]);
    const many = bytesInput("many.pdf", await doc.save());
    const err = await expectTaskError(() => splitPages.run([many], {}, ctx), "OVER_BUDGET");
    expect(err.message).toBe("many.pdf has 2001 pages; at most 2000 pages are processed per PDF.");
    await expectTaskError(
      () => convertPdfToImage.run([many], { output_format: "png", pages: "1" }, ctx),
      "OVER_BUDGET",
    );
  });

  it("refuses a rasterisation whose pages add up to too many pixels", async () => {
    const err = await expectTaskError(
      () =>
        convertPdfToImage.run(
          [corpusInput("pdf/cloudconvert-input.pdf")],
          { output_format: "png", pixel_density: 600 },
          ctx,
        ),
      "OVER_BUDGET",
    );
    expect(err.message).toMatch(/megapixels/);
  });

  it("refuses what is not a PDF", async () => {
    await expectTaskError(
      () => rotatePages.run([bytesInput("x.pdf", new TextEncoder().encode("hello"))], { rotation: "90" }, ctx),
      "OPEN_FAILED",
    );
    await expectTaskError(
      () =>
        convertPdfToImage.run([bytesInput("x.pdf", new TextEncoder().encode("hello"))], { output_format: "png" }, ctx),
      "OPEN_FAILED",
    );
  });
});
