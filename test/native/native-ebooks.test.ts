/**
 * E-books (issue 33) through the operations and the native engine's calibre row: every e-book of the
 * corpus (EPUB 2 and 3, MOBI, AZW3, FB2, CBZ) to every output the catalogue lists (azw3, epub, lrf, mobi,
 * oeb, pdb, pdf, rtf, txt); the other formats calibre reads (lit, pml, rb, tcr, txtz, htmlz, lrf,
 * pdb, azw, prc, cbc) read back from files calibre wrote; the PDF options (paper size, custom size,
 * margins, base font size), title/author metadata and a cover; DRM-protected MOBI and EPUB ending in a
 * clear UNSUPPORTED. Judged outside calibre: each output's own signature, unzip (EPUB/OEB members and
 * chapter text), pdfinfo/pdftotext/pdfimages, and the source's text read by unzip/XML/PalmDOC
 * (test/support/ebook-oracles.ts).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/runner/execute";
import { FIXTURES } from "../support/catalogue-fixtures";
import { corpusPath } from "../support/corpus";
import { nativeEngineForFile } from "../support/native-engine";
import { bytesInput, dataOf, expectTaskError, testContext } from "../support/pdf-helpers";
import {
  storedRar,
  mobiText,
  pdfInfo,
  pdfText,
  plain,
  saved,
  signatureProblem,
  zipNames,
  zipText,
} from "../support/ebook-oracles";
import { scaled } from "../support/time-scale";

const native = nativeEngineForFile();

const ctx = (files: Record<string, { filename: string; data: Uint8Array }> = {}) =>
  testContext({
    engines: native.engines(),
    taskFiles: async (name) => (files[name] ? [bytesInput(files[name]!.filename, files[name]!.data)] : []),
  });
const corpus = (rel: string) => new Uint8Array(readFileSync(corpusPath(rel)));
const utf8 = (s: string) => new TextEncoder().encode(s);
const norm = (s: string) => s.replace(/[\s\u00a0\ufeff\u2060-]+/g, " ").trim();

/**
 * The corpus e-books and a run of words from each one's text, read without calibre: the EPUBs' chapter
 * XHTML by unzip, the FB2's XML, the MOBI/AZW3's PalmDOC text records; the CBZ has pages, not text.
 */
const BOOKS: { rel: string; words: () => string | null; title: string; outputs?: string[] }[] = [
  {
    rel: "ebooks/tika-testEPUB_multi-metadata-vals.epub",
    words: () =>
      /We went through the old gateway/.exec(
        plain(zipText(corpusPath("ebooks/tika-testEPUB_multi-metadata-vals.epub"), "epub/text/chapter-1.xhtml")),
      )![0],
    title: "The Inheritors",
  },
  {
    rel: "ebooks/filetype-fixture.epub",
    words: () =>
      norm(plain(zipText(corpusPath("ebooks/filetype-fixture.epub"), "*.xhtml"))).includes("Node.js") ? "Node.js" : "",
    title: "Node.js v0.10.26 Manual & Documentation",
    // a second EPUB input: two outputs (its 377-page PDF alone takes ~30 s; the other EPUB covers every output)
    outputs: ["mobi", "txt"],
  },
  {
    rel: "ebooks/libmobi-sample-cp1252.mobi",
    words: () =>
      /This is a sample for testing libmobi project/.exec(mobiText(corpus("ebooks/libmobi-sample-cp1252.mobi")))![0],
    title: "Libmobi test sample",
  },
  {
    rel: "ebooks/libmobi-sample-obfuscated-fonts.azw3",
    words: () => /Font obfuscation test/.exec(mobiText(corpus("ebooks/libmobi-sample-obfuscated-fonts.azw3")))![0],
    title: "font",
  },
  {
    rel: "ebooks/tika-test.fb2",
    words: () =>
      /<p>(Представляется логичным, что искусство индуктивно)/.exec(
        readFileSync(corpusPath("ebooks/tika-test.fb2"), "utf8"),
      )![1]!,
    title: "Война и мир",
  },
  { rel: "ebooks/comicbox-Captain-Science-001.cbz", words: () => null, title: "" },
];

/** The text of an output as an independent tool reads it, or null for formats read only by their signature. */
function textOf(format: string, data: Uint8Array): string | null {
  const path = saved(data, format === "oeb" ? "zip" : format);
  if (format === "txt") return norm(new TextDecoder().decode(data));
  if (format === "pdf") return norm(pdfText(path));
  if (format === "epub" || format === "oeb") return norm(plain(zipText(path, "*html")));
  if (format === "mobi" || format === "azw3") return norm(mobiText(data));
  if (format === "rtf") return null; // RTF escapes non-ASCII text (\uN), read by its signature only
  return null;
}

/** Runs convert on `data` named `name` to `format` with extra task parameters. */
async function convert(name: string, data: Uint8Array, format: string, extra: Record<string, unknown> = {}, c = ctx()) {
  return execute("convert", { output_format: format, ...extra }, [bytesInput(name, data)], c);
}

const CATALOGUE_OUTPUTS = ["azw3", "epub", "lrf", "mobi", "oeb", "pdb", "pdf", "rtf", "txt"];

describe("every corpus e-book to every catalogue output (signatures, unzip, pdfinfo/pdftotext, source text)", () => {
  for (const book of BOOKS) {
    const name = book.rel.split("/").pop()!;
    for (const format of book.outputs ?? CATALOGUE_OUTPUTS) {
      it(
        `${name} → ${format}`,
        async () => {
          const r = await convert(name, corpus(book.rel), format);
          expect(r.engine.name).toBe("calibre");
          const file = r.out.files[0]!;
          expect(file.filename).toBe(name.replace(/\.\w+$/, `.${format === "oeb" ? "zip" : format}`));
          const out = dataOf(file);
          expect(signatureProblem(format, out)).toBeNull();
          if (format === "epub" || format === "oeb") {
            const names = zipNames(saved(out, "zip"));
            expect(names.some((n) => n.endsWith(".opf"))).toBe(true);
            expect(names.some((n) => /\.x?html?$/.test(n))).toBe(true);
          }
          if (format === "pdf") {
            const path = saved(out, "pdf");
            expect(Number(pdfInfo(path).Pages)).toBeGreaterThanOrEqual(1);
            if (book.rel.endsWith(".cbz")) {
              // the comic's 5 JPEG pages are images of the PDF (pdfimages lists them)
              const list = spawnSync("pdfimages", ["-list", path], { encoding: "utf8" }).stdout.split("\n").slice(2);
              expect(list.filter((l) => l.trim()).length).toBeGreaterThanOrEqual(5);
            }
            if (book.title) expect(pdfInfo(path).Title).toContain(book.title);
          }
          const want = book.words();
          const got = textOf(format, out);
          if (want && got !== null) expect(got).toContain(norm(want));
        },
        scaled(180_000),
      );
    }
  }
});

describe("the other formats calibre reads, each from a file calibre wrote, back to EPUB with the text", () => {
  const SOURCE = "ebooks/libmobi-sample-cp1252.mobi";
  const words = () => /This is a sample for testing libmobi project/.exec(mobiText(corpus(SOURCE)))![0];
  for (const format of ["lit", "rb", "tcr", "txtz", "htmlz", "fb2", "azw", "prc", "lrf", "pdb"]) {
    it(
      `mobi → ${format} (its signature) → epub (the MOBI's text)`,
      async () => {
        const first = dataOf((await convert("sample.mobi", corpus(SOURCE), format)).out.files[0]!);
        expect(signatureProblem(format, first)).toBeNull();
        const back = dataOf((await convert(`sample.${format}`, first, "epub")).out.files[0]!);
        expect(signatureProblem("epub", back)).toBeNull();
        expect(norm(plain(zipText(saved(back, "epub"), "*html")))).toContain(norm(words()));
      },
      scaled(180_000),
    );
  }

  it(
    "pml (Palm Markup Language, written here by hand) → epub with its text",
    async () => {
      const pml = utf8("\\x\\bA Palm Book\\b\\x\n\nPalm markup body text here.\n\n\\iItalic words\\i.\n");
      const out = dataOf((await convert("hand.pml", pml, "epub")).out.files[0]!);
      const text = norm(plain(zipText(saved(out, "epub"), "*html")));
      expect(text).toContain("Palm markup body text here.");
      expect(text).toContain("Italic words");
    },
    scaled(120_000),
  );

  it(
    "chm (tika's testChm.chm, a real HTML Help file) → epub and txt with its pages' text (7-Zip reads the CHM)",
    async () => {
      // calibre 6.13's own CHM input fails on every file ('HTMLInput' object has no attribute 'root_dir_of_input'):
      // the engine runs it through container/engines/calibre/chm_convert.py
      const path = join(FIXTURES, "ebook", "tika-testChm.chm");
      const page = spawnSync("7z", ["x", "-so", path, "ocx_alink.htm"], { encoding: "latin1" }).stdout;
      const words = /Creates Associative links \(ALinks\)/.exec(norm(plain(page)))![0];
      const chm = new Uint8Array(readFileSync(path));
      const epub = dataOf((await convert("testChm.chm", chm, "epub")).out.files[0]!);
      expect(signatureProblem("epub", epub)).toBeNull();
      expect(norm(plain(zipText(saved(epub, "epub"), "*htm*")))).toContain(words);
      const txt = dataOf((await convert("testChm.chm", chm, "txt")).out.files[0]!);
      expect(norm(new TextDecoder().decode(txt))).toContain(words);
    },
    scaled(180_000),
  );

  it(
    "docx is written too (a Word package with the text in word/document.xml)",
    async () => {
      const out = dataOf((await convert("sample.mobi", corpus(SOURCE), "docx")).out.files[0]!);
      expect(norm(plain(zipText(saved(out, "docx"), "word/document.xml")))).toContain(norm(words()));
    },
    scaled(120_000),
  );

  for (const format of ["pdf", "epub"]) {
    it(
      `cbr (a RAR 4 of the corpus comic's 5 JPEG pages, written here) → ${format} with the 5 pages`,
      async () => {
        const cbz = corpusPath("ebooks/comicbox-Captain-Science-001.cbz");
        const pages = zipNames(cbz).filter((n) => /\.jpe?g$/i.test(n));
        expect(pages).toHaveLength(5);
        const rar = storedRar(
          pages.map((name) => ({ name, data: new Uint8Array(spawnSync("unzip", ["-p", cbz, name]).stdout as Buffer) })),
        );
        const out = dataOf((await convert("comic.cbr", rar, format)).out.files[0]!);
        expect(signatureProblem(format, out)).toBeNull();
        const path = saved(out, format);
        const images =
          format === "pdf"
            ? spawnSync("pdfimages", ["-list", path], { encoding: "utf8" })
                .stdout.split("\n")
                .slice(2)
                .filter((l) => l.trim())
            : zipNames(path).filter((n) => /\.(jpe?g|png)$/i.test(n));
        expect(images.length).toBeGreaterThanOrEqual(5);
      },
      scaled(120_000),
    );
  }

  it(
    "cbc (a zip of comics with comics.txt) → pdf with the comic's pages",
    async () => {
      const dir = saved(new Uint8Array(), "d").replace(/\.d$/, "-cbc");
      spawnSync("mkdir", ["-p", dir]);
      spawnSync("cp", [corpusPath("ebooks/comicbox-Captain-Science-001.cbz"), `${dir}/one.cbz`]);
      spawnSync("sh", [
        "-c",
        `cd '${dir}' && printf 'one.cbz:Captain Science\\n' > comics.txt && zip -q -X ../comics.cbc comics.txt one.cbz`,
      ]);
      const cbc = new Uint8Array(readFileSync(`${dir}/../comics.cbc`));
      const out = dataOf((await convert("comics.cbc", cbc, "pdf")).out.files[0]!);
      const list = spawnSync("pdfimages", ["-list", saved(out, "pdf")], { encoding: "utf8" })
        .stdout.split("\n")
        .slice(2);
      expect(list.filter((l) => l.trim()).length).toBeGreaterThanOrEqual(5);
    },
    scaled(120_000),
  );
});

describe("options: PDF page size and margins, base font size, title/author, cover", () => {
  const FB2 = "ebooks/tika-test.fb2";

  it(
    "page_format a5 → every page 419.53 × 595.28 pt (pdfinfo)",
    async () => {
      const out = dataOf((await convert("b.fb2", corpus(FB2), "pdf", { page_format: "a5" })).out.files[0]!);
      const size = pdfInfo(saved(out, "pdf"))["Page size"]!;
      const [w, h] = size
        .split(" ")
        .filter((x) => /^[\d.]+$/.test(x))
        .map(Number);
      expect(w).toBeCloseTo(419.53, 0);
      expect(h).toBeCloseTo(595.28, 0);
    },
    scaled(120_000),
  );

  it(
    "page_width 10 × page_height 15 cm → 283.46 × 425.2 pt; margins move the text (pdftotext -bbox)",
    async () => {
      const narrow = dataOf(
        (
          await convert("b.fb2", corpus(FB2), "pdf", {
            page_width: 10,
            page_height: 15,
            margin_left: 30,
            margin_top: 5,
          })
        ).out.files[0]!,
      );
      const path = saved(narrow, "pdf");
      const [w, h] = pdfInfo(path)
        ["Page size"]!.split(" ")
        .filter((x) => /^[\d.]+$/.test(x))
        .map(Number);
      // calibre rounds a custom size to its own units: within 1 pt
      expect(Math.abs(w! - 283.46)).toBeLessThan(1);
      expect(Math.abs(h! - 425.2)).toBeLessThan(1);
      // the leftmost word of page 1 starts at the 30 mm margin (85 pt), not calibre's default 72 pt
      const bbox = spawnSync("pdftotext", ["-f", "1", "-l", "1", "-bbox", path, "-"], { encoding: "utf8" }).stdout;
      const xs = [...bbox.matchAll(/xMin="([\d.]+)"/g)].map((m) => Number(m[1]));
      expect(Math.min(...xs)).toBeGreaterThan(84);
    },
    scaled(120_000),
  );

  it(
    "base_font_size 24 makes more pages than base_font_size 8 (the text is larger)",
    async () => {
      const pages = async (size: number) =>
        Number(
          pdfInfo(
            saved(dataOf((await convert("b.fb2", corpus(FB2), "pdf", { base_font_size: size })).out.files[0]!), "pdf"),
          ).Pages,
        );
      expect(await pages(24)).toBeGreaterThan(await pages(8));
    },
    scaled(180_000),
  );

  it(
    "title and author are written into an EPUB's OPF (unzip) and a PDF's Info (pdfinfo)",
    async () => {
      const meta = { title: "A Title Of Ours", author: "Ann Author & Bob Writer" };
      const epub = dataOf((await convert("b.fb2", corpus(FB2), "epub", meta)).out.files[0]!);
      const opf = zipText(saved(epub, "epub"), "*.opf");
      expect(opf).toMatch(/<dc:title[^>]*>A Title Of Ours<\/dc:title>/);
      expect(opf).toMatch(/<dc:creator[^>]*>Ann Author<\/dc:creator>/);
      expect(opf).toMatch(/<dc:creator[^>]*>Bob Writer<\/dc:creator>/);
      const pdf = dataOf((await convert("b.fb2", corpus(FB2), "pdf", meta)).out.files[0]!);
      const info = pdfInfo(saved(pdf, "pdf"));
      expect(info.Title).toBe("A Title Of Ours");
      expect(info.Author).toContain("Ann Author");
    },
    scaled(180_000),
  );

  it(
    "cover names a task whose image becomes the EPUB's cover (the same pixels, identify)",
    async () => {
      const png = saved(new Uint8Array(), "png");
      spawnSync("convert", ["-size", "300x400", "xc:#c03020", png]);
      const cover = { filename: "cover.png", data: new Uint8Array(readFileSync(png)) };
      const r = await convert("b.fb2", corpus(FB2), "epub", { cover: "my-cover" }, ctx({ "my-cover": cover }));
      const path = saved(dataOf(r.out.files[0]!), "epub");
      const opf = zipText(path, "*.opf");
      const id = /<meta name="cover" content="([^"]+)"/.exec(opf)?.[1];
      expect(id).toBeTruthy();
      const href = new RegExp(`<item[^>]*id="${id}"[^>]*href="([^"]+)"|<item[^>]*href="([^"]+)"[^>]*id="${id}"`).exec(
        opf,
      )!;
      const member = zipNames(path).find((n) => n.endsWith((href[1] ?? href[2])!))!;
      const img = spawnSync("unzip", ["-p", path, member]).stdout as Buffer;
      const mean = spawnSync("identify", ["-format", "%[fx:mean.r] %[fx:mean.g]", saved(new Uint8Array(img), "img")], {
        encoding: "utf8",
      })
        .stdout.split(" ")
        .map(Number);
      expect(mean[0]).toBeGreaterThan(0.6); // #c03020: red 0.75, green 0.19
      expect(mean[1]).toBeLessThan(0.3);
    },
    scaled(120_000),
  );

  it(
    "page options on a non-PDF output are accepted and reported in result.warnings",
    async () => {
      const r = await convert("b.fb2", corpus(FB2), "txt", { page_format: "a4", margin_left: 10 });
      expect(r.out.extra?.warnings).toEqual([
        "page_format applies to PDF output only; it was ignored.",
        "margin_left applies to PDF output only; it was ignored.",
      ]);
    },
    scaled(120_000),
  );
});

describe("DRM-protected books end UNSUPPORTED, naming DRM", () => {
  it(
    "a MOBI whose header says Mobipocket encryption (type 2)",
    async () => {
      const mobi = corpus("ebooks/libmobi-sample-cp1252.mobi").slice();
      const v = new DataView(mobi.buffer);
      v.setUint16(v.getUint32(78) + 12, 2); // PalmDOC header: encryption type
      const e = await expectTaskError(() => convert("locked.mobi", mobi, "epub"), "UNSUPPORTED");
      expect(e.message).toMatch(/locked\.mobi.*DRM/);
    },
    scaled(120_000),
  );

  it(
    "an EPUB whose META-INF/encryption.xml encrypts its chapters (AES, not font obfuscation)",
    async () => {
      const dir = saved(new Uint8Array(), "d").replace(/\.d$/, "-drm");
      spawnSync("mkdir", ["-p", `${dir}/META-INF`]);
      const chapters = zipNames(corpusPath("ebooks/tika-testEPUB_multi-metadata-vals.epub")).filter((n) =>
        n.endsWith(".xhtml"),
      );
      const enc =
        '<?xml version="1.0"?><encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">' +
        chapters
          .map(
            (c) =>
              `<enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/><enc:CipherData><enc:CipherReference URI="${c}"/></enc:CipherData></enc:EncryptedData>`,
          )
          .join("") +
        "</encryption>";
      spawnSync("sh", ["-c", `cp '${corpusPath("ebooks/tika-testEPUB_multi-metadata-vals.epub")}' '${dir}/b.epub'`]);
      writeFileSync(`${dir}/META-INF/encryption.xml`, enc);
      spawnSync("sh", ["-c", `cd '${dir}' && zip -q b.epub META-INF/encryption.xml`]);
      const e = await expectTaskError(
        () => convert("locked.epub", new Uint8Array(readFileSync(`${dir}/b.epub`)), "pdf"),
        "UNSUPPORTED",
      );
      expect(e.message).toMatch(/DRM/);
    },
    scaled(120_000),
  );
});
