/**
 * Page operations (merge, split, extract, rotate) on corpus PDFs, checked with qpdf and pdfinfo, and
 * page by page with pdftotext (expectPagesFrom): every output page must carry the text of the
 * source page it should come from, so a wrong or misordered page cannot pass (issue 11).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { extractPages } from "../../src/operations/pdf/extract";
import { mergePdf } from "../../src/operations/pdf/merge";
import { rotatePages } from "../../src/operations/pdf/rotate";
import { splitPages } from "../../src/operations/pdf/split";
import {
  CORPUS,
  corpusInput,
  corpusPageTexts,
  expectPagesFrom,
  expectQpdfCheck,
  expectTaskError,
  pageRotations,
  pageText,
  pdfinfo,
  type SourcePage,
  testContext,
  tmpFile,
} from "../support/pdf-helpers";

const ctx = testContext();
const CC = "pdf/cloudconvert-input.pdf"; // 31 pages, Title + Producer
const TWELVE = "pdf/gotenberg-pages_12.pdf";
const ROT = "pdf/pdfjs-rotation.pdf"; // /Rotate [0, 90]
const OUTLINE = "pdf/pdfjs-nested_outline.pdf"; // 9 pages
// Every page of these carries its own text ("Page 7"; "This is my second page…"; the CONPLAN
// sections; "Future Work …"), which expectPagesFrom verifies before relying on it.

/** Pages `first`..`last` of corpus file `rel` as sources. */
const pagesOf = (rel: string, first: number, last: number): SourcePage[] =>
  Array.from({ length: last - first + 1 }, (_, i) => [rel, first + i] as const);

describe("the page oracle", () => {
  it("accepts the right pages and rejects a wrong page, a wrong order and a missing page", () => {
    const twelve = new Uint8Array(readFileSync(join(CORPUS, TWELVE)));
    expectPagesFrom(twelve, pagesOf(TWELVE, 1, 12));
    const swapped: SourcePage[] = [[TWELVE, 2], [TWELVE, 1], ...pagesOf(TWELVE, 3, 12)];
    expect(() => expectPagesFrom(twelve, swapped)).toThrow(
      "output page 1 should be gotenberg-pages_12.pdf page 2, but is gotenberg-pages_12.pdf page 1",
    );
    const shifted: SourcePage[] = [...pagesOf(TWELVE, 1, 3), ...pagesOf(TWELVE, 5, 12), [TWELVE, 4]];
    expect(() => expectPagesFrom(twelve, shifted)).toThrow("output page 4 should be gotenberg-pages_12.pdf page 5");
    expect(() => expectPagesFrom(twelve, pagesOf(TWELVE, 1, 11))).toThrow("page count");
    const rot = new Uint8Array(readFileSync(join(CORPUS, ROT)));
    expect(() =>
      expectPagesFrom(rot, [
        [ROT, 1],
        [TWELVE, 2],
      ]),
    ).toThrow("output page 2 should be gotenberg-pages_12.pdf page 2, but is pdfjs-rotation.pdf page 2");
  });
});

describe("merge", () => {
  it("concatenates PDFs in input order and keeps the first input's document info", async () => {
    const { files } = await mergePdf.run(
      [corpusInput(CC), corpusInput(TWELVE), corpusInput(ROT)],
      { output_format: "pdf" },
      ctx,
    );
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
    expectPagesFrom(files[0], [...pagesOf(CC, 1, 31), ...pagesOf(TWELVE, 1, 12), ...pagesOf(ROT, 1, 2)]);
  });

  it("puts the pages of A before those of B, whichever comes first", async () => {
    const ab = await mergePdf.run([corpusInput(TWELVE), corpusInput(OUTLINE)], { output_format: "pdf" }, ctx);
    expectPagesFrom(ab.files[0], [...pagesOf(TWELVE, 1, 12), ...pagesOf(OUTLINE, 1, 9)]);
    const ba = await mergePdf.run([corpusInput(OUTLINE), corpusInput(TWELVE)], { output_format: "pdf" }, ctx);
    expectPagesFrom(ba.files[0], [...pagesOf(OUTLINE, 1, 9), ...pagesOf(TWELVE, 1, 12)]);
  });

  it("turns JPEG and PNG inputs into pages of their pixel size", async () => {
    const inputs = [
      corpusInput("images/cloudconvert-input.png"),
      corpusInput(ROT),
      corpusInput("images/exif-orientation-Landscape_1.jpg"),
    ];
    const { files } = await mergePdf.run(inputs, { output_format: "pdf", filename: "all.pdf" }, ctx);
    expect(files[0].filename).toBe("all.pdf");
    expectQpdfCheck(files[0]);
    expect(pdfinfo(files[0]).Pages).toBe("4");
    expect(pdfinfo(files[0], undefined, ["-f", "1", "-l", "1"])["Page    1 size"]).toMatch(/^1015 x 668 pts/);
    expect(pdfinfo(files[0], undefined, ["-f", "4", "-l", "4"])["Page    4 size"]).toMatch(/^1800 x 1200 pts/);
    // the PDF's pages sit between the two images, in order; the image pages carry no text
    const path = tmpFile(files[0]);
    expect([1, 2, 3, 4].map((n) => pageText(path, n))).toEqual(["", ...corpusPageTexts(ROT), ""]);
    expect(corpusPageTexts(ROT)[0]).not.toBe(corpusPageTexts(ROT)[1]);
  });

  it("refuses other formats with a message saying what to do", async () => {
    const err = await expectTaskError(
      () => mergePdf.run([corpusInput(CC), corpusInput("images/pillow-hopper.tif")], { output_format: "pdf" }, ctx),
      "INVALID_CONVERSION_TYPE",
    );
    expect(err.message).toContain("pillow-hopper.tif (tif) must be converted to PDF first");
  });

  it("needs the password of encrypted inputs", async () => {
    await expectTaskError(
      () =>
        mergePdf.run([corpusInput("pdf-encrypted/qpdf-enc-R3-V2-U_view-O_master.pdf")], { output_format: "pdf" }, ctx),
      "INVALID_PASSWORD",
    );
  });
});

describe("pdf/split-pages", () => {
  it("writes one PDF per page named name-N.pdf with the document info", async () => {
    const { files } = await splitPages.run([corpusInput(TWELVE)], {}, ctx);
    expect(files.map((f) => f.filename)).toEqual(
      Array.from({ length: 12 }, (_, i) => `gotenberg-pages_12-${i + 1}.pdf`),
    );
    files.forEach((f, i) => {
      expectQpdfCheck(f);
      expectPagesFrom(f, [[TWELVE, i + 1]]); // one page: page i+1 of the source
    });
  });

  it("splits a long real document page by page", async () => {
    const { files } = await splitPages.run([corpusInput(CC)], {}, ctx);
    expect(files).toHaveLength(31);
    files.forEach((f, i) => expectPagesFrom(f, [[CC, i + 1]]));
  });

  it("keeps Title and Producer in every part and supports %d in filename", async () => {
    const { files } = await splitPages.run([corpusInput(ROT)], { filename: "part-%02d.pdf" }, ctx);
    expect(files.map((f) => f.filename)).toEqual(["part-01.pdf", "part-02.pdf"]);
    expect(pdfinfo(files[1]).Title).toBe("Microsoft Word - Document1");
    expect(pdfinfo(files[1]).Producer).toBe("Acrobat Distiller 8.1.0 (Windows)");
    expect(pageRotations(files[1])).toEqual([90]);
    expectPagesFrom(files[0], [[ROT, 1]]);
    expectPagesFrom(files[1], [[ROT, 2]]);
  });
});

describe("pdf/extract-pages", () => {
  it("extracts pages and ranges in the given order, open range included", async () => {
    const { files } = await extractPages.run([corpusInput(TWELVE)], { pages: "1,3,5-7,11-" }, ctx);
    expect(files[0].filename).toBe("gotenberg-pages_12.pdf");
    expectQpdfCheck(files[0]);
    expectPagesFrom(files[0], [[TWELVE, 1], [TWELVE, 3], ...pagesOf(TWELVE, 5, 7), ...pagesOf(TWELVE, 11, 12)]);
  });

  it.each([
    // pages.ts: "in the order given (duplicates kept)"
    [
      "3,1",
      [
        [CC, 3],
        [CC, 1],
      ],
    ],
    ["30-,2-4,1", [[CC, 30], [CC, 31], ...pagesOf(CC, 2, 4), [CC, 1]]],
    [
      "9,5-6,9",
      [
        [OUTLINE, 9],
        [OUTLINE, 5],
        [OUTLINE, 6],
        [OUTLINE, 9],
      ],
    ],
  ] as [string, SourcePage[]][])("%s takes those pages in that order", async (pages, from) => {
    const { files } = await extractPages.run([corpusInput(from[0][0])], { pages }, ctx);
    expectQpdfCheck(files[0]);
    expectPagesFrom(files[0], from);
  });

  it("keeps the document info", async () => {
    const { files } = await extractPages.run([corpusInput(CC)], { pages: "2-3" }, ctx);
    expect(pdfinfo(files[0]).Producer).toBe("ScanSoft PDF Create! 7");
    expectPagesFrom(files[0], pagesOf(CC, 2, 3));
  });

  it("names the missing page at run time", async () => {
    const err = await expectTaskError(
      () => extractPages.run([corpusInput(TWELVE)], { pages: "1,13" }, ctx),
      "INVALID_PAGES",
    );
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
    expectPagesFrom(files[0], pagesOf(ROT, 1, 2)); // turned in place, not swapped or redrawn
  });

  it("rotates only the pages asked for", async () => {
    const { files } = await rotatePages.run([corpusInput(TWELVE)], { rotation: "+90", pages: "2,4-5,12-" }, ctx);
    expect(pageRotations(files[0])).toEqual([0, 90, 0, 90, 90, 0, 0, 0, 0, 0, 0, 90]);
    expectPagesFrom(files[0], pagesOf(TWELVE, 1, 12));
  });

  it("refuses rotations that are not quarter turns", () => {
    expect(rotatePages.params.safeParse({ rotation: "45" }).success).toBe(false);
    expect(rotatePages.params.safeParse({ rotation: "+90" }).success).toBe(true);
    expect(rotatePages.params.safeParse({ rotation: -90 }).success).toBe(true);
  });
});
