/**
 * pdf-lib's rotate → encrypt (AES-256) → decrypt chain, checked with independent oracles (Debian's
 * qpdf and poppler), never by reading pdf-lib's output back with pdf-lib (issue 11).
 * test/worker/pdf-engines.test.ts runs the same chain inside workerd, where there are no native
 * tools; this is the Node counterpart that can ask qpdf, pdfinfo and pdftotext.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { pdfOf } from "../contract/engines.cases";
import { decryptPdf } from "../../src/operations/pdf/decrypt";
import { encryptPdf } from "../../src/operations/pdf/encrypt";
import { rotatePages } from "../../src/operations/pdf/rotate";
import {
  bytesInput,
  dataOf,
  expectQpdfCheck,
  pageRotations,
  pdfinfo,
  pdftotext,
  testContext,
  tmpFile,
} from "../support/pdf-helpers";

const ctx = testContext();

/** The input: three 300×400 pages showing "Page N", titled "Edge sample" (the contract suites' builder; only the outputs need an oracle). */
const samplePdf = () =>
  pdfOf(
    [
      [300, 400],
      [300, 400],
      [300, 400],
    ],
    "Edge sample",
  );

/** `qpdf --is-encrypted`: exit 0 when encrypted, 2 when not. */
const isEncrypted = (data: Uint8Array) => spawnSync("qpdf", ["--is-encrypted", tmpFile(data)]).status;

describe("pdf-lib page operations and AES-256, checked with qpdf and poppler", () => {
  it("rotates, encrypts (AES-256) and decrypts, keeping the title, the pages and their text", async () => {
    const sample = await samplePdf();
    expect(pdfinfo(sample)).toMatchObject({ Title: "Edge sample", Pages: "3", Encrypted: "no" });
    expect(pageRotations(sample)).toEqual([0, 0, 0]);

    const rotated = dataOf(
      (await rotatePages.run([bytesInput("sample.pdf", sample)], { rotation: "+90" }, ctx)).files[0],
    );
    expectQpdfCheck(rotated);
    expect(pageRotations(rotated)).toEqual([90, 90, 90]);

    const encrypted = dataOf(
      (await encryptPdf.run([bytesInput("sample.pdf", rotated)], { set_password: "pw" }, ctx)).files[0],
    );
    expect(isEncrypted(encrypted)).toBe(0);
    expectQpdfCheck(encrypted, "pw");
    const enc = execFileSync("qpdf", ["--show-encryption", "--password=pw", tmpFile(encrypted)], { encoding: "utf8" });
    expect(enc).toMatch(/^R = 6$/m);
    expect(enc).toMatch(/^stream encryption method: AESv3$/m);
    expect(spawnSync("pdfinfo", [tmpFile(encrypted)]).status, "opens without the password").not.toBe(0);
    expect(
      spawnSync("qpdf", ["--check", "--password=wrong", tmpFile(encrypted)]).status,
      "opens with a wrong password",
    ).not.toBe(0);
    expect(pdfinfo(encrypted, "pw")).toMatchObject({ Title: "Edge sample", Pages: "3" });

    const decrypted = dataOf(
      (await decryptPdf.run([bytesInput("sample.pdf", encrypted)], { password: "pw" }, ctx)).files[0],
    );
    expect(isEncrypted(decrypted)).toBe(2);
    expectQpdfCheck(decrypted);
    expect(pdfinfo(decrypted)).toMatchObject({ Title: "Edge sample", Pages: "3", Encrypted: "no" });
    expect(pageRotations(decrypted)).toEqual([90, 90, 90]);
    const pages = pdftotext(decrypted)
      .split("\f")
      .map((t) => t.trim())
      .filter(Boolean);
    expect(pages).toEqual(["Page 1", "Page 2", "Page 3"]);
  });
});
