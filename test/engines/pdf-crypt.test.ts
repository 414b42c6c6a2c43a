/** pdf/encrypt and pdf/decrypt on corpus PDFs, checked with qpdf --show-encryption and pdfinfo. */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { decryptPdf } from "../../src/operations/pdf/decrypt";
import { encryptPdf } from "../../src/operations/pdf/encrypt";
import { rotatePages } from "../../src/operations/pdf/rotate";
import { corpusPath } from "../support/corpus";
import {
  bytesInput,
  corpusInput,
  dataOf,
  expectQpdfCheck,
  expectTaskError,
  FACTS,
  pdfinfo,
  pdftotext,
  testContext,
  tmpFile,
} from "../support/pdf-helpers";

const ctx = testContext();

function showEncryption(data: Uint8Array, password: string): Record<string, string> {
  const out = execFileSync("qpdf", ["--show-encryption", `--password=${password}`, tmpFile(data)], {
    encoding: "utf8",
  });
  return Object.fromEntries(
    out
      .split("\n")
      .filter((l: string) => /[:=]/.test(l))
      .map((l: string) => l.split(/\s*[:=]\s*/, 2) as [string, string]),
  );
}

describe("pdf/encrypt", () => {
  it("encrypts with AES-256 and the permissions asked for", async () => {
    const params = {
      set_password: "user",
      set_owner_password: "owner",
      allow_extract: false,
      allow_print: "low" as const,
      allow_modify: "form" as const,
    };
    const { files } = await encryptPdf.run([corpusInput("pdf/pdfjs-rotation.pdf")], params, ctx);
    const data = dataOf(files[0]);
    expectQpdfCheck(data, "user");
    const enc = showEncryption(data, "user");
    expect(enc).toMatchObject({
      R: "6",
      "extract for accessibility": "allowed",
      "extract for any purpose": "not allowed",
      "print low resolution": "allowed",
      "print high resolution": "not allowed",
      "modify document assembly": "allowed",
      "modify forms": "allowed",
      "modify annotations": "not allowed",
      "modify other": "not allowed",
      "stream encryption method": "AESv3",
    });
    expect(
      execFileSync("qpdf", ["--show-encryption", "--password=owner", tmpFile(data)], { encoding: "utf8" }),
    ).toContain("Supplied password is owner password");
    // needs the password to open; document info survives encryption
    expect(() => execFileSync("pdfinfo", [tmpFile(data)], { stdio: "pipe" })).toThrow();
    expect(pdfinfo(data, "user").Title).toBe("Microsoft Word - Document1");
  });

  it.each([
    ["none", { "modify document assembly": "not allowed", "modify forms": "not allowed" }],
    ["assemble", { "modify document assembly": "allowed", "modify forms": "not allowed" }],
    ["annotate", { "modify annotations": "allowed", "modify other": "not allowed" }],
    ["all", { "modify other": "allowed", "modify anything": "allowed" }],
  ] as const)("allow_modify %s", async (allow_modify, expected) => {
    const { files } = await encryptPdf.run(
      [corpusInput("pdf/pdfjs-rotation.pdf")],
      { set_owner_password: "o", allow_modify, allow_print: "none" },
      ctx,
    );
    const enc = showEncryption(dataOf(files[0]), "");
    expect(enc).toMatchObject({
      ...expected,
      "print low resolution": "not allowed",
      "extract for any purpose": "allowed",
    });
    expectQpdfCheck(dataOf(files[0]));
  });

  it("without passwords (the n8n node's default payload): opens without one, its restrictions hold", async () => {
    // CloudConvert: "Encrypts a PDF, optionally with passwords and restrictions" (issue 31)
    expect(encryptPdf.params.safeParse({ allow_print: "some" }).success).toBe(false);
    const { files } = await encryptPdf.run(
      [corpusInput("pdf/pdfjs-rotation.pdf")],
      { allow_extract: false, allow_accessibility: true },
      ctx,
    );
    const data = dataOf(files[0]);
    expect(spawnSync("qpdf", ["--is-encrypted", tmpFile(data)]).status).toBe(0);
    expect(spawnSync("qpdf", ["--requires-password", tmpFile(data)]).status).toBe(3); // encrypted, opens without one
    expectQpdfCheck(data, "");
    const out = execFileSync("qpdf", ["--show-encryption", tmpFile(data)], { encoding: "utf8" });
    expect(out).toContain("Supplied password is user password"); // the empty one: not the owner's
    expect(showEncryption(data, "")).toMatchObject({
      R: "6",
      "extract for any purpose": "not allowed",
      "extract for accessibility": "allowed",
    });
  });
});

describe("pdf/decrypt", () => {
  const encrypted = Object.entries(FACTS).filter(
    ([k, v]) => k.startsWith("pdf-encrypted/") && v.user_password !== undefined,
  );

  it.each(encrypted.map(([k, v]) => [k, v.user_password as string, v.pages as number]))(
    "%s opens with its user password %j",
    async (rel, password, pages) => {
      const { files } = await decryptPdf.run([corpusInput(rel)], { password }, ctx);
      expectQpdfCheck(files[0]);
      const info = pdfinfo(files[0]);
      expect(info.Encrypted).toBe("no");
      expect(Number(info.Pages)).toBe(pages);
    },
  );

  it("opens with the owner password, and with the SASLprep form of an AES-256 password", async () => {
    // Oracles: qpdf (is the output still encrypted? is it sound?) and poppler opening the *source*
    // with the same password (pages and text must match, not merely be present).
    const cases = [
      ["pdf-encrypted/qpdf-enc-XI-R6-V5-U_view-O_master.pdf", "master", "-opw"], // the owner password (user is "view")
      ["pdf-encrypted/pdfjs-saslprep-r6.pdf", "SaSLprep", "-upw"],
    ] as const;
    for (const [rel, password, popplerFlag] of cases) {
      const source = corpusPath(rel);
      const { files } = await decryptPdf.run([corpusInput(rel)], { password }, ctx);
      const out = tmpFile(files[0]);
      // `qpdf --is-encrypted` exits 0 when encrypted, 2 when not
      expect(spawnSync("qpdf", ["--is-encrypted", out]).status, `${rel}: qpdf --is-encrypted`).toBe(2);
      expect(spawnSync("qpdf", ["--is-encrypted", source]).status, `${rel}: the source is encrypted`).toBe(0);
      expect(execFileSync("qpdf", ["--show-encryption", out], { encoding: "utf8" })).toContain("File is not encrypted");
      expectQpdfCheck(files[0]);
      const info = pdfinfo(files[0]);
      expect(info.Encrypted).toBe("no");
      expect(info.Pages).toBe(pdfinfo(source, undefined, [popplerFlag, password]).Pages);
      expect(Number(info.Pages)).toBe(FACTS[rel].pages);
      const text = pdftotext(files[0]);
      expect(text).toContain(FACTS[rel].text_page1_excerpt as string);
      expect(text).toBe(execFileSync("pdftotext", [popplerFlag, password, source, "-"], { encoding: "utf8" }));
    }
  });

  it("a wrong or missing password is INVALID_PASSWORD", async () => {
    const wrong = await expectTaskError(
      () =>
        decryptPdf.run([corpusInput("pdf-encrypted/qpdf-enc-R3-V2-U_view-O_master.pdf")], { password: "nope" }, ctx),
      "INVALID_PASSWORD",
    );
    expect(wrong.message).toContain("the password is wrong");
    await expectTaskError(
      () => decryptPdf.run([corpusInput("pdf-encrypted/qpdf-enc-XI-R6-V5-U_view-O_master.pdf")], {}, ctx),
      "INVALID_PASSWORD",
    );
  });

  it("round-trips pdf/encrypt output and keeps Title/Producer", async () => {
    const enc = await encryptPdf.run([corpusInput("pdf/cloudconvert-input.pdf")], { set_password: "pw" }, ctx);
    const dec = await decryptPdf.run([bytesInput("e.pdf", dataOf(enc.files[0]))], { password: "pw" }, ctx);
    const info = pdfinfo(dec.files[0]);
    expect(info.Encrypted).toBe("no");
    expect(info.Producer).toBe("ScanSoft PDF Create! 7");
    expect(info.Pages).toBe("31");
  });
});

describe("encrypted inputs with an empty user password", () => {
  it("page operations open them and write them decrypted", async () => {
    const { files } = await rotatePages.run(
      [corpusInput("pdf-encrypted/tika-testPDF_protected.pdf")],
      { rotation: "90", pages: "1" },
      ctx,
    );
    expectQpdfCheck(files[0]);
    expect(pdfinfo(files[0]).Title).toMatch(/^Rethinking the Financial Network/);
  });
});

describe("AES-256 output is complete", () => {
  it("encrypts strings outside object streams too (the catalog's /Lang reads back)", async () => {
    const { files } = await encryptPdf.run([corpusInput("pdf/pdfjs-attachment.pdf")], { set_password: "u" }, ctx);
    const data = dataOf(files[0]);
    expectQpdfCheck(data, "u");
    const trailer = execFileSync("qpdf", ["--password=u", "--show-object=trailer", tmpFile(data)], {
      encoding: "utf8",
    });
    const root = /\/Root (\d+) 0 R/.exec(trailer)![1];
    expect(
      execFileSync("qpdf", ["--password=u", `--show-object=${root}`, tmpFile(data)], { encoding: "utf8" }),
    ).toContain("/Lang (nl-NL)");
    // the attachment (an embedded file stream, encrypted with WebCrypto) decrypts to the original bytes
    const saved = (path: string, pw?: string) => {
      const out = tmpFile(new Uint8Array(0), "txt");
      execFileSync("pdfdetach", [...(pw ? ["-upw", pw] : []), "-save", "1", "-o", out, path]);
      return readFileSync(out, "utf8");
    };
    expect(saved(tmpFile(data), "u")).toBe(saved(corpusPath("pdf/pdfjs-attachment.pdf")));
    expect(pdftotext(data, "u").length).toBeGreaterThan(0);
  });
});
