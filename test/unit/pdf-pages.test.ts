/** Page operations (merge, split, extract, rotate) on corpus PDFs, checked with qpdf and pdfinfo. */
import { describe, expect, it } from "vitest";
import { extractPages } from "../../src/operations/pdf/extract";
import { mergePdf } from "../../src/operations/pdf/merge";
import { rotatePages } from "../../src/operations/pdf/rotate";
import { splitPages } from "../../src/operations/pdf/split";
import { corpusInput, expectQpdfCheck, expectTaskError, pageRotations, pdfinfo, testContext } from "./pdf-helpers";

const ctx = testContext();
const CC = "pdf/cloudconvert-input.pdf"; // 31 pages, Title + Producer
const TWELVE = "pdf/gotenberg-pages_12.pdf";
const ROT = "pdf/pdfjs-rotation.pdf"; // /Rotate [0, 90]

describe("merge", () => {
  it("concatenates PDFs in input order and keeps the first input's document info", async () => {
    const { files } = await mergePdf.run([corpusInput(CC), corpusInput(TWELVE), corpusInput(ROT)], { output_format: "pdf" }, ctx);
    expect(files).toHaveLength(1);
    expect(files[0].filename).toBe("cloudconvert-input.pdf");
    expectQpdfCheck(files[0]);
    const info = pdfinfo(files[0]);
    expect(info.Pages).toBe("45");
    expect(info.Title).toMatch(/^Microsoft Word - CONPLAN 8888-11/);
    expect(info.Producer).toBe("ScanSoft PDF Create! 7");
    // order: page 32 is the first 12-page page (446.25 x 631.5 pt), page 45 the rotated one
    expect(pdfinfo(files[0], undefined, ["-f", "32", "-l", "32"])["Page   32 size"]).toMatch(/^446\.25 x 631\.5/);
    expect(pageRotations(files[0]).slice(-2)).toEqual([0, 90]);
  });

  it("turns JPEG and PNG inputs into pages of their pixel size", async () => {
    const inputs = [corpusInput("images/cloudconvert-input.png"), corpusInput(ROT), corpusInput("images/exif-orientation-Landscape_1.jpg")];
    const { files } = await mergePdf.run(inputs, { output_format: "pdf", filename: "all.pdf" }, ctx);
    expect(files[0].filename).toBe("all.pdf");
    expectQpdfCheck(files[0]);
    expect(pdfinfo(files[0]).Pages).toBe("4");
    expect(pdfinfo(files[0], undefined, ["-f", "1", "-l", "1"])["Page    1 size"]).toMatch(/^1015 x 668 pts/);
    expect(pdfinfo(files[0], undefined, ["-f", "4", "-l", "4"])["Page    4 size"]).toMatch(/^1800 x 1200 pts/);
  });

  it("refuses other formats with a message saying what to do", async () => {
    const err = await expectTaskError(() => mergePdf.run([corpusInput(CC), corpusInput("images/pillow-hopper.tif")], { output_format: "pdf" }, ctx), "INVALID_CONVERSION_TYPE");
    expect(err.message).toContain("pillow-hopper.tif (tif) must be converted to PDF first");
  });

  it("needs the password of encrypted inputs", async () => {
    await expectTaskError(() => mergePdf.run([corpusInput("pdf-encrypted/qpdf-enc-R3-V2-U_view-O_master.pdf")], { output_format: "pdf" }, ctx), "INVALID_PASSWORD");
  });
});

describe("pdf/split-pages", () => {
  it("writes one PDF per page named name-N.pdf with the document info", async () => {
    const { files } = await splitPages.run([corpusInput(TWELVE)], {}, ctx);
    expect(files.map((f) => f.filename)).toEqual(Array.from({ length: 12 }, (_, i) => `gotenberg-pages_12-${i + 1}.pdf`));
    for (const f of files) {
      expectQpdfCheck(f);
      expect(pdfinfo(f).Pages).toBe("1");
    }
  });

  it("keeps Title and Producer in every part and supports %d in filename", async () => {
    const { files } = await splitPages.run([corpusInput(ROT)], { filename: "part-%02d.pdf" }, ctx);
    expect(files.map((f) => f.filename)).toEqual(["part-01.pdf", "part-02.pdf"]);
    expect(pdfinfo(files[1]).Title).toBe("Microsoft Word - Document1");
    expect(pdfinfo(files[1]).Producer).toBe("Acrobat Distiller 8.1.0 (Windows)");
    expect(pageRotations(files[1])).toEqual([90]);
  });
});

describe("pdf/extract-pages", () => {
  it("extracts pages and ranges in the given order, open range included", async () => {
    const { files } = await extractPages.run([corpusInput(TWELVE)], { pages: "1,3,5-7,11-" }, ctx);
    expect(files[0].filename).toBe("gotenberg-pages_12.pdf");
    expectQpdfCheck(files[0]);
    expect(pdfinfo(files[0]).Pages).toBe("7");
  });

  it("keeps the document info", async () => {
    const { files } = await extractPages.run([corpusInput(CC)], { pages: "2-3" }, ctx);
    expect(pdfinfo(files[0]).Producer).toBe("ScanSoft PDF Create! 7");
  });

  it("names the missing page at run time", async () => {
    const err = await expectTaskError(() => extractPages.run([corpusInput(TWELVE)], { pages: "1,13" }, ctx), "INVALID_PAGES");
    expect(err.message).toBe("pages: page 13 does not exist; gotenberg-pages_12.pdf has 12 pages.");
  });

  it("refuses bad syntax at creation", () => {
    expect(extractPages.check!({ pages: "1,x" })[0]).toMatch(/^pages: "x" is not a page or a range/);
    expect(extractPages.params.safeParse({}).success).toBe(false);
  });
});

describe("pdf/rotate-pages", () => {
  it.each([
    ["+90", [90, 180]],
    ["90", [90, 180]],
    ["-90", [270, 0]],
    ["270", [270, 0]],
    ["180", [180, 270]],
  ])("rotation %s turns every page relative to its /Rotate", async (rotation, expected) => {
    const { files } = await rotatePages.run([corpusInput(ROT)], { rotation }, ctx);
    expectQpdfCheck(files[0]);
    expect(pageRotations(files[0])).toEqual(expected);
    expect(pdfinfo(files[0]).Title).toBe("Microsoft Word - Document1");
  });

  it("rotates only the pages asked for", async () => {
    const { files } = await rotatePages.run([corpusInput(TWELVE)], { rotation: "+90", pages: "2,4-5,12-" }, ctx);
    expect(pageRotations(files[0])).toEqual([0, 90, 0, 90, 90, 0, 0, 0, 0, 0, 0, 90]);
  });

  it("refuses rotations that are not quarter turns", () => {
    expect(rotatePages.params.safeParse({ rotation: "45" }).success).toBe(false);
    expect(rotatePages.params.safeParse({ rotation: "+90" }).success).toBe(true);
    expect(rotatePages.params.safeParse({ rotation: -90 }).success).toBe(true);
  });
});
