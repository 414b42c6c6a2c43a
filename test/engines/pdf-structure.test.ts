/**
 * Document structure through the page operations (issue 16): outlines, links, named destinations,
 * AcroForm fields, embedded files and XMP on split, extract and merge outputs, judged by qpdf
 * (test/support/pdf-structure-oracle.ts reads `qpdf --json`) and compared with what
 * `qpdf --pages` keeps for the same selection. The links/named-destination fixture is written by
 * Ghostscript from pdfmark operators (no corpus PDF has links), so neither the input nor the oracle
 * comes from the code under test.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { extractPages } from "../../src/operations/pdf/extract";
import { mergePdf } from "../../src/operations/pdf/merge";
import { splitPages } from "../../src/operations/pdf/split";
import { pdfStructure, type PdfStructure } from "../support/pdf-structure-oracle";
import { bytesInput, corpusInput, CORPUS, dataOf, expectQpdfCheck, testContext, tmpFile } from "../support/pdf-helpers";

const ctx = testContext();
const dir = mkdtempSync(join(tmpdir(), "pdf-structure-"));

/**
 * Six pages; named destinations chap1…chap6; page 1 links to page 4 (explicit), chap5 (named) and
 * a URI; page 3 links to pages 1 and 2; page 5 has a text note; outlines Part A (1) › A.1 (2), A.2 (3);
 * Part B (4, closed) › B.1 (chap5, named), B.2 (6); Web (URI action).
 */
function fixturePostScript(): string {
  const pages: string[] = [];
  for (let n = 1; n <= 6; n++) {
    let s = `/Helvetica findfont 24 scalefont setfont 72 700 moveto (Page ${n}) show\n[ /Dest /chap${n} /View [/XYZ 0 792 null] /DEST pdfmark\n`;
    if (n === 1) {
      s += "[ /Rect [72 600 250 620] /Page 4 /View [/XYZ 0 792 null] /Subtype /Link /ANN pdfmark\n";
      s += "[ /Rect [72 560 250 580] /Dest /chap5 /Subtype /Link /ANN pdfmark\n";
      s +=
        "[ /Rect [72 520 250 540] /Action << /Subtype /URI /URI (https://example.com/) >> /Subtype /Link /ANN pdfmark\n";
    }
    if (n === 3) {
      s += "[ /Rect [72 600 250 620] /Page 1 /View [/XYZ 0 792 null] /Subtype /Link /ANN pdfmark\n";
      s += "[ /Rect [72 560 250 580] /Page 2 /View [/Fit] /Subtype /Link /ANN pdfmark\n";
    }
    if (n === 5) s += "[ /Rect [72 600 250 620] /Contents (a note) /Subtype /Text /ANN pdfmark\n";
    pages.push(`${s}showpage\n`);
  }
  const outlines = [
    "[ /Count 2 /Page 1 /Title (Part A) /OUT pdfmark",
    "[ /Page 2 /Title (A.1) /OUT pdfmark",
    "[ /Page 3 /Title (A.2) /OUT pdfmark",
    "[ /Count -2 /Page 4 /Title (Part B) /OUT pdfmark",
    "[ /Dest /chap5 /Title (B.1 named) /OUT pdfmark",
    "[ /Page 6 /Title (B.2) /OUT pdfmark",
    "[ /Action /URI /URI (https://example.com/) /Title (Web) /OUT pdfmark",
    "[ /Title (Structure fixture) /DOCINFO pdfmark",
  ];
  return `%!PS\n${pages.join("")}${outlines.join("\n")}\n`;
}

let fixture: string;
beforeAll(() => {
  writeFileSync(join(dir, "fixture.ps"), fixturePostScript());
  fixture = join(dir, "fixture.pdf");
  execFileSync("gs", [
    "-q",
    "-dNOPAUSE",
    "-dBATCH",
    "-dSAFER",
    "-sDEVICE=pdfwrite",
    `-sOutputFile=${fixture}`,
    join(dir, "fixture.ps"),
  ]);
});

const fixtureInput = () => bytesInput("fixture.pdf", new Uint8Array(readFileSync(fixture)));

/** What `qpdf <file> --pages . <range> --` keeps (qpdf keeps the whole catalog; items to removed pages dangle). */
function qpdfPages(file: string, range: string, password?: string): PdfStructure {
  const out = join(dir, `ref-${Math.random().toString(36).slice(2)}.pdf`);
  const r = spawnSync("qpdf", [
    ...(password ? [`--password=${password}`] : []),
    file,
    "--pages",
    ".",
    range,
    "--",
    out,
  ]);
  expect(r.status === 0 || r.status === 3, String(r.stderr)).toBe(true);
  return pdfStructure(out, password); // qpdf keeps the encryption
}

/** The outline items that point at a page of the file: "title→page". */
const targeted = (s: PdfStructure) => s.outlines.filter((o) => o.page !== null).map((o) => `${o.title}→${o.page}`);
/** Named destinations that resolve to a page of the file. */
const resolving = (s: PdfStructure) => Object.fromEntries(Object.entries(s.namedDests).filter(([, p]) => p !== null));
const fieldRows = (s: PdfStructure) => s.fields.map((f) => JSON.stringify([f.name, f.type, f.value, f.page])).sort();

describe("page operations keep the structure of the pages they keep", () => {
  it("extract keeps links between kept pages, re-targeted, and drops the ones to removed pages", async () => {
    const out = await extractPages.run([fixtureInput()], { pages: "1,4,5" }, ctx);
    const ours = pdfStructure(tmpFile(out.files[0]!));
    const ref = qpdfPages(fixture, "1,4,5");
    expectQpdfCheck(out.files[0]!);
    expect(ours.links).toEqual([
      [1, 2],
      [1, 3],
    ]); // page 4 (explicit) and chap5 (named), now pages 2 and 3
    expect(ours.links).toEqual(ref.links);
    expect(ours.danglingLinks).toBe(0);
    expect(ours.annotations).toEqual(ref.annotations); // the URI link and the text note too
    expect(ours.pageObjects).toBe(3); // no orphan copies of the pages the links pointed at
    expect(resolving(ours)).toEqual(resolving(ref));
    expect(resolving(ours)).toEqual({ chap1: 1, chap4: 2, chap5: 3 });
    expect(ours.xmp).toBe(true);
    expect(out.extra?.dropped).toMatchObject({ named_destinations: 3 });
  });

  it("extract keeps the outline items of kept pages (as qpdf --pages resolves them); an item of a removed page heads its kept children", async () => {
    const out = await extractPages.run([fixtureInput()], { pages: "3-5" }, ctx);
    const ours = pdfStructure(tmpFile(out.files[0]!));
    const ref = qpdfPages(fixture, "3-5");
    expect(targeted(ours).sort()).toEqual(targeted(ref).sort());
    expect(ours.outlines.map((o) => `${"  ".repeat(o.depth)}${o.title}:${o.page}`)).toEqual([
      "Part A:null",
      "  A.2:1",
      "Part B:2",
      "  B.1 named:3",
      "Web:null",
    ]);
    expect(ours.links).toEqual([]);
    expect(out.extra?.dropped).toMatchObject({ links: 2, outline_items: 2 }); // page 3's links to pages 1 and 2; A.1 and B.2
  });

  it("split: each part keeps its own page's links, outline items and named destination, and nothing else", async () => {
    const out = await splitPages.run([fixtureInput()], {}, ctx);
    expect(out.files.length).toBe(6);
    const parts = out.files.map((f) => pdfStructure(tmpFile(f)));
    for (const [i, part] of parts.entries()) {
      expectQpdfCheck(out.files[i]!);
      expect(part.pageObjects).toBe(1);
      expect(part.danglingLinks).toBe(0);
      expect(resolving(part)).toEqual({ [`chap${i + 1}`]: 1 });
      expect(targeted(part).sort()).toEqual(targeted(qpdfPages(fixture, String(i + 1))).sort());
    }
    expect(parts[0]!.annotations[0]).toEqual(["/Link"]); // the URI link; its page links went with their pages
    expect(out.extra?.dropped).toMatchObject({ links: 4 });
  });

  it("nested outlines of a corpus PDF: extract 2-5 keeps what qpdf --pages resolves", async () => {
    const rel = "pdf/pdfjs-nested_outline.pdf";
    const out = await extractPages.run([corpusInput(rel)], { pages: "2-5" }, ctx);
    const ours = pdfStructure(tmpFile(out.files[0]!));
    expect(targeted(ours).sort()).toEqual(targeted(qpdfPages(join(CORPUS, rel), "2-5")).sort());
    expect(targeted(ours).length).toBe(4);
  });

  it("an encrypted input's outlines survive extract with its password", async () => {
    const rel = "pdf-encrypted/qpdf-enc-R3-V2-U_view-O_master.pdf";
    const out = await extractPages.run([corpusInput(rel)], { pages: "5-20", password: "view" }, ctx);
    const ours = pdfStructure(tmpFile(out.files[0]!));
    const ref = qpdfPages(join(CORPUS, rel), "5-20", "view");
    expect(targeted(ours).sort()).toEqual(targeted(ref).sort());
    expect(targeted(ours).length).toBeGreaterThan(3);
  });

  it("merge keeps every input's form fields and values, renaming colliding names as qpdf does", async () => {
    const a = "pdf/pdfjs-js-buttons.pdf";
    const b = "pdf/pdfjs-annotation-text-widget.pdf";
    const out = await mergePdf.run([corpusInput(a), corpusInput(a), corpusInput(b)], { output_format: "pdf" }, ctx);
    expectQpdfCheck(out.files[0]!);
    const ours = pdfStructure(tmpFile(out.files[0]!));
    const refFile = join(dir, "merge-ref.pdf");
    spawnSync("qpdf", ["--empty", "--pages", join(CORPUS, a), join(CORPUS, a), join(CORPUS, b), "--", refFile]);
    const ref = pdfStructure(refFile);
    expect(ours.fields.length).toBe(17 + 17 + 7);
    expect(fieldRows(ours)).toEqual(fieldRows(ref));
    expect(ours.fields.some((f) => f.name === "Field1+1")).toBe(true);
    expect(ours.outlines.map((o) => `${o.title}→${o.page}`)).toEqual(["Blank Page→1", "Blank Page→2"]);
    expect(out.extra?.dropped).toMatchObject({ xfa: 1 });
  });

  it("extract from a merged form keeps only the fields of the kept page, like qpdf --pages", async () => {
    const a = "pdf/pdfjs-js-buttons.pdf";
    const b = "pdf/pdfjs-annotation-text-widget.pdf";
    const merged = await mergePdf.run([corpusInput(a), corpusInput(b)], { output_format: "pdf" }, ctx);
    const mergedFile = tmpFile(merged.files[0]!);
    const out = await extractPages.run([bytesInput("merged.pdf", dataOf(merged.files[0]!))], { pages: "2" }, ctx);
    const ours = pdfStructure(tmpFile(out.files[0]!));
    expect(fieldRows(ours)).toEqual(fieldRows(qpdfPages(mergedFile, "2")));
    expect(ours.fields.length).toBe(7);
    expect(ours.fields.every((f) => f.page === 1)).toBe(true);
  });

  it("embedded files: merge keeps every input's, extract keeps them, split reports them dropped", async () => {
    const att = "pdf/pdfjs-attachment.pdf";
    const enc = "pdf-encrypted/qpdf-enc-XI-R6-V5-U_attachment-encrypted-attachments.pdf";
    const merged = await mergePdf.run(
      [corpusInput(att), corpusInput(enc)],
      { output_format: "pdf", password: [null, "attachment"] },
      ctx,
    );
    const mergedFile = tmpFile(merged.files[0]!);
    expect(pdfStructure(mergedFile).attachments.sort()).toEqual(["attachment1.txt", "attachment2.png", "foo.txt"]);
    const show = (file: string, name: string, pw?: string) =>
      execFileSync("qpdf", [...(pw ? [`--password=${pw}`] : []), `--show-attachment=${name}`, file]);
    expect(show(mergedFile, "foo.txt").equals(show(join(CORPUS, att), "foo.txt"))).toBe(true);
    expect(show(mergedFile, "attachment2.png").equals(show(join(CORPUS, enc), "attachment2.png", "attachment"))).toBe(
      true,
    );

    const ex = await extractPages.run([corpusInput(att)], { pages: "1" }, ctx);
    expect(pdfStructure(tmpFile(ex.files[0]!)).attachments).toEqual(["foo.txt"]);
    const sp = await splitPages.run([corpusInput(att)], {}, ctx);
    expect(pdfStructure(tmpFile(sp.files[0]!)).attachments).toEqual([]);
    expect(sp.extra?.dropped).toMatchObject({ attachments: 1 });
  });

  /** What an operation's `extra.dropped` counts (extract-pages, split-pages: what the new file no longer holds). */
  type Dropped = { signatures_invalidated?: number };

  /** pdfsig's report on a PDF: "not signed", or a signature whose ranges do (or do not) cover the whole file. */
  const pdfsig = (path: string) => spawnSync("pdfsig", [path], { encoding: "utf8" }).stdout;

  it("an unsigned signature field is kept and invalidates nothing", async () => {
    const rel = "pdf/pdflib-with_signature.pdf";
    expect(pdfsig(join(CORPUS, rel))).toContain("The signature form field is not signed."); // the oracle: an empty /Sig field
    const out = await extractPages.run([corpusInput(rel)], { pages: "1" }, ctx);
    expect(pdfStructure(tmpFile(out.files[0]!)).fields.map((f) => f.type)).toEqual(["/Sig"]);
    expect((out.extra?.dropped as Dropped | undefined)?.signatures_invalidated ?? 0).toBe(0);
  });

  it("a signed signature field is kept and reported as no longer covering the document", async () => {
    // pyHanko's PAdES sample: pdfsig finds one valid signature over the whole file (its certificate has expired)
    const rel = "pdf/pyhanko-pades-signed.pdf";
    const before = pdfsig(join(CORPUS, rel));
    expect(before).toContain("Signature Validation: Signature is Valid.");
    expect(before).toContain("Total document signed");
    const out = await extractPages.run([corpusInput(rel)], { pages: "1" }, ctx);
    const path = tmpFile(out.files[0]!);
    expect(pdfStructure(path).fields.map((f) => f.type)).toEqual(["/Sig"]);
    expect((out.extra?.dropped as Dropped | undefined)?.signatures_invalidated).toBe(1);
    // the rewritten file keeps the signature dictionary, which no longer signs these bytes
    const after = pdfsig(path);
    expect(after).toContain("Signature Field Name: Sig1");
    expect(after).not.toContain("Total document signed");
  });
});
