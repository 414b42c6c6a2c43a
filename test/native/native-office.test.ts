/**
 * Office documents through the operations (issue 12), with the native engine as a local process:
 * every office file of the corpus converted to PDF with the page count and text the LibreOffice
 * CLI gives on the same file (the oracle: `soffice --headless --convert-to pdf`, run here, read with
 * pdfinfo and pdftotext); a password-protected DOCX; broken files ending in task errors while the
 * pool keeps serving; the linked-external document converting with nothing fetched; merge,
 * thumbnail and watermark of office inputs through PDF.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeEngines } from "../../src/runtime/node/engines";
import { execute } from "../../src/runner/execute";
import { byClaim, claimedBy } from "../support/claims";
import { corpusPath, CORPUS } from "../support/corpus";
import { nativeEngineForFile } from "../support/native-engine";
import {
  bytesInput,
  corpusInput,
  dataOf,
  expectTaskError,
  pdfinfo,
  pdftotext,
  pngSize,
  testContext,
  tmpFile,
} from "../support/pdf-helpers";

const native = nativeEngineForFile();
const ctx = () => testContext({ engines: { ...nodeEngines(), ...native.engines() } });

/** The LibreOffice CLI's own PDF of a corpus file (the oracle), or null when it makes none. */
const cliDir = mkdtempSync(join(tmpdir(), "soffice-cli-"));
function cliPdf(rel: string): string | null {
  const out = join(cliDir, rel.replace(/\W/g, "_"));
  spawnSync(
    "soffice",
    [
      `-env:UserInstallation=file://${join(cliDir, "profile")}`,
      "--headless",
      "--convert-to",
      "pdf",
      "--outdir",
      out,
      corpusPath(rel),
    ],
    { stdio: "ignore", timeout: 120_000 },
  );
  const made = existsSync(out) ? readdirSync(out).filter((f) => f.endsWith(".pdf")) : [];
  return made.length ? join(out, made[0]!) : null;
}
const words = (t: string) => t.replace(/\s+/g, " ").trim().split(" ").slice(0, 12).join(" ");

/**
 * The office corpus split by what the engine table claims for convert → pdf: claimed formats are
 * held to the CLI's PDF; the others (epub, iWork, hwp, djvu, xps… until an issue claims them) must
 * be refused by routing with a coded error naming the conversion.
 */
const SWEEP = byClaim(
  readdirSync(join(CORPUS, "office"))
    .filter((f) => !f.includes("protected"))
    .map((f) => `office/${f}`),
  "convert",
  "pdf",
);
/** The claimed files LibreOffice converts (its row first for them); the rest are another engine's (epub: calibre, issue 33). */
const firstClaimant = (rel: string) => claimedBy("convert", rel.split(".").pop()!.toLowerCase(), "pdf")[0];
const OFFICE = SWEEP.claimed.filter((rel) => firstClaimant(rel) === "libreoffice");
const ELSEWHERE = SWEEP.claimed.filter((rel) => !OFFICE.includes(rel));

describe("office → PDF matches the LibreOffice CLI", () => {
  it("the corpus has the office formats the issue names, all claimed", () => {
    const exts = new Set(OFFICE.map((f) => f.split(".").pop()));
    for (const e of ["doc", "docx", "odt", "rtf", "xls", "xlsx", "ods", "ppt", "pptx", "wpd"])
      expect(exts.has(e), e).toBe(true);
  });

  for (const rel of SWEEP.unclaimed) {
    it(`${rel}: a format not claimed yet → INVALID_CONVERSION_TYPE, naming it`, async () => {
      const ext = rel.split(".").pop()!;
      const err = await expectTaskError(
        () => execute("convert", { output_format: "pdf" }, [corpusInput(rel)], ctx()),
        "INVALID_CONVERSION_TYPE",
      );
      expect(err.message).toContain(`from ${ext} to pdf`);
    });
  }

  for (const rel of ELSEWHERE) {
    it(`${rel}: claimed for pdf by ${firstClaimant(rel)}, which converts it (its own tests hold the content)`, async () => {
      const r = await execute("convert", { output_format: "pdf" }, [corpusInput(rel)], ctx());
      expect(r.engine.name).toBe(firstClaimant(rel));
      expect(Number(pdfinfo(r.out.files[0]!).Pages)).toBeGreaterThan(0);
    });
  }

  for (const rel of OFFICE) {
    it(`${rel}: same page count and text as soffice --convert-to pdf`, async () => {
      const cli = cliPdf(rel);
      if (cli === null) {
        // a claimed format whose file the CLI cannot load either (HWP 5 for LibreOffice 7.4's HWP 97 filter): a coded error
        await expectTaskError(
          () => execute("convert", { output_format: "pdf" }, [corpusInput(rel)], ctx()),
          "OPEN_FAILED",
        );
        return;
      }
      const r = await execute("convert", { output_format: "pdf" }, [corpusInput(rel)], ctx());
      expect(r.engine.name).toBe("libreoffice");
      const out = r.out.files[0]!;
      expect(out.filename).toBe(basename(rel).replace(/\.\w+$/, ".pdf"));
      expect(Number(pdfinfo(out).Pages)).toBe(Number(pdfinfo(cli!).Pages));
      expect(r.out.extra?.pages).toBe(Number(pdfinfo(cli!).Pages));
      expect(words(pdftotext(out))).toBe(words(execFileSync("pdftotext", [cli!, "-"]).toString()));
      expect(Array.isArray(r.out.extra?.fonts_substituted)).toBe(true);
    });
  }

  it("lists the fonts a document asks for that the engine lacks (fc-match is the oracle)", async () => {
    const r = await execute("convert", { output_format: "pdf" }, [corpusInput("office/tika-testEXCEL.xlsx")], ctx());
    const subs = r.out.extra?.fonts_substituted as { requested: string; used: string }[];
    expect(subs.length).toBeGreaterThan(0);
    for (const s of subs) {
      expect(execFileSync("fc-match", ["-f", "%{family}", s.requested]).toString().split(",")[0]).toBe(s.used);
      expect(s.used.toLowerCase()).not.toBe(s.requested.toLowerCase());
    }
  });
});

describe("passwords, broken and hostile documents", () => {
  const PROTECTED = "office/tika-testWORD_protected_passtika.docx";

  it("a protected DOCX: INVALID_PASSWORD without or with a wrong password, a PDF with the right one", async () => {
    await expectTaskError(
      () => execute("convert", { output_format: "pdf" }, [corpusInput(PROTECTED)], ctx()),
      "INVALID_PASSWORD",
    );
    await expectTaskError(
      () => execute("convert", { output_format: "pdf", password: "wrong" }, [corpusInput(PROTECTED)], ctx()),
      "INVALID_PASSWORD",
    );
    const r = await execute("convert", { output_format: "pdf", password: "tika" }, [corpusInput(PROTECTED)], ctx());
    expect(pdftotext(r.out.files[0]!).trim().length).toBeGreaterThan(0);
  });

  it("a truncated DOCX and random bytes end as task errors with a code, and the pool converts the next document", async () => {
    const err = await expectTaskError(
      () => execute("convert", { output_format: "pdf" }, [corpusInput("broken/tika-testWORD_truncated.docx")], ctx()),
      "OPEN_FAILED",
    );
    expect(err.message).toContain("tika-testWORD_truncated.docx");
    const junk = new Uint8Array(4096).map((_, i) => (i * 7919) % 251);
    await expect(
      execute("convert", { output_format: "pdf" }, [bytesInput("junk.docx", junk)], ctx()),
    ).rejects.toMatchObject({ name: "TaskError" });
    const ok = await execute(
      "convert",
      { output_format: "pdf" },
      [corpusInput("office/gotenberg-pages_3.docx")],
      ctx(),
    );
    expect(Number(pdfinfo(ok.out.files[0]!).Pages)).toBe(3);
  });

  it("a document that outlives its timeout ends in TIMEOUT and the pool keeps serving", async () => {
    const slow = testContext({ engines: { ...nodeEngines(), ...native.engines({ timeoutMs: 1 }) } });
    await expectTaskError(
      () =>
        execute("convert", { output_format: "pdf" }, [corpusInput("office/python-pptx-shp-movie-props.pptx")], slow),
      "TIMEOUT",
    );
    const ok = await execute("convert", { output_format: "pdf" }, [corpusInput("office/tika-testRTF.rtf")], ctx());
    expect(pdftotext(ok.out.files[0]!).trim().length).toBeGreaterThan(0);
  });

  it("a document linking an external image by file:// or http:// converts with nothing loaded or fetched", async () => {
    let hits = 0;
    const srv = createServer((_q, res) => {
      hits++;
      res.end(readFileSync(corpusPath("images/cloudconvert-input.png")));
    });
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    const port = (srv.address() as { port: number }).port;
    try {
      const linked = readFileSync(corpusPath("broken/gotenberg-libreoffice-linked-external.fodt"), "utf8");
      const http = linked.replace(/file:\/\/\/[^"]+/, `http://127.0.0.1:${port}/giraffe.png`);
      for (const [name, text] of [
        ["linked-file.fodt", linked],
        ["linked-http.fodt", http],
      ] as const) {
        const r = await execute(
          "convert",
          { output_format: "pdf" },
          [bytesInput(name, new TextEncoder().encode(text))],
          ctx(),
        );
        const images = execFileSync("pdfimages", ["-list", tmpFile(r.out.files[0]!)])
          .toString()
          .trim()
          .split("\n")
          .slice(2);
        expect(images, `${name}: no image embedded`).toEqual([]);
        expect(pdftotext(r.out.files[0]!)).toContain("must not load");
      }
      expect(hits).toBe(0);
    } finally {
      srv.close();
    }
  });
});

describe("merge, thumbnail and watermark of office inputs go through PDF", () => {
  it("merge: a DOCX and a PDF in input order", async () => {
    const r = await execute(
      "merge",
      { output_format: "pdf" },
      [corpusInput("office/gotenberg-pages_3.docx"), corpusInput("pdf/gotenberg-pages_12.pdf")],
      ctx(),
    );
    const out = r.out.files[0]!;
    expect(Number(pdfinfo(out).Pages)).toBe(15);
    expect(pdftotext(out).replace(/\s+/g, " ")).toMatch(/^Page 1 .*Page 2 .*Page 3 /);
  });

  it("thumbnail of a DOCX: a PNG of its first page", async () => {
    const r = await execute(
      "thumbnail",
      { output_format: "png", width: 200 },
      [corpusInput("office/gotenberg-pages_3.docx")],
      ctx(),
    );
    expect(r.engine.name).toBe("libreoffice");
    expect(r.out.extra?.pdf_engine).toBe("pdfium");
    const png = dataOf(r.out.files[0]!);
    expect(r.out.files[0]!.filename).toBe("gotenberg-pages_3.png");
    expect(pngSize(png).width).toBe(200);
    expect(execFileSync("identify", ["-format", "%m", tmpFile(png, "png")]).toString()).toBe("PNG");
  });

  it("watermark of an XLSX: a PDF with the text on its pages", async () => {
    const r = await execute(
      "watermark",
      { text: "CONFIDENTIAL", output_format: "pdf" },
      [corpusInput("office/tika-testEXCEL.xlsx")],
      ctx(),
    );
    expect(r.out.files[0]!.filename).toBe("tika-testEXCEL.pdf");
    const text = pdftotext(r.out.files[0]!);
    expect(text).toContain("CONFIDENTIAL");
    expect(text).toContain("Sample Excel Worksheet");
  });
});

describe("convert options of office → pdf (issue 31)", () => {
  const THREE = "office/gotenberg-pages_3.docx";
  const xmp = (f: Parameters<typeof dataOf>[0]) =>
    execFileSync("exiftool", ["-s3", "-XMP-pdfaid:Part", "-XMP-pdfaid:Conformance", tmpFile(f)])
      .toString()
      .trim()
      .split("\n");

  it("pages is LibreOffice's page range: pages 1-2 of a 3-page DOCX (pdfinfo), their text (pdftotext)", async () => {
    const all = await execute("convert", { output_format: "pdf" }, [corpusInput(THREE)], ctx());
    expect(Number(pdfinfo(all.out.files[0]!).Pages)).toBe(3);
    const r = await execute("convert", { output_format: "pdf", pages: "1-2" }, [corpusInput(THREE)], ctx());
    expect(Number(pdfinfo(r.out.files[0]!).Pages)).toBe(2);
    expect(r.out.extra?.pages).toBe(2);
    const p3 = await execute("convert", { output_format: "pdf", pages: "3" }, [corpusInput(THREE)], ctx());
    expect(Number(pdfinfo(p3.out.files[0]!).Pages)).toBe(1);
    expect(words(pdftotext(p3.out.files[0]!))).toBe(
      words(execFileSync("pdftotext", ["-f", "3", "-l", "3", tmpFile(all.out.files[0]!), "-"]).toString()),
    );
  });

  it("pdf_a is LibreOffice's PDF/A-2b export: XMP pdfaid part 2, conformance B (exiftool)", async () => {
    const r = await execute("convert", { output_format: "pdf", pdf_a: true, pages: "1" }, [corpusInput(THREE)], ctx());
    expect(xmp(r.out.files[0]!)).toEqual(["2", "B"]);
    expect(Number(pdfinfo(r.out.files[0]!).Pages)).toBe(1);
    const plain = await execute("convert", { output_format: "pdf" }, [corpusInput(THREE)], ctx());
    expect(xmp(plain.out.files[0]!)).toEqual([""]);
  });
});
