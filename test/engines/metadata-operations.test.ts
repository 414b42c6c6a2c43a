// The metadata registry rows (OperationHandler) over the in-process engine: result shape (contract:
// result.metadata, scalar values, PageCount integer, 0 credits, no files), input_format, filename,
// parameter checks at creation, and engine failures (as data, or a rejected RPC) as TaskErrors.
import { describe, expect, it } from "vitest";
import { TaskError } from "../../src/engines/errors";
import { EXIFTOOL_ENGINE } from "../../src/engines/exiftool/version";
import { METADATA_HANDLERS, metadataRead, metadataWrite } from "../../src/operations/metadata";
import { validateTaskParams } from "../../src/operations/validate";
import { MemoryFileStore } from "../../src/storage/file-store";
import type { InputFile, OperationContext } from "../../src/operations/types";
import { corpusBytes, exiftool } from "../support/metadata-helpers";
import { createPdfLibEngine } from "../../src/engines/pdflib/engine";
import { CORPUS } from "../support/corpus";
import { execFileSync } from "node:child_process";
import { join } from "node:path";

const input = (filename: string, data: Uint8Array): InputFile => ({
  filename,
  size: data.byteLength,
  fromTask: "import",
  key: `k/${filename}`,
  bytes: async () => data,
});
const ctx = (engines: Record<string, unknown> = { exiftool: exiftool() }): OperationContext => ({
  signal: new AbortController().signal,
  taskName: "meta",
  taskId: "00000000-0000-4000-8000-000000000001",
  jobId: "00000000-0000-4000-8000-000000000002",
  files: new MemoryFileStore(),
  engines,
  taskFiles: async () => [],
  settings: {
    allowPrivateImports: false,
    maxImportBytes: 1 << 26,
    publicBaseUrl: "http://localhost",
    urlSigningSecret: "s",
    fileUrlTtlSeconds: 60,
  },
});
const pdf = () => corpusBytes("pdf/cloudconvert-input.pdf");

describe("metadata rows", () => {
  it("declare the engine, 0 credits for metadata, and formats for the catalogue", () => {
    expect(METADATA_HANDLERS.map((h) => h.operation)).toEqual(["metadata", "metadata/write"]);
    expect(metadataRead).toMatchObject({ kind: "metadata", credits: 0, takesInput: true });
    expect(metadataRead.formats).toContainEqual({ input: "docx", output: "*" });
    expect(metadataWrite.formats).toContainEqual({ input: "jpg", output: "jpg" });
  });

  it("metadata: result.metadata with scalar values and an integer PageCount, no files", async () => {
    const out = await metadataRead.run([input("plan.pdf", pdf())], {}, ctx());
    expect(out.files).toEqual([]);
    expect(out.engine).toEqual({ name: "exiftool", version: EXIFTOOL_ENGINE.version });
    const m = out.extra!.metadata as Record<string, unknown>;
    expect(m).toMatchObject({
      SourceFile: "plan.pdf",
      FileName: "plan.pdf",
      FileType: "PDF",
      PDFVersion: 1.4,
      Author: "Doug",
      PageCount: 31,
    });
    expect(Number.isInteger(m.PageCount)).toBe(true);
    for (const [k, v] of Object.entries(m)) expect(["string", "number"], k).toContain(typeof v);
  });

  it("metadata opens an encrypted PDF with `password` (issue 16): the document's properties, as Debian's exiftool -password reads them", async () => {
    const rel = "pdf-encrypted/qpdf-enc-R3-V2-U_view-O_master.pdf";
    const engines = { exiftool: exiftool(), pdflib: createPdfLibEngine() };
    const out = await metadataRead.run([input("locked.pdf", corpusBytes(rel))], { password: "view" }, ctx(engines));
    const native = JSON.parse(
      execFileSync("exiftool", ["-json", "-password", "view", join(CORPUS, rel)], { encoding: "utf8" }),
    )[0];
    expect(native.PageCount).toBe(30);
    const m = out.extra!.metadata as Record<string, unknown>;
    for (const key of ["PageCount", "CreateDate", "ModifyDate", "PageMode"]) expect(m[key], key).toBe(native[key]);
    // AES-256 R6 (ExifTool alone takes ~19 s natively): the owner password opens it; pdfinfo says the page count
    const r6 = "pdf-encrypted/qpdf-enc-XI-R6-V5-U_view-O_master.pdf";
    const out6 = await metadataRead.run([input("r6.pdf", corpusBytes(r6))], { password: "master" }, ctx(engines));
    const pages = execFileSync("pdfinfo", ["-upw", "view", join(CORPUS, r6)], { encoding: "utf8" }).match(
      /Pages:\s+(\d+)/,
    )![1];
    expect((out6.extra!.metadata as Record<string, unknown>).PageCount).toBe(Number(pages));
    const wrong = await metadataRead
      .run([input("r6.pdf", corpusBytes(r6))], { password: "nope" }, ctx(engines))
      .catch((e) => e);
    expect(wrong).toBeInstanceOf(TaskError);
    expect(wrong.code).toBe("INVALID_PASSWORD");
  });

  it("metadata honours input_format when the extension is wrong", async () => {
    const out = await metadataRead.run([input("upload.bin", pdf())], { input_format: "pdf" }, ctx());
    expect(out.extra!.metadata).toMatchObject({ FileType: "PDF", FileName: "upload.bin", PageCount: 31 });
  });

  it("metadata/write: a new file named by `filename`, readable back", async () => {
    const out = await metadataWrite.run(
      [input("plan.pdf", pdf())],
      { metadata: { Title: "New", Author: "Ann" }, filename: "titled.pdf" },
      ctx(),
    );
    expect(out.files).toHaveLength(1);
    expect(out.files[0]).toMatchObject({ filename: "titled.pdf", contentType: "application/pdf" });
    const back = await metadataRead.run([input("titled.pdf", out.files[0].data as Uint8Array)], {}, ctx());
    expect(back.extra!.metadata).toMatchObject({ Title: "New", Author: "Ann", PageCount: 31 });
  });

  it("metadata/write: bad properties are refused at creation (422) naming them", () => {
    const r = validateTaskParams([metadataWrite], { metadata: { Title: "x", "bad name": "y", FileName: "z" } });
    expect("errors" in r && r.errors.join(" ")).toMatch(/metadata\.bad name.*metadata\.FileName/);
    expect(
      "params" in
        validateTaskParams([metadataWrite], { metadata: { Title: "x", Keywords: ["a", "b"], "XMP:Rating": 3 } }),
    ).toBe(true);
  });

  it("metadata/write: a property the format cannot hold fails the task naming it", async () => {
    const err = await metadataWrite
      .run(
        [input("p.jpg", corpusBytes("images/exif-orientation-Landscape_1.jpg"))],
        { metadata: { Rating: "five" } },
        ctx(),
      )
      .catch((e) => e);
    expect(err).toBeInstanceOf(TaskError);
    expect(err).toMatchObject({ code: "CONVERSION_FAILED", message: expect.stringContaining("metadata.Rating") });
  });

  it("turns a missing engine, a failure as data and a rejected RPC into TaskErrors with codes", async () => {
    await expect(metadataRead.run([input("a.pdf", pdf())], {}, ctx({}))).rejects.toMatchObject({
      code: "ENGINE_UNAVAILABLE",
      retryable: false,
    });
    const asData = {
      read: async () => ({
        ok: false,
        error: { code: "OPEN_FAILED", message: "bad", retryable: false },
        engineVersion: "13.42",
      }),
    };
    await expect(metadataRead.run([input("a.pdf", pdf())], {}, ctx({ exiftool: asData }))).rejects.toMatchObject({
      code: "OPEN_FAILED",
      message: "a.pdf: bad",
    });
    const rejected = {
      read: async () => {
        throw new Error("Worker exceeded CPU time limit.");
      },
    };
    await expect(metadataRead.run([input("a.pdf", pdf())], {}, ctx({ exiftool: rejected }))).rejects.toMatchObject({
      code: "TIMEOUT",
    });
  });
});
