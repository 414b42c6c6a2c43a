// The in-process ExifTool engine (zeroperl in Node): version, budgets, the call queue, sandbox names,
// input_format, and memory over repeated calls. Oracle: Debian's exiftool where a value is compared.
import { describe, expect, it } from "vitest";
import { EXIFTOOL_ENGINE } from "../../src/engines/exiftool/version";
import { corpusBytes, exiftool } from "../support/metadata-helpers";

const PDF = "pdf/cloudconvert-input.pdf";

describe("ExifTool engine", () => {
  it("reports the real ExifTool version, the one the registry rows declare", async () => {
    const r = await exiftool().read({ input: corpusBytes(PDF), filename: "a.pdf" });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.engineVersion).toBe(EXIFTOOL_ENGINE.version);
    expect(r.metadata.ExifToolVersion).toBe(Number(EXIFTOOL_ENGINE.version));
    expect((await exiftool().info()).engineVersion).toBe(EXIFTOOL_ENGINE.version);
  });

  it("names the file as uploaded, never the sandbox path", async () => {
    const r = await exiftool().read({ input: corpusBytes(PDF), filename: "Plan ß (final).pdf" });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.metadata).toMatchObject({
      SourceFile: "Plan ß (final).pdf",
      FileName: "Plan ß (final).pdf",
      Directory: ".",
      PageCount: 31,
    });
    expect(JSON.stringify(r.metadata)).not.toMatch(/\/work\/|input\.pdf|0000:00:00 00:00:00/);
  });

  it("reads a file without extension, and one with a wrong extension given input_format", async () => {
    for (const [filename, format] of [
      ["upload", undefined],
      ["scan.jpg", "pdf"],
      ["scan.bin", undefined],
    ] as const) {
      const r = await exiftool().read({ input: corpusBytes(PDF), filename, format });
      if (!r.ok) throw new Error(r.error.message);
      expect(r.metadata, filename).toMatchObject({
        FileType: "PDF",
        MIMEType: "application/pdf",
        PageCount: 31,
        FileName: filename,
      });
    }
  });

  it("refuses an input over the byte budget before starting the interpreter", async () => {
    const r = await exiftool().read({ input: new Uint8Array(2048), filename: "big.pdf", budget: { maxBytes: 1024 } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: "OVER_BUDGET", retryable: false });
  });

  it("stops a call at its time limit with TIMEOUT, and the next call works", async () => {
    // No wall-clock assertion here (unit tests run on a busy 2-core machine; speed is `npm run bench`):
    // the TIMEOUT code itself shows the 5 ms limit stopped the call.
    const r = await exiftool().read({ input: corpusBytes(PDF), filename: "a.pdf", budget: { timeoutMs: 5 } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe("TIMEOUT");
    const next = await exiftool().read({ input: corpusBytes(PDF), filename: "a.pdf" });
    expect(next.ok && next.metadata.PageCount).toBe(31);
  });

  it("runs overlapping calls one at a time, each with its own answer", async () => {
    const files = [
      "pdf/cloudconvert-input.pdf",
      "images/exif-orientation-Landscape_1.jpg",
      "audio/tika-testMP3id3v2.mp3",
      "office/python-docx-doc-coreprops.docx",
    ];
    const results = await Promise.all(
      files.map((f) => exiftool().read({ input: corpusBytes(f), filename: f.split("/")[1] })),
    );
    expect(results.map((r) => r.ok && r.metadata.FileType)).toEqual(["PDF", "JPEG", "MP3", "DOCX"]);
  });

  it("keeps WASM memory flat over repeated calls (a fresh interpreter each time)", async () => {
    const sizes: number[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await exiftool().read({ input: corpusBytes(PDF), filename: "a.pdf" });
      // every call must succeed and really have read the file: a failed call is not skipped
      if (!r.ok) throw new Error(`call ${i}: ${r.error.code}: ${r.error.message}`);
      expect(r.metadata.PageCount, `call ${i}`).toBe(31);
      sizes.push(r.wasmMemoryBytes);
    }
    console.log(`WASM memory per call (MB): ${sizes.map((s) => (s / 1e6).toFixed(1)).join(" ")}`);
    // one measurement per call, each a real WebAssembly memory size: whole 64 KiB pages, and at least
    // the interpreter's own footprint (the zeroperl module alone is ~25 MB), so Math.max/min below
    // never see an empty list (-Infinity/Infinity) or a placeholder 0
    expect(sizes).toHaveLength(8);
    for (const s of sizes) {
      expect(Number.isInteger(s / 65536), `${s} is not a whole number of WASM pages`).toBe(true);
      expect(s).toBeGreaterThan(16e6);
    }
    expect(Math.max(...sizes)).toBeLessThan(64e6);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThan(4e6);
  });

  it("answers a request without bytes as data, not a rejection", async () => {
    const r = await exiftool().read({ input: undefined as unknown as Uint8Array, filename: "x" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe("INTERNAL_ERROR");
  });
});
