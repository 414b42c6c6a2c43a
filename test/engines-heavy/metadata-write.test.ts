// metadata/write round trips: write with the engine, read back with the engine AND with Debian's
// exiftool, and open the output with the format's native tool (qpdf --check, pdfinfo, identify).
// Refusals name the property (issue 5).
import { describe, expect, it } from "vitest";
import type { MetadataWriteRequest } from "../../src/engines/kinds/metadata";
import { corpusPath } from "../support/corpus";
import { run, tempFile } from "../support/native";
import { corpusBytes, exiftool, nativeMetadata, scalar } from "../support/metadata-helpers";

async function write(rel: string, tags: MetadataWriteRequest["tags"], filename = rel.split("/").pop()!) {
  const r = await exiftool().write({ input: corpusBytes(rel), filename, tags });
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  // the WebAssembly engine answers bytes (only the native one streams a written file back)
  if (!(r.data instanceof Uint8Array)) throw new Error("the WebAssembly ExifTool answered a stream");
  return { ...r, data: r.data };
}
async function refusal(rel: string, tags: MetadataWriteRequest["tags"]) {
  const r = await exiftool().write({ input: corpusBytes(rel), filename: rel.split("/").pop()!, tags });
  if (r.ok) throw new Error("expected a refusal");
  return r.error;
}
/** Reads `data` back with the engine and with native exiftool; both must hold `expected`. */
async function readBack(data: Uint8Array, name: string, expected: Record<string, string | number>) {
  const ours = await exiftool().read({ input: data, filename: name });
  if (!ours.ok) throw new Error(ours.error.message);
  const path = tempFile(name, data);
  const native = nativeMetadata(path);
  for (const [k, v] of Object.entries(expected)) {
    expect(ours.metadata[k], `engine ${k}`).toBe(v);
    expect(scalar(native[k]), `native ${k}`).toBe(v);
  }
  return path;
}

describe("metadata/write round trips", () => {
  it("JPEG: XMP Title, Author, Subject, Keywords list, IPTC City", async () => {
    const r = await write("images/exif-orientation-Landscape_1.jpg", {
      "XMP:Title": "Été à Paris",
      Author: "Ann",
      Subject: "s",
      Keywords: ["one", "two"],
      "IPTC:City": "Paris",
    });
    const path = await readBack(r.data, "out.jpg", {
      Title: "Été à Paris",
      Author: "Ann",
      Subject: "s",
      Keywords: "one, two",
      City: "Paris",
    });
    expect(run("identify", ["-format", "%m %w %h", path]).out).toBe("JPEG 1800 1200");
  });

  it("PDF: Title, Author, Creator, Producer, Subject; qpdf --check passes", async () => {
    const tags = {
      Title: "Zombie plan",
      Author: "Doug R.",
      Creator: "edge-convert",
      Producer: "ExifTool",
      Subject: "tests",
    };
    const r = await write("pdf/cloudconvert-input.pdf", tags);
    const path = await readBack(r.data, "out.pdf", { ...tags, PageCount: 31 });
    const check = run("qpdf", ["--check", path]);
    expect(check.code, check.out).toBe(0);
    expect(run("pdfinfo", [path]).out).toMatch(/Title:\s+Zombie plan/);
  });

  it("PNG: Title, Author; identify opens it", async () => {
    const r = await write("images/cloudconvert-input.png", { Title: "A PNG", Author: "Ann" });
    const path = await readBack(r.data, "out.png", {
      Title: "A PNG",
      Author: "Ann",
      ImageWidth: 1015,
      ImageHeight: 668,
    });
    expect(run("identify", ["-format", "%m %w %h", path]).out).toBe("PNG 1015 668");
  });

  it("MP4: Title and Author into QuickTime and XMP; the movie is intact for native exiftool", async () => {
    const before = nativeMetadata(corpusPath("video/tika-testVideoMp4.mp4"));
    const r = await write("video/tika-testVideoMp4.mp4", { Title: "Clip", Author: "Ann" });
    const path = await readBack(r.data, "out.mp4", { Title: "Clip", Author: "Ann" });
    const after = nativeMetadata(path);
    expect(after.Error).toBeUndefined();
    for (const k of ["Duration", "ImageWidth", "ImageHeight", "MediaDataSize"]) expect(after[k], k).toEqual(before[k]);
  });

  it.each([
    ["images/pillow-chi.gif", "GIF 320 240"],
    ["images/pillow-hopper.tif", "TIFF 128 128"],
    ["images/pillow-hopper.psd", "PSD 128 128"],
    ["images/libwebp-test.webp", "WEBP 128 128"],
    ["images/tika-IMG_1034.heic", ""],
    ["images/libavif-kodim03_yuv420_8bpc.avif", ""],
    ["video/filetype-fixture-mjpeg.mov", ""],
    ["video/filetype-fixture.3gp", ""],
    ["audio/filetype-fixture.m4a", ""],
  ])("%s: Title and Author round trip (a format the write row lists)", async (rel, identified) => {
    const name = rel.split("/").pop()!;
    const r = await write(rel, { Title: "T1", Author: "A1" });
    const path = await readBack(r.data, name, { Title: "T1", Author: "A1" });
    expect(nativeMetadata(path).Error).toBeUndefined();
    if (identified)
      expect(run("identify", ["-format", "%m %w %h\n", `${path}[0]`]).out.split("\n")[0]).toBe(identified);
  });

  it('deletes a property given ""', async () => {
    const r = await write("pdf/cloudconvert-input.pdf", { Author: "" });
    const back = await exiftool().read({ input: r.data, filename: "out.pdf" });
    expect(back.ok && back.metadata.Author).toBeUndefined();
  });

  it("refuses, naming the property: unknown tag, unconvertible value, file-system pseudo-tag", async () => {
    expect(await refusal("pdf/cloudconvert-input.pdf", { Title: "ok", Foo: "x" })).toMatchObject({
      code: "CONVERSION_FAILED",
      message: expect.stringContaining("metadata.Foo"),
    });
    expect(await refusal("images/exif-orientation-Landscape_1.jpg", { Rating: "five" })).toMatchObject({
      code: "CONVERSION_FAILED",
      message: expect.stringContaining("metadata.Rating"),
    });
    expect(await refusal("images/exif-orientation-Landscape_1.jpg", { FileName: "x.jpg" })).toMatchObject({
      message: expect.stringContaining("metadata.FileName"),
    });
    expect(await refusal("images/exif-orientation-Landscape_1.jpg", { "-o": "x" })).toMatchObject({
      message: expect.stringContaining("not an ExifTool property name"),
    });
  });

  it("answers UNSUPPORTED for formats ExifTool does not write (MP3, DOCX)", async () => {
    for (const rel of ["audio/tika-testMP3id3v2.mp3", "office/python-docx-doc-coreprops.docx"]) {
      const e = await refusal(rel, { Title: "x" });
      expect(e.code, rel).toBe("UNSUPPORTED");
      expect(e.message).toMatch(/Can't write (MP3|DOCX) files/);
    }
  });
});
