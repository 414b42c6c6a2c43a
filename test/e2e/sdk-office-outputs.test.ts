/**
 * Issue 32's "done when": every output format of the document, spreadsheet and presentation catalogue converts a real
 * corpus file through the official SDK under `npm start`, judged by an oracle outside our code — pdftotext/pdfinfo,
 * unzip -p of the packages, identify for images, ffprobe for the SWF, the DXF's and EPS's own structure, the MOBI's
 * text records and calibre's ebook-meta (test/support/ebook-oracles.ts). One test per output format, batched into a
 * few jobs (one per source file) to keep the run short; txt, odt, csv, docx and html are sdk-office-convert.test.ts's.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { mobiText, plain, signatureProblem, zipText } from "../support/ebook-oracles";
import { runCorpusJob } from "../support/jobs";
import { videoFrames } from "../support/media-helpers";
import { sharedServer, type SharedServer } from "../support/servers";
import { scaled } from "../support/time-scale";

let server: SharedServer;
beforeAll(async () => {
  server = sharedServer("guarded");
});

type Job = Awaited<ReturnType<typeof runCorpusJob>>;
/** One job per source, started once and shared by that source's tests. */
const jobs = new Map<string, Promise<Job>>();
function job(rel: string, outputs: string[], extra: Record<string, Record<string, unknown>> = {}): Promise<Job> {
  const key = `${rel}:${outputs.join(",")}`;
  if (!jobs.has(key))
    jobs.set(
      key,
      runCorpusJob(
        server.base,
        rel,
        Object.fromEntries(
          outputs.map((o) => [o, { operation: "convert", input: "in", output_format: o, ...(extra[o] ?? {}) }]),
        ),
      ),
    );
  return jobs.get(key)!;
}
/** The files task `format` exported, after checking the job and the task finished. */
async function outputs(j: Promise<Job>, format: string): Promise<{ filename: string; path: string }[]> {
  const { task, files } = await j;
  expect(task(format).status, JSON.stringify(task(format).result ?? task(format))).toBe("finished");
  expect(files[format]?.length).toBeGreaterThan(0);
  return files[format]!;
}
const bytes = (path: string) => new Uint8Array(readFileSync(path));
const norm = (s: string) =>
  s
    .replace(/<[^>]+>/g, " ")
    .replace(/&#?\w+;/g, " ")
    .replace(/\s+/g, " ");
const unzip = (path: string, member: string) =>
  execFileSync("unzip", ["-p", path, member], { encoding: "utf8", maxBuffer: 1 << 26 });
const pdftotext = (path: string) => norm(execFileSync("pdftotext", [path, "-"], { encoding: "utf8" }));
const pdfPages = (path: string) =>
  Number(/^Pages:\s+(\d+)/m.exec(execFileSync("pdfinfo", [path], { encoding: "utf8" }))![1]);
const identify = (path: string) => execFileSync("identify", ["-format", "%m %w %h\n", path], { encoding: "utf8" });
/** Text of an OLE (Word/Excel/PowerPoint 97) file's streams as Latin-1 and UTF-16LE strings. */
const oleText = (path: string) => {
  const b = readFileSync(path);
  return norm(`${b.toString("latin1")} ${b.toString("utf16le")}`);
};

const DOCX = "office/gotenberg-pages_3.docx"; // MANIFEST: text "Page 1 Page 2 Page 3", 3 pages
const XLSX = "office/tika-testEXCEL.xlsx"; // MANIFEST: text starts "Sample Excel Worksheet - Numbers and their Squares"
const PPT = "office/tika-testPPT.ppt";
const PDF = "pdf/gotenberg-pages_12.pdf";
const RST = "markup/docutils-demo.rst";

describe("document outputs (a docx)", () => {
  const OUT = ["doc", "rtf", "pdf", "xps", "png", "jpg", "webp", "epub", "mobi", "azw3", "lrf", "oeb", "pdb"];
  const j = () => job(DOCX, OUT);
  it("→ doc: an OLE Word file holding the pages' text", async () => {
    const [f] = await outputs(j(), "doc");
    expect(execFileSync("file", ["-b", f!.path], { encoding: "utf8" })).toMatch(/Composite Document File/);
    expect(oleText(f!.path)).toMatch(/Page 1[\s\S]*Page 3/);
  });
  it("→ rtf: the pages' text", async () => {
    const [f] = await outputs(j(), "rtf");
    expect(readFileSync(f!.path, "latin1")).toMatch(/^\{\\rtf[\s\S]*Page 1[\s\S]*Page 3/);
  });
  it("→ pdf: 3 pages (MANIFEST), their text", async () => {
    const [f] = await outputs(j(), "pdf");
    expect(pdfPages(f!.path)).toBe(3);
    expect(pdftotext(f!.path)).toMatch(/Page 1 .*Page 2 .*Page 3/);
  });
  it("→ xps: an XPS package of 3 fixed pages", async () => {
    const [f] = await outputs(j(), "xps");
    const names = execFileSync("unzip", ["-Z1", f!.path], { encoding: "utf8" }).split("\n");
    expect(names.filter((n) => /\.fpage$/.test(n)).length).toBe(3);
  });
  it.each([
    ["png", "PNG"],
    ["jpg", "JPEG"],
    ["webp", "WEBP"],
  ])("→ %s: one image per page (identify)", async (format, magick) => {
    const files = await outputs(j(), format);
    expect(files.length).toBe(3);
    for (const f of files) expect(identify(f.path)).toMatch(new RegExp(`^${magick} \\d+ \\d+`));
  });
  it.each(["epub", "oeb"])("→ %s: an OPF package whose chapters hold the pages' text", async (format) => {
    const [f] = await outputs(j(), format);
    expect(signatureProblem(format, bytes(f!.path))).toBeNull();
    expect(norm(plain(zipText(f!.path, "*html")))).toMatch(/Page 1 .*Page 3/);
  });
  it.each(["mobi", "azw3"])("→ %s: a BOOKMOBI whose text records hold the pages' text", async (format) => {
    const [f] = await outputs(j(), format);
    expect(signatureProblem(format, bytes(f!.path))).toBeNull();
    expect(norm(mobiText(bytes(f!.path)))).toMatch(/Page 1 .*Page 3/);
  });
  it.each(["lrf", "pdb"])("→ %s: its signature, and ebook-meta reads it", async (format) => {
    const [f] = await outputs(j(), format);
    expect(signatureProblem(format, bytes(f!.path))).toBeNull();
    const meta = spawnSync("ebook-meta", [f!.path], {
      encoding: "utf8",
      env: { ...process.env, QT_QPA_PLATFORM: "offscreen" },
    });
    expect(meta.status).toBe(0);
    expect(meta.stdout).toMatch(/^Title\s*:/m);
  });
});

describe("spreadsheet outputs (an xlsx)", () => {
  const j = () => job(XLSX, ["xls", "xlsx", "ods", "html", "pdf"]);
  const TITLE = "Sample Excel Worksheet - Numbers and their Squares";
  it("→ xls: an OLE Excel file holding the sheet's title", async () => {
    const [f] = await outputs(j(), "xls");
    expect(execFileSync("file", ["-b", f!.path], { encoding: "utf8" })).toMatch(/Composite Document File/);
    expect(oleText(f!.path)).toContain(TITLE);
  });
  it("→ xlsx (a re-save): the title in its shared strings", async () => {
    const [f] = await outputs(j(), "xlsx");
    expect(norm(unzip(f!.path, "xl/sharedStrings.xml"))).toContain(TITLE);
  });
  it("→ ods: the title in content.xml", async () => {
    const [f] = await outputs(j(), "ods");
    expect(norm(unzip(f!.path, "content.xml"))).toContain(TITLE);
  });
  it("→ html and → pdf: the title", async () => {
    expect(norm(readFileSync((await outputs(j(), "html"))[0]!.path, "utf8"))).toContain(TITLE);
    expect(pdftotext((await outputs(j(), "pdf"))[0]!.path)).toContain(TITLE);
  });
});

describe("presentation outputs (a ppt)", () => {
  const j = () => job(PPT, ["pptx", "odp", "ppt", "swf", "eps", "emf", "pdf"]);
  /** The slide count LibreOffice's PDF of the deck has (pdfinfo), the other outputs' reference. */
  const slides = async () => pdfPages((await outputs(j(), "pdf"))[0]!.path);
  const pdfWords = async () => (pdftotext((await outputs(j(), "pdf"))[0]!.path).match(/\p{L}{4,}/gu) ?? []).slice(0, 8);
  it("→ pptx: one slide part per slide, the slides' words", async () => {
    const [f] = await outputs(j(), "pptx");
    const names = execFileSync("unzip", ["-Z1", f!.path], { encoding: "utf8" }).split("\n");
    expect(names.filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n)).length).toBe(await slides());
    const text = norm(unzip(f!.path, "ppt/slides/*.xml"));
    for (const w of await pdfWords()) expect(text).toContain(w);
  });
  it("→ odp: one draw:page per slide, the slides' words", async () => {
    const [f] = await outputs(j(), "odp");
    const content = unzip(f!.path, "content.xml");
    expect(content.match(/<draw:page /g)?.length).toBe(await slides());
    for (const w of await pdfWords()) expect(norm(content)).toContain(w);
  });
  it("→ ppt (a re-save): an OLE PowerPoint file with the slides' words", async () => {
    const [f] = await outputs(j(), "ppt");
    expect(execFileSync("file", ["-b", f!.path], { encoding: "utf8" })).toMatch(/Composite Document File/);
    const text = oleText(f!.path);
    for (const w of await pdfWords()) expect(text).toContain(w);
  });
  it("→ swf: one frame per slide (ffprobe)", async () => {
    const [f] = await outputs(j(), "swf");
    const frames = videoFrames(f!.path);
    expect(frames).toBe(await slides());
  });
  it("→ eps and → emf: one file per slide, each of its format (header, identify)", async () => {
    const eps = await outputs(j(), "eps");
    expect(eps.length).toBe(await slides());
    for (const f of eps) expect(readFileSync(f.path, "latin1")).toMatch(/^%!PS-Adobe-\d\.\d EPSF[\s\S]*%%BoundingBox:/);
    const emf = await outputs(j(), "emf");
    expect(emf.length).toBe(await slides());
    // EMR_HEADER (type 1) then " EMF" at byte 40
    for (const f of emf) expect(readFileSync(f.path).subarray(40, 44).toString("latin1")).toBe(" EMF");
  });
});

describe("PDF outputs (a 12-page PDF)", () => {
  const OUT = ["doc", "odt", "rtf", "svg", "eps", "ps", "emf", "wmf", "bmp", "gif", "tiff", "ico", "psd", "dxf", "odd"];
  const j = () => job(PDF, OUT, { dxf: { pages: "1-2" } });
  const source = () => pdftotext(corpusPath(PDF));
  it("the source's text (pdftotext) has its page labels", () => expect(source()).toMatch(/Page 1 .*Page 12/));
  it.each(["doc", "rtf"])(
    "→ %s: every page's label, as LibreOffice's own CLI reads the file back",
    async (format) => {
      const [f] = await outputs(j(), format);
      const dir = mkdtempSync(join(tmpdir(), "e2e-readback-"));
      spawnSync(
        "soffice",
        [
          `-env:UserInstallation=file://${join(dir, "profile")}`,
          "--headless",
          "--convert-to",
          "txt:Text (encoded):UTF8",
          "--outdir",
          dir,
          f!.path,
        ],
        { timeout: scaled(180_000) },
      );
      const text = norm(readFileSync(join(dir, basename(f!.path).replace(/\.\w+$/, ".txt")), "utf8"));
      for (let p = 1; p <= 12; p++) expect(text).toContain(`Page ${p}`);
    },
    300_000,
  );
  it("→ odt: every page's label in content.xml", async () => {
    const content = norm(unzip((await outputs(j(), "odt"))[0]!.path, "content.xml"));
    for (let p = 1; p <= 12; p++) expect(content).toContain(`Page ${p}`);
  });
  it("→ odd: an OpenDocument drawing, one draw:page per PDF page", async () => {
    const [f] = await outputs(j(), "odd");
    expect(unzip(f!.path, "mimetype")).toBe("application/vnd.oasis.opendocument.graphics");
    expect(unzip(f!.path, "content.xml").match(/<draw:page /g)?.length).toBe(pdfPages(corpusPath(PDF)));
  });
  it("→ svg: one SVG drawing per page", async () => {
    const files = await outputs(j(), "svg");
    expect(files.length).toBe(12);
    for (const f of files) expect(readFileSync(f.path, "utf8")).toMatch(/<svg[\s>]/);
  });
  it("→ eps (one per page) and → ps: PostScript, the ps with 12 pages", async () => {
    const eps = await outputs(j(), "eps");
    expect(eps.length).toBe(12);
    for (const f of eps) expect(readFileSync(f.path, "latin1")).toMatch(/^%!PS-Adobe-\d\.\d EPSF/);
    const [ps] = await outputs(j(), "ps");
    expect(readFileSync(ps!.path, "latin1")).toMatch(/^%!PS-Adobe/);
    expect(readFileSync(ps!.path, "latin1")).toMatch(/%%Pages: 12\b/);
  });
  it.each(["emf", "wmf"])("→ %s: one metafile per page", async (format) => {
    const files = await outputs(j(), format);
    expect(files.length).toBe(12);
    for (const f of files) {
      const b = readFileSync(f.path);
      // EMF: " EMF" at 40; WMF: the placeable header D7 CD C6 9A or a standard header (type 1 or 2, header size 9)
      if (format === "emf") expect(b.subarray(40, 44).toString("latin1")).toBe(" EMF");
      else
        expect(
          b.readUInt32LE(0) === 0x9ac6cdd7 || (b.readUInt16LE(2) === 9 && [1, 2].includes(b.readUInt16LE(0))),
        ).toBe(true);
    }
  });
  it.each([
    ["bmp", "BMP"],
    ["gif", "GIF"],
    ["tiff", "TIFF"],
    ["ico", "ICO"],
    ["psd", "PSD"],
  ])("→ %s: images of the pages (identify)", async (format, magick) => {
    const files = await outputs(j(), format);
    expect(files.length).toBeGreaterThan(0);
    expect(identify(files[0]!.path)).toMatch(new RegExp(`^${magick} \\d+ \\d+`));
  });
  it("→ dxf (pages 1-2): two DXF R14 files of outlined paths", async () => {
    const files = await outputs(j(), "dxf");
    expect(files.length).toBe(2);
    for (const f of files) {
      const t = readFileSync(f.path, "latin1");
      expect(t).toMatch(/\$ACADVER\s+1\s+AC1014/);
      expect((t.match(/\n\s*0\s*\n(LWPOLYLINE|SPLINE)\s*\n/g) ?? []).length).toBeGreaterThanOrEqual(5);
      expect(t.trimEnd()).toMatch(/EOF$/);
    }
  });
});

describe("markup and DjVu outputs", () => {
  it("rst → pdf and → md: the demo's title (pdftotext; the text itself)", async () => {
    const j = job(RST, ["pdf", "md"]);
    expect(pdftotext((await outputs(j, "pdf"))[0]!.path)).toMatch(/^ ?reStructuredText Demonstration/);
    expect(readFileSync((await outputs(j, "md"))[0]!.path, "utf8")).toMatch(/reStructuredText Demonstration/);
  });
  it("md → rst and → tex: the Markdown's title as an rst heading and a LaTeX document", async () => {
    const j = job("markup/tika-testMARKDOWN.md", ["rst", "tex"]);
    expect(readFileSync((await outputs(j, "rst"))[0]!.path, "utf8")).toMatch(/Title\n=+/);
    expect(readFileSync((await outputs(j, "tex"))[0]!.path, "utf8")).toMatch(/\\begin\{document\}[\s\S]*Title/);
  });
  it("djvu → pdf and → djvu: as many pages as djvused counts", async () => {
    const pages = Number(
      execFileSync("djvused", ["-e", "n", corpusPath("office/pywikibot-myfile.djvu")], { encoding: "utf8" }),
    );
    const j = job("office/pywikibot-myfile.djvu", ["pdf", "djvu"]);
    expect(pdfPages((await outputs(j, "pdf"))[0]!.path)).toBe(pages);
    const djvu = (await outputs(j, "djvu"))[0]!.path;
    expect(Number(execFileSync("djvused", ["-e", "n", djvu], { encoding: "utf8" }))).toBe(pages);
  });
});
