/**
 * `password` on every operation that reads a PDF (issue 16): split, extract, rotate, watermark,
 * merge (one password for all, or one per input), convert to images and thumbnail open encrypted
 * corpus PDFs with their user or owner password, write unencrypted outputs (qpdf --show-encryption),
 * and answer INVALID_PASSWORD when it is wrong or missing. Passwords come from corpus/facts.json.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { extractPages } from "../../src/operations/pdf/extract";
import { mergePdf } from "../../src/operations/pdf/merge";
import { convertPdfToImage } from "../../src/operations/pdf/rasterize";
import { rotatePages } from "../../src/operations/pdf/rotate";
import { splitPages } from "../../src/operations/pdf/split";
import { pdfThumbnail } from "../../src/operations/pdf/thumbnail";
import { watermarkPdf } from "../../src/operations/pdf/watermark";
import { nodePdfiumEngine } from "../../src/runtime/node/pdfium";
import {
  corpusInput,
  dataOf,
  expectTaskError,
  FACTS,
  pageRotations,
  pdfinfo,
  pdftotext,
  pngSize,
  testContext,
  tmpFile,
} from "../support/pdf-helpers";

const ctx = testContext({ engines: { pdfium: nodePdfiumEngine() } });
const R6 = "pdf-encrypted/qpdf-enc-XI-R6-V5-U_view-O_master.pdf";
const R3 = "pdf-encrypted/qpdf-enc-R3-V2-U_view-O_master.pdf";
const user = (rel: string) => FACTS[rel]!.user_password as string;
const owner = (rel: string) => FACTS[rel]!.owner_password as string;
const pages = (rel: string) => FACTS[rel]!.pages as number;

/** True when qpdf says the output is not encrypted. */
const plain = (data: Uint8Array) =>
  execFileSync("qpdf", ["--show-encryption", tmpFile(data)], { encoding: "utf8" }).includes("File is not encrypted");

describe("password on the PDF operations", () => {
  it("split-pages opens with the user password; every part is unencrypted", async () => {
    const { files } = await splitPages.run([corpusInput(R6)], { password: user(R6) }, ctx);
    expect(files.length).toBe(pages(R6));
    for (const f of files.slice(0, 3)) {
      expect(plain(dataOf(f))).toBe(true);
      expect(Number(pdfinfo(f).Pages)).toBe(1);
    }
  });

  it("extract-pages and rotate-pages open with the owner password", async () => {
    const ex = await extractPages.run([corpusInput(R3)], { pages: "2,4-5", password: owner(R3) }, ctx);
    expect(plain(dataOf(ex.files[0]!))).toBe(true);
    expect(Number(pdfinfo(ex.files[0]!).Pages)).toBe(3);
    const rot = await rotatePages.run([corpusInput(R6)], { rotation: "+90", pages: "1", password: owner(R6) }, ctx);
    expect(plain(dataOf(rot.files[0]!))).toBe(true);
    expect(pageRotations(rot.files[0]!).slice(0, 2)).toEqual([90, 0]);
  });

  it("watermark opens with the password and stamps text pdftotext finds", async () => {
    const { files } = await watermarkPdf.run(
      [corpusInput(R6)],
      { text: "CONFIDENTIAL", pages: "1", password: user(R6) },
      ctx,
    );
    expect(plain(dataOf(files[0]!))).toBe(true);
    expect(pdftotext(files[0]!)).toContain("CONFIDENTIAL");
  });

  it("merge: one password for every encrypted input, or one per input in input order", async () => {
    const one = await mergePdf.run(
      [corpusInput(R6), corpusInput("pdf/pdfjs-rotation.pdf"), corpusInput(R3)],
      { output_format: "pdf", password: "view" },
      ctx,
    );
    expect(plain(dataOf(one.files[0]!))).toBe(true);
    expect(Number(pdfinfo(one.files[0]!).Pages)).toBe(
      pages(R6) + (FACTS["pdf/pdfjs-rotation.pdf"]!.pages as number) + pages(R3),
    );
    const each = await mergePdf.run(
      [corpusInput(R3), corpusInput("pdf/pdfjs-rotation.pdf"), corpusInput(R6)],
      { output_format: "pdf", password: [owner(R3), null, user(R6)] },
      ctx,
    );
    expect(Number(pdfinfo(each.files[0]!).Pages)).toBe(
      pages(R6) + (FACTS["pdf/pdfjs-rotation.pdf"]!.pages as number) + pages(R3),
    );
    const e = await expectTaskError(
      () =>
        mergePdf.run(
          [corpusInput("pdf/pdfjs-rotation.pdf"), corpusInput(R6)],
          { output_format: "pdf", password: ["", "wrong"] },
          ctx,
        ),
      "INVALID_PASSWORD",
    );
    expect(e.message).toContain("qpdf-enc-XI-R6-V5-U_view-O_master.pdf");
  });

  it("convert to png and thumbnail open with the password (PDFium)", async () => {
    const png = await convertPdfToImage.run(
      [corpusInput(R6)],
      { output_format: "png", pages: "1", pixel_density: 36, password: user(R6) },
      ctx,
    );
    expect(png.files.length).toBe(1);
    expect(pngSize(dataOf(png.files[0]!)).width).toBeGreaterThan(0);
    const th = await pdfThumbnail.run(
      [corpusInput(R3)],
      { output_format: "png", width: 100, password: owner(R3) },
      ctx,
    );
    expect(pngSize(dataOf(th.files[0]!)).width).toBe(100);
  });

  it.each([
    ["split-pages", () => splitPages.run([corpusInput(R6)], { password: "wrong" }, ctx)],
    ["extract-pages", () => extractPages.run([corpusInput(R6)], { pages: "1" }, ctx)],
    ["rotate-pages", () => rotatePages.run([corpusInput(R6)], { rotation: "90", password: "wrong" }, ctx)],
    ["watermark", () => watermarkPdf.run([corpusInput(R6)], { text: "x", password: "wrong" }, ctx)],
    ["merge", () => mergePdf.run([corpusInput(R6)], { output_format: "pdf" }, ctx)],
    [
      "convert to png",
      () => convertPdfToImage.run([corpusInput(R6)], { output_format: "png", password: "wrong" }, ctx),
    ],
    ["thumbnail", () => pdfThumbnail.run([corpusInput(R6)], { output_format: "png" }, ctx)],
  ] as const)("%s with a wrong or missing password is INVALID_PASSWORD", async (_, run) => {
    await expectTaskError(run as () => Promise<unknown>, "INVALID_PASSWORD");
  });
});
