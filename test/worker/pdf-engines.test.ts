/**
 * The PDF engines inside workerd (the worker test project), as the api Worker builds them
 * (runtime/workerd/engines.ts): PDFium loaded from the imported pdfium.wasm module, pdf-lib page
 * operations and AES-256 encryption with WebCrypto.
 * Inputs are built in the test (no file system in workerd).
 */
import { PDFDocument } from "@cantoo/pdf-lib";
import { describe, expect, it } from "vitest";
import { convertPdfToImage } from "../../src/operations/pdf/rasterize";
import { pdfOf } from "../contract/engines.cases";
import { decryptPdf } from "../../src/operations/pdf/decrypt";
import { encryptPdf } from "../../src/operations/pdf/encrypt";
import { rotatePages } from "../../src/operations/pdf/rotate";
import { workerdEngines } from "../../src/runtime/workerd/engines";
import { MemoryFileStore } from "../../src/storage/file-store";
import type { InputFile, OperationContext } from "../../src/operations/types";

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

const input = (data: Uint8Array): InputFile => ({
  filename: "sample.pdf",
  size: data.byteLength,
  fromTask: "t",
  key: "k",
  bytes: async () => data,
});
const ctx = {
  signal: new AbortController().signal,
  taskName: "t",
  taskId: "t",
  jobId: "j",
  files: new MemoryFileStore(),
  engines: workerdEngines({}),
  settings: {} as never,
  taskFiles: async () => [],
} as OperationContext;

describe("PDF engines in workerd", () => {
  it("PDFium renders pages to PNG from the imported WebAssembly.Module", async () => {
    const { files } = await convertPdfToImage.run(
      [input(await samplePdf())],
      { output_format: "png", pixel_density: 72 },
      ctx,
    );
    expect(files.map((f) => f.filename)).toEqual(["sample-1.png", "sample-2.png", "sample-3.png"]);
    const png = files[0].data as Uint8Array;
    expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join("")).toBe("PNG");
    const view = new DataView(png.buffer, png.byteOffset);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([300, 400]);
  });

  it("pdf-lib rotates, encrypts (AES-256) and decrypts, keeping the title", async () => {
    const rotated = await rotatePages.run([input(await samplePdf())], { rotation: "+90" }, ctx);
    const encrypted = await encryptPdf.run([input(rotated.files[0].data as Uint8Array)], { set_password: "pw" }, ctx);
    const decrypted = await decryptPdf.run([input(encrypted.files[0].data as Uint8Array)], { password: "pw" }, ctx);
    const doc = await PDFDocument.load(decrypted.files[0].data as Uint8Array, { updateMetadata: false });
    expect(doc.getTitle()).toBe("Edge sample");
    expect(doc.getPage(0).getRotation().angle).toBe(90);
  });
});
