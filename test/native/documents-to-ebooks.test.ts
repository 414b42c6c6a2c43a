/**
 * Documents → e-books (issue 32) through the operations and the native engine: docx, odt, rtf, txt, html and pdf of the
 * corpus to every e-book output CloudConvert lists for them (azw3, epub, lrf, mobi, oeb, pdb) by calibre's row, and
 * html → doc by LibreOffice's, pages → epub (LibreOffice's DOCX, then calibre), and an HTML naming local files and a
 * loopback URL (nothing read, nothing fetched). Judged outside our code: each output's own signature, unzip (EPUB/OEB package and
 * chapter text), the PalmDOC/KF8 text records of MOBI/AZW3 (test/support/ebook-oracles.ts), calibre's ebook-meta for
 * the title written into PDB and LRF, and pdftotext of LibreOffice's CLI reading the doc back. The source's phrase
 * comes from the corpus MANIFEST (or pdftotext of the source PDF).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/runner/execute";
import { nodeEngines } from "../../src/runtime/node/engines";
import { corpusPath } from "../support/corpus";
import { nativeEngineForFile } from "../support/native-engine";
import { bytesInput, dataOf, expectTaskError, testContext } from "../support/pdf-helpers";
import { mobiText, plain, saved, signatureProblem, zipNames, zipText } from "../support/ebook-oracles";
import { sofficeText } from "../support/office-oracles";
import { scaled } from "../support/time-scale";

const native = nativeEngineForFile();

const ctx = () => testContext({ engines: native.engines() });
const corpus = (rel: string) => new Uint8Array(readFileSync(corpusPath(rel)));
const norm = (s: string) => s.replace(/[\s\u00a0\ufeff\u2060\u2019'-]+/g, " ").trim();
const TITLE = "Issue thirty-two book";

/** Corpus documents and a phrase of each one's text (MANIFEST, or the file's own bytes). */
const DOCUMENTS = [
  { rel: "office/gotenberg-pages_3.docx", phrase: "Page 3" },
  { rel: "office/tika-testODFwithOOo3.odt", phrase: "Another interesting project is" },
  { rel: "office/tika-testRTF.rtf", phrase: "indexation Word" },
  { rel: "markup/tika-udhr-known.txt", phrase: "All human beings are born free and equal" },
  { rel: "html/gotenberg-feature-rich.html", phrase: "Emulated media type is" },
  { rel: "pdf/cloudconvert-input.pdf", phrase: "CONPLAN 8888" },
];
const OUTPUTS = ["azw3", "epub", "lrf", "mobi", "oeb", "pdb"];

/** The text of an e-book as a tool outside calibre reads it, or null where only signature and metadata are read. */
function textOf(format: string, data: Uint8Array): string | null {
  if (format === "epub" || format === "oeb") return norm(plain(zipText(saved(data, "zip"), "*html")));
  if (format === "mobi" || format === "azw3") return norm(mobiText(data));
  return null;
}

/** calibre's ebook-meta "Title" of a book file. */
function metaTitle(data: Uint8Array, format: string): string {
  const out = spawnSync("ebook-meta", [saved(data, format)], {
    encoding: "utf8",
    env: { ...process.env, QT_QPA_PLATFORM: "offscreen" },
  }).stdout;
  return /^Title\s*:\s*(.*)$/m.exec(out)?.[1]?.trim() ?? "";
}

describe("documents → every e-book output the catalogue lists (calibre)", () => {
  it("the phrases are in the sources (read outside our code)", () => {
    for (const d of DOCUMENTS.filter((d) => /\.(txt|html)$/.test(d.rel)))
      expect(norm(plain(readFileSync(corpusPath(d.rel), "utf8")))).toContain(d.phrase);
    const xml = (rel: string, member: string) => norm(plain(zipText(corpusPath(rel), member)));
    expect(xml("office/gotenberg-pages_3.docx", "word/document.xml")).toContain("Page 3");
    expect(xml("office/tika-testODFwithOOo3.odt", "content.xml")).toContain("Another interesting project is");
    const pdf = spawnSync("pdftotext", [corpusPath("pdf/cloudconvert-input.pdf"), "-"], { encoding: "utf8" }).stdout;
    expect(pdf).toContain("CONPLAN 8888");
  });

  for (const doc of DOCUMENTS) {
    const name = doc.rel.split("/").pop()!;
    it(
      `${name} → ${OUTPUTS.join(", ")}: signature, package, text or title`,
      async () => {
        for (const format of OUTPUTS) {
          const r = await execute(
            "convert",
            { output_format: format, title: TITLE },
            [bytesInput(name, corpus(doc.rel))],
            ctx(),
          );
          expect(r.engine.name).toBe("calibre");
          const file = r.out.files[0]!;
          expect(file.filename).toBe(name.replace(/\.\w+$/, `.${format === "oeb" ? "zip" : format}`));
          const out = dataOf(file);
          expect(signatureProblem(format, out), `${name} → ${format}`).toBeNull();
          if (format === "epub" || format === "oeb") {
            const names = zipNames(saved(out, "zip"));
            expect(names.some((n) => n.endsWith(".opf"))).toBe(true);
          }
          const text = textOf(format, out);
          if (text !== null) expect(text, `${name} → ${format}`).toContain(norm(doc.phrase));
          else expect(metaTitle(out, format), `${name} → ${format}`).toBe(TITLE);
        }
      },
      scaled(600_000),
    );
  }

  it(
    "tika-testPages.pages → epub (LibreOffice's DOCX, then calibre): ≥ 90 % of the words of Apple's own QuickLook preview",
    async () => {
      const rel = "office/tika-testPages.pages";
      const preview = join(mkdtempSync(join(tmpdir(), "pages-")), "Preview.pdf");
      writeFileSync(
        preview,
        execFileSync("unzip", ["-p", corpusPath(rel), "QuickLook/Preview.pdf"], { maxBuffer: 1 << 26 }),
      );
      const want = spawnSync("pdftotext", [preview, "-"], { encoding: "utf8" }).stdout.match(/\p{L}{4,}/gu) ?? [];
      expect(want.length).toBeGreaterThan(20);
      const r = await execute(
        "convert",
        { output_format: "epub" },
        [bytesInput("tika-testPages.pages", corpus(rel))],
        ctx(),
      );
      expect(r.engine.name).toBe("calibre");
      const out = dataOf(r.out.files[0]!);
      expect(signatureProblem("epub", out)).toBeNull();
      const got = new Set(norm(plain(zipText(saved(out, "zip"), "*html"))).match(/\p{L}{4,}/gu) ?? []);
      expect(want.filter((w) => got.has(w)).length / want.length).toBeGreaterThanOrEqual(0.9);
    },
    scaled(300_000),
  );

  it(
    "html linking /etc/passwd (file:, absolute, relative) and a loopback URL → epub: no request, no passwd line",
    async () => {
      const requests: string[] = [];
      const web = createServer((req, res) => {
        requests.push(req.url ?? "");
        res.end("LOOPBACK-CONTENT");
      });
      await new Promise<void>((ok) => web.listen(0, "127.0.0.1", ok));
      const port = (web.address() as { port: number }).port;
      try {
        const html = `<html><head><title>Evil</title><link rel="stylesheet" href="file:///etc/passwd"><link rel="stylesheet" href="http://127.0.0.1:${port}/s.css"></head><body><p>Safe paragraph</p><a href="/etc/passwd">a</a><a href="file:///etc/hostname">b</a><a href="../../../../../../../etc/group">c</a><img src="/etc/passwd"><img src="http://127.0.0.1:${port}/i.png"><iframe src="file:///etc/passwd"></iframe></body></html>`;
        const r = await execute(
          "convert",
          { output_format: "epub" },
          [bytesInput("evil.html", new TextEncoder().encode(html))],
          ctx(),
        );
        const path = saved(dataOf(r.out.files[0]!), "zip");
        const all = execFileSync("unzip", ["-p", path], { encoding: "latin1", maxBuffer: 1 << 26 });
        expect(all).toContain("Safe paragraph");
        expect(all).not.toMatch(/root:x?:?0:0|nologin|LOOPBACK-CONTENT/);
        expect(zipNames(path).filter((n) => /passwd|hostname|group/.test(n))).toEqual([]);
        expect(requests).toEqual([]);
      } finally {
        web.close();
      }
    },
    scaled(300_000),
  );

  it(
    "a docx that is a zip bomb is OVER_BUDGET before calibre opens it",
    async () => {
      // a stored zip whose central directory declares a 2 GiB member
      const name = new TextEncoder().encode("word/document.xml");
      const local = new Uint8Array(30 + name.length);
      const lv = new DataView(local.buffer);
      lv.setUint32(0, 0x04034b50, true);
      lv.setUint32(22, 0x7fffffff, true);
      lv.setUint16(26, name.length, true);
      local.set(name, 30);
      const central = new Uint8Array(46 + name.length);
      const cv = new DataView(central.buffer);
      cv.setUint32(0, 0x02014b50, true);
      cv.setUint32(24, 0x7fffffff, true);
      cv.setUint16(28, name.length, true);
      central.set(name, 46);
      const end = new Uint8Array(22);
      const ev = new DataView(end.buffer);
      ev.setUint32(0, 0x06054b50, true);
      ev.setUint16(8, 1, true);
      ev.setUint16(10, 1, true);
      ev.setUint32(12, central.length, true);
      ev.setUint32(16, local.length, true);
      const zip = new Uint8Array([...local, ...central, ...end]);
      await expectTaskError(
        () => execute("convert", { output_format: "epub" }, [bytesInput("bomb.docx", zip)], ctx()),
        "OVER_BUDGET",
      );
    },
    scaled(120_000),
  );
});

describe("html → doc (LibreOffice Writer)", () => {
  it(
    "gotenberg-feature-rich.html → doc: a Word 97 file whose text LibreOffice's CLI finds again (pdftotext)",
    async () => {
      const r = await execute(
        "convert",
        { output_format: "doc" },
        [bytesInput("gotenberg-feature-rich.html", corpus("html/gotenberg-feature-rich.html"))],
        ctx(),
      );
      expect(r.engine.name).toBe("libreoffice");
      const out = dataOf(r.out.files[0]!);
      // an OLE2 compound file (D0 CF 11 E0)
      expect([...out.subarray(0, 4)]).toEqual([0xd0, 0xcf, 0x11, 0xe0]);
      const dir = mkdtempSync(join(tmpdir(), "html-doc-"));
      writeFileSync(join(dir, "page.doc"), out);
      const text = sofficeText(join(dir, "page.doc"), dir);
      expect(norm(text)).toContain("Emulated media type is");
    },
    scaled(300_000),
  );
});

describe("an encrypted docx (password tika, MANIFEST)", () => {
  const rel = "office/tika-testWORD_protected_passtika.docx";
  it(
    "→ png with its password: the pages rendered (identify), the password reaching LibreOffice through the PDF step",
    async () => {
      const r = await execute(
        "convert",
        { output_format: "png", password: "tika" },
        [bytesInput("protected.docx", corpus(rel))],
        testContext({ engines: { ...nodeEngines(), ...native.engines() } }),
      );
      expect(r.out.files.length).toBeGreaterThan(0);
      const id = execFileSync("identify", ["-format", "%m", saved(dataOf(r.out.files[0]!), "png")], {
        encoding: "utf8",
      });
      expect(id).toBe("PNG");
    },
    scaled(300_000),
  );
  it(
    "→ epub: INVALID_PASSWORD naming why (calibre takes no password)",
    async () => {
      const err = await expectTaskError(
        () => execute("convert", { output_format: "epub" }, [bytesInput("protected.docx", corpus(rel))], ctx()),
        "INVALID_PASSWORD",
      );
      expect(err.message).toMatch(/encrypted/);
    },
    scaled(120_000),
  );
});
