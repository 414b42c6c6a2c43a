/**
 * The native engine's Ghostscript rows (container/engines/ghostscript.ts, issue 12) run as a local
 * process and reached through the real runner (`execute`, src/runner/execute.ts) with the engine
 * table's routing: pdf/a (with a ZUGFeRD / Factur-X invoice), pdf/x, optimize, and broken and
 * encrypted input through pdf/a. Every outcome is judged by tools that are not this project's code
 * (test/support/native-oracles.ts): qpdf, poppler (pdfinfo, pdffonts, pdfimages, pdfdetach,
 * pdftotext), exiftool, Ghostscript re-opening the output — or by corpus/facts.json.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineInstances } from "../../src/engines/registry";
import { parseJobTasks } from "../../src/graph/parse";
import { TASK_CATALOG } from "../../src/operations/validate";
import type { OperationContext } from "../../src/operations/types";
import { execute } from "../../src/runner/execute";
import { nodeEngines } from "../../src/runtime/node/engines";
import { corpusPath, fact } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { expectPdfFailure, fullContext, job, randomBytes, sharedCorpusRuns } from "../support/native-fixtures";
import {
  docTitle,
  expectPdfA,
  expectPdfX,
  gsVersion,
  imageRows,
  images,
  pdffonts,
  pixels,
  sh,
  sizes,
} from "../support/native-oracles";
import { bytesInput, corpusInput, dataOf, expectTaskError, pageText, pdfinfo, tmpFile } from "../support/pdf-helpers";
import { scaled } from "../support/time-scale";

let native: NativeServer;
/** The in-process WebAssembly engines, created once (their modules load on first use). */
let wasm: EngineInstances;

/** A context with the WebAssembly engines and the native rows (the production order). */
const full = (): OperationContext => fullContext(wasm, native);
/** Runs shared between a describe's beforeAll (which starts them) and its tests (which await them). */
const corpusRun = sharedCorpusRuns(full);

beforeAll(async () => {
  wasm = nodeEngines();
  native = await startNativeEngine();
}, scaled(120_000));

afterAll(async () => {
  await native?.stop();
  if (optimizeRows.length) {
    const lines = optimizeRows.map(
      (r) =>
        `${r.file.padEnd(48)} ${String(r.input).padStart(9)} ${String(r.output).padStart(9)}  ${r.unchanged ? "unchanged (would not shrink)" : `-${(((r.input - r.output) / r.input) * 100).toFixed(1)}%`}`,
    );
    console.log(`optimize profile=web (file, input bytes, output bytes)\n${lines.join("\n")}`);
  }
});

// ---------------------------------------------------------------------------------------------
// pdf/a
// ---------------------------------------------------------------------------------------------

/** Pages of the 12-page corpus PDF per facts.json. */
const PAGES12 = Number(fact("pdf/gotenberg-pages_12.pdf").pages);
const PDFA_FILES = ["pdf/gotenberg-pages_12.pdf", "pdf/cloudconvert-input.pdf", "pdf/pdfjs-tracemonkey.pdf"];

describe("pdf/a (Ghostscript)", () => {
  // started two at a time up front (Ghostscript is single-threaded); each test awaits its own run
  beforeAll(() => {
    for (const rel of PDFA_FILES)
      for (const level of ["1b", "2b", "3b"]) corpusRun("pdf/a", { conformance_level: level }, rel);
  });
  for (const rel of PDFA_FILES) {
    for (const level of ["1b", "2b", "3b"] as const) {
      it(`${level}: ${rel} becomes PDF/A-${level[0]}B with embedded fonts and an sRGB output intent`, async () => {
        const r = await corpusRun("pdf/a", { conformance_level: level }, rel);
        expect(r.engine).toEqual({ name: "ghostscript", version: gsVersion() });
        expect(r.out.files).toHaveLength(1);
        const path = tmpFile(r.out.files[0]!);
        expectPdfA(path, Number(level[0]), Number(pdfinfo(corpusPath(rel)).Pages));
        if (level === "1b") {
          // ISO 19005-1 is based on PDF 1.4: no object streams (a PDF 1.5 feature) in a PDF/A-1 file
          const compressed = sh("qpdf", ["--show-xref", path])
            .stdout.split("\n")
            .filter((l) => /: compressed;/.test(l));
          expect(compressed, "objects inside object streams (qpdf --show-xref)").toEqual([]);
        }
      });
    }
  }

  it("cloudconvert-input.pdf has fonts that are not embedded (so embedding above is the engine's work)", () => {
    expect(pdffonts(corpusPath("pdf/cloudconvert-input.pdf")).filter((f) => f.emb === "no").length).toBeGreaterThan(0);
  });

  it('creation accepts "2B" (and the job runs as PDF/A-2B); "4b" is refused naming conformance_level', async () => {
    const ok = job({ operation: "pdf/a", conformance_level: "2B" });
    expect(ok).toHaveProperty("specs");
    const params = "specs" in ok ? ok.specs[1]!.params : {};
    const r = await execute("pdf/a", params, [corpusInput("pdf/gotenberg-pages_12.pdf")], full());
    expectPdfA(tmpFile(r.out.files[0]!), 2, PAGES12);

    const bad = job({ operation: "pdf/a", conformance_level: "4b" });
    const msgs = "errors" in bad ? bad.errors["tasks.t"] : undefined;
    expect(msgs, "4b must be a 422").toBeDefined();
    expect(msgs!.join(" ")).toContain("conformance_level");
  });
});

// ---------------------------------------------------------------------------------------------
// pdf/x
// ---------------------------------------------------------------------------------------------

describe("pdf/x (Ghostscript)", () => {
  const VARIANTS = [
    { variant: "4", subtype: "PDF/X-4" },
    { variant: "3", subtype: "PDF/X-3:2002" },
    { variant: "1a", subtype: "PDF/X-1a:2001" },
  ];
  for (const { variant, subtype } of VARIANTS) {
    it(`variant ${variant}: ${subtype} with GTS_PDFXVersion, a CMYK GTS_PDFX output intent and the right PDF version`, async () => {
      const rel = "pdf/gotenberg-pages_12.pdf";
      const r = await execute("pdf/x", { variant }, [corpusInput(rel)], full());
      expect(r.engine).toEqual({ name: "ghostscript", version: gsVersion() });
      const path = tmpFile(r.out.files[0]!);
      expectPdfX(path, subtype, PAGES12);
      const version = Number(pdfinfo(path)["PDF version"]);
      // ISO 15930-7 (X-4) is based on PDF 1.6; ISO 15930-1:2001 (X-1a:2001) and 15930-3:2002 (X-3:2002) on PDF 1.3
      if (variant === "4") expect(version).toBeGreaterThanOrEqual(1.6);
      else expect(version).toBeLessThanOrEqual(1.3);
      // ISO 15930-6 §6.7.2: a Title in the document information; this input has none, so the file's name
      expect(docTitle(corpusPath(rel))).toBeUndefined();
      expect(docTitle(path)).toBe("gotenberg-pages_12");
    });
  }

  it("keeps the input's own Title", async () => {
    const rel = "pdf/cloudconvert-input.pdf";
    const r = await execute("pdf/x", { variant: "3" }, [corpusInput(rel)], full());
    expect(docTitle(tmpFile(r.out.files[0]!))).toBe(docTitle(corpusPath(rel)));
  });

  it('creation accepts "x-4", "pdfx4" and "PDF/X-4" (and "PDF/X-4" runs as X-4); "5" is refused naming variant', async () => {
    for (const v of ["x-4", "pdfx4", "PDF/X-4"])
      expect(job({ operation: "pdf/x", variant: v }), v).toHaveProperty("specs");
    const spec = job({ operation: "pdf/x", variant: "PDF/X-4" });
    const r = await execute(
      "pdf/x",
      "specs" in spec ? spec.specs[1]!.params : {},
      [corpusInput("pdf/gotenberg-pages_12.pdf")],
      full(),
    );
    expect(pdfinfo(tmpFile(r.out.files[0]!))["PDF subtype"]).toBe("PDF/X-4");

    const bad = job({ operation: "pdf/x", variant: "5" });
    const msgs = "errors" in bad ? bad.errors["tasks.t"] : undefined;
    expect(msgs, '"5" must be a 422').toBeDefined();
    expect(msgs!.join(" ")).toContain("variant");
  });
});

// ---------------------------------------------------------------------------------------------
// optimize (PDF)
// ---------------------------------------------------------------------------------------------

/** Every PDF of pdf/, scans/ and pdf-encrypted/ that opens without a password and holds images. */
const OPTIMIZE_FILES = ["pdf", "scans", "pdf-encrypted"]
  .flatMap((d) =>
    readdirSync(corpusPath(d))
      .filter((f) => f.toLowerCase().endsWith(".pdf"))
      .map((f) => `${d}/${f}`),
  )
  .filter((rel) => {
    // qpdf --requires-password: 0 = a password is required, 2 = not encrypted, 3 = encrypted, opens without one
    const needs = sh("qpdf", ["--requires-password", corpusPath(rel)]).status === 0;
    return !needs && imageRows(corpusPath(rel)) > 0;
  })
  .sort();

interface OptimizeRow {
  file: string;
  input: number;
  output: number;
  unchanged: boolean;
  path: string;
}
const optimizeRows: OptimizeRow[] = [];

describe("optimize (PDF, Ghostscript)", () => {
  beforeAll(() => {
    for (const rel of OPTIMIZE_FILES) corpusRun("optimize", { profile: "web" }, rel);
    for (const profile of ["print", "archive", "mrc", "max"])
      corpusRun("optimize", { profile }, "pdf/pdfjs-tracemonkey.pdf");
  });
  it("the corpus has PDFs with images to optimize (pdfimages -list)", () => {
    expect(OPTIMIZE_FILES.length).toBeGreaterThanOrEqual(3);
  });

  for (const rel of OPTIMIZE_FILES) {
    it(`web: ${rel} gets smaller and stays a sound PDF (issue 12: every corpus PDF with images)`, async () => {
      const input = new Uint8Array(readFileSync(corpusPath(rel)));
      const r = await corpusRun("optimize", { profile: "web" }, rel);
      expect(r.engine.name).toBe("ghostscript");
      expect(r.out.files).toHaveLength(1);
      const out = dataOf(r.out.files[0]!);
      const name = rel.slice(rel.lastIndexOf("/") + 1);
      const unchanged = (r.out.extra?.unchanged as string[] | undefined) ?? [];
      const path = tmpFile(out);
      optimizeRows.push({
        file: rel,
        input: input.length,
        output: out.length,
        unchanged: unchanged.includes(name),
        path,
      });
      expect(r.out.extra).toMatchObject({
        profile: "web",
        original_size: input.length,
        bytes_saved: input.length - out.length,
      });
      expect(unchanged).toEqual([]);
      expect(out.length).toBeLessThan(input.length);
      const check = sh("qpdf", ["--check", path]);
      // exit 3 = warnings only; whether those concern the linearization is the next test's question
      expect([0, 3], `qpdf --check: ${check.stdout}${check.stderr}`).toContain(check.status);
      expect(pdfinfo(path).Pages).toBe(pdfinfo(corpusPath(rel)).Pages);
    });
  }

  it("web: every optimized output passes qpdf --check without warnings (its Fast Web View linearization is valid)", () => {
    expect(optimizeRows.length, "the per-file web tests ran").toBe(OPTIMIZE_FILES.length);
    const bad = optimizeRows
      .filter((r) => !r.unchanged)
      .map((r) => ({ file: r.file, ...sh("qpdf", ["--check", r.path]) }))
      .filter((c) => c.status !== 0)
      .map(
        (c) =>
          `${c.file}: exit ${c.status}: ${`${c.stdout}${c.stderr}`
            .split("\n")
            .filter((l) => /WARNING|error/i.test(l))
            .slice(0, 2)
            .join(" | ")}`,
      );
    expect(bad).toEqual([]);
  });

  const HEAVY = "pdf/pdfjs-tracemonkey.pdf";
  for (const profile of ["web", "print", "archive", "mrc", "max"]) {
    it(`profile ${profile} on ${HEAVY}: never larger; original_size/bytes_saved/unchanged match the bytes`, async () => {
      const input = new Uint8Array(readFileSync(corpusPath(HEAVY)));
      const r = await corpusRun("optimize", { profile }, HEAVY); // profile web: the run of the test above
      const out = dataOf(r.out.files[0]!);
      expect(out.length).toBeLessThanOrEqual(input.length);
      expect(r.out.extra?.original_size).toBe(input.length);
      expect(r.out.extra?.bytes_saved).toBe(input.length - out.length);
      const same = Buffer.from(out).equals(Buffer.from(input));
      expect(((r.out.extra?.unchanged as string[]) ?? []).includes("pdfjs-tracemonkey.pdf")).toBe(same);
      expect(same, "a 1 MB PDF with 180 images should get smaller under every profile").toBe(false);
      const path = tmpFile(out);
      const check = sh("qpdf", ["--check", path]);
      expect([0, 3], `qpdf --check: ${check.stdout}${check.stderr}`).toContain(check.status);
      expect(pdfinfo(path).Pages).toBe(pdfinfo(corpusPath(HEAVY)).Pages);
      // what ghostscript.ts documents per profile, seen by pdfimages -list
      const before = images(corpusPath(HEAVY));
      const after = images(path);
      if (profile === "print")
        expect(
          after.filter((i) => !["cmyk", "gray"].includes(i.color)),
          "print: CMYK (or gray) images only",
        ).toEqual([]);
      if (profile === "web" || profile === "max")
        expect(
          after.filter((i) => i.color === "cmyk"),
          `${profile}: RGB, no CMYK images`,
        ).toEqual([]);
      if (profile === "archive") expect(sizes(after), "archive: images not downsampled").toEqual(sizes(before));
      if (profile === "max") expect(pixels(after), "max: images downsampled").toBeLessThan(pixels(before));
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Broken and encrypted input
// ---------------------------------------------------------------------------------------------

describe("broken and encrypted input through pdf/a", () => {
  it("random bytes named .pdf → OPEN_FAILED naming the file", async () => {
    const err = await expectTaskError(
      () => execute("pdf/a", { conformance_level: "2b" }, [bytesInput("random.pdf", randomBytes(4096, 12345))], full()),
      "OPEN_FAILED",
    );
    expect(err.message).toContain("random.pdf");
  });

  it("broken/ocrmypdf-invalid.pdf (a header and %%EOF, nothing else) → OPEN_FAILED naming the file", async () => {
    const rel = "broken/ocrmypdf-invalid.pdf";
    expect(sh("pdfinfo", [corpusPath(rel)]).status, "poppler cannot open it either").not.toBe(0);
    const err = await expectPdfFailure(
      execute("pdf/a", { conformance_level: "2b" }, [corpusInput(rel)], full()),
      "OPEN_FAILED",
    );
    expect(err.message).toContain("ocrmypdf-invalid.pdf");
  });

  const ENCRYPTED = [
    "pdf-encrypted/qpdf-enc-R3-V2-U_view-O_master.pdf",
    "pdf-encrypted/qpdf-enc-XI-R6-V5-U_view-O_master.pdf",
  ];
  for (const rel of ENCRYPTED) {
    const name = rel.slice(rel.lastIndexOf("/") + 1);
    it(`${name}: no password → INVALID_PASSWORD; the user password → a PDF/A of every page`, async () => {
      const f = fact(rel);
      expect(f.requires_password).toBe(true);
      const err = await expectTaskError(
        () => execute("pdf/a", { conformance_level: "2b" }, [corpusInput(rel)], full()),
        "INVALID_PASSWORD",
      );
      expect(err.message).toContain(name);
      const r = await execute(
        "pdf/a",
        { conformance_level: "2b", password: String(f.user_password) },
        [corpusInput(rel)],
        full(),
      );
      const path = tmpFile(r.out.files[0]!);
      expectPdfA(path, 2, Number(f.pages));
      expect(pdfinfo(path).Encrypted).toBe("no");
      expect(pageText(path, 1)).toContain(String(f.text_page1_excerpt));
    });
  }

  it("a wrong password → INVALID_PASSWORD (not a blank document)", async () => {
    const rel = ENCRYPTED[0]!;
    expect(fact(rel).qpdf_password_check).toMatchObject({ "definitely-wrong-password": "rejected" });
    await expectPdfFailure(
      execute("pdf/a", { conformance_level: "2b", password: "definitely-wrong-password" }, [corpusInput(rel)], full()),
      "INVALID_PASSWORD",
    );
  });

  it("optimize with a wrong password → INVALID_PASSWORD (not a blank page handed back as the optimized document)", async () => {
    const rel = ENCRYPTED[0]!;
    await expectPdfFailure(
      execute("optimize", { profile: "web", password: "definitely-wrong-password" }, [corpusInput(rel)], full()),
      "INVALID_PASSWORD",
    );
  });
});

// ---------------------------------------------------------------------------------------------
// pdf/a 3b with a ZUGFeRD / Factur-X invoice
// ---------------------------------------------------------------------------------------------

describe("pdf/a 3b with a ZUGFeRD / Factur-X invoice (`invoice`)", () => {
  const XML = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100">
<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
<rsm:ExchangedDocument><ram:ID>INV-0042</ram:ID><ram:TypeCode>380</ram:TypeCode></rsm:ExchangedDocument>
</rsm:CrossIndustryInvoice>
`;
  const invoiceCtx = (xml: string) => ({
    ...full(),
    taskFiles: async () => [{ ...bytesInput("invoice.xml", new TextEncoder().encode(xml)), fromTask: "xml" }],
  });

  it("attaches factur-x.xml (Alternative, text/xml) with the fx XMP and its extension schema", async () => {
    const r = await execute(
      "pdf/a",
      { conformance_level: "3b", invoice: "xml" },
      [corpusInput("pdf/gotenberg-pages_12.pdf")],
      invoiceCtx(XML),
    );
    const path = tmpFile(r.out.files[0]!);
    const xmp = JSON.parse(sh("exiftool", ["-j", "-XMP-pdfaid:all", "-XMP-fx:all", path]).stdout)[0];
    expect(xmp).toMatchObject({
      Part: 3,
      Conformance: "B",
      DocumentType: "INVOICE",
      DocumentFileName: "factur-x.xml",
      Version: 1,
      ConformanceLevel: "BASIC",
    }); // exiftool -j prints "1.0" as the number 1
    expect(sh("exiftool", ["-b", "-XMP", path]).stdout).toContain(
      "<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>",
    );
    expect(sh("pdfdetach", ["-list", path]).stdout).toMatch(/1 embedded files\s+1: factur-x\.xml/);
    const out = join(mkdtempSync(join(tmpdir(), "fx-")), "fx.xml");
    expect(sh("pdfdetach", ["-save", "1", "-o", out, path]).status).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(XML);
    const objects = sh("qpdf", ["--json", "--json-key=qpdf", path]).stdout;
    expect(objects).toContain('"/AFRelationship": "/Alternative"');
    expect(objects).toMatch(/"\/AF": \[\s*"\d+ 0 R"\s*\]/);
    expect([0, 3]).toContain(sh("qpdf", ["--check", path]).status);
  });

  it("refuses an invoice with 2b at creation, and a file that is not an invoice at run time", async () => {
    const r = parseJobTasks(
      {
        imp: { operation: "import/url", url: "https://example.com/a.pdf" },
        xml: { operation: "import/url", url: "https://example.com/i.xml" },
        a: { operation: "pdf/a", input: "imp", conformance_level: "2b", invoice: "xml" },
      },
      TASK_CATALOG,
    );
    expect("errors" in r && r.errors["tasks.a"]).toEqual([
      "Task a: invoice: an invoice XML can be attached to PDF/A-3 only; use conformance_level 3b.",
    ]);
    const err = await expectTaskError(
      () =>
        execute(
          "pdf/a",
          { conformance_level: "3b", invoice: "xml" },
          [corpusInput("pdf/gotenberg-pages_12.pdf")],
          invoiceCtx("<html>no</html>"),
        ),
      "OPEN_FAILED",
    );
    expect(err.message).toContain("invoice.xml");
  });
});

describe("optimize flatten_signatures (issue 31)", () => {
  const sigFields = (pdf: Uint8Array) =>
    (
      sh("qpdf", ["--json", tmpFile(pdf)])
        .stdout.toString()
        .match(/"\/Sig"/g) ?? []
    ).length;

  it("draws the signatures into the pages and removes their fields (qpdf --json), pages kept (pdfinfo)", async () => {
    for (const rel of ["pdf/pdflib-with_signature.pdf", "pdf/pyhanko-pades-signed.pdf"]) {
      const src = new Uint8Array(readFileSync(corpusPath(rel)));
      expect(sigFields(src), rel).toBeGreaterThan(0);
      const r = await execute("optimize", { profile: "web", flatten_signatures: true }, [corpusInput(rel)], full());
      const out = dataOf(r.out.files[0]!);
      expect(sigFields(out), rel).toBe(0);
      expect(sh("qpdf", ["--check", tmpFile(out)]).status, rel).toBe(0);
      expect(Number(pdfinfo(out).Pages), rel).toBe(Number(pdfinfo(src).Pages));
      expect(r.out.extra?.unchanged, rel).toEqual([]);
    }
  });
});
