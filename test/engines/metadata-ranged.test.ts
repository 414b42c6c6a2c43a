/**
 * The WebAssembly ExifTool reading a file by ranges (issue 49: "metadata reads what ExifTool needs with range reads"):
 * the file is never handed over whole; ExifTool's reads become ranged reads of 256 KiB blocks (engines/exiftool/ranged.ts),
 * capped at the engine's byte budget. Oracles: Debian's `exiftool -j` on the same file, and the engine's own answer for
 * the whole file's bytes; the reads themselves counted.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RangedBytes } from "../../src/engines/kinds/metadata";
import { corpusPath } from "../support/corpus";
import { exiftool } from "../support/metadata-helpers";

let dir: string;
let bigJpeg: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "metadata-ranged-"));
  bigJpeg = join(dir, "big.jpg");
  // ~6 MB of noise JPEG with an Artist, generated and deleted after
  execFileSync("convert", ["-size", "2000x1500", "xc:", "+noise", "Random", "-quality", "95", bigJpeg]);
  execFileSync("exiftool", ["-q", "-overwrite_original", "-Artist=Ranged", "-XMP:Title=By ranges", bigJpeg]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `path` as RangedBytes, counting what is read. */
function ranged(path: string): RangedBytes & { reads: [number, number][] } {
  const data = new Uint8Array(readFileSync(path));
  const reads: [number, number][] = [];
  return {
    length: data.byteLength,
    reads,
    async read(offset, length) {
      reads.push([offset, length]);
      return data.slice(offset, offset + length);
    },
  };
}
const sum = (reads: [number, number][]) => reads.reduce((n, [, l]) => n + l, 0);
/** Debian's exiftool -j of `path`. */
const debian = (path: string) =>
  (JSON.parse(execFileSync("exiftool", ["-j", path], { encoding: "utf8" })) as Record<string, unknown>[])[0]!;

describe("metadata by ranged reads (issue 49)", () => {
  for (const [name, path] of [
    ["a 6 MB generated JPEG", () => bigJpeg],
    ["an MP4 (tika-testVideoMp4)", () => corpusPath("video/tika-testVideoMp4.mp4")],
    ["a 14-page PDF (pdfjs-tracemonkey)", () => corpusPath("pdf/pdfjs-tracemonkey.pdf")],
  ] as const) {
    it(`${name}: the same properties as the whole file's, from a fraction of it`, async () => {
      const p = path();
      const input = ranged(p);
      const filename = p.split("/").pop()!;
      const r = await exiftool().read({ input, filename });
      if (!r.ok) throw new Error(r.error.message);
      const whole = await exiftool().read({ input: new Uint8Array(readFileSync(p)), filename });
      if (!whole.ok) throw new Error(whole.error.message);
      expect(r.metadata).toEqual(whole.metadata);
      // the facts Debian's exiftool reads from the whole file
      const d = debian(p);
      for (const k of ["FileType", "MIMEType", "ImageWidth", "ImageHeight", "Artist", "Title", "PageCount", "Duration"])
        expect(r.metadata[k], k).toEqual(d[k]);
      // a few blocks, never the whole file (the PDF: 1 MB, its xref read from the end)
      expect(input.reads.length).toBeGreaterThan(0);
      expect(sum(input.reads)).toBeLessThan(Math.min(input.length, 4 * 256 * 1024) + 1);
      if (input.length > 4 * 1024 * 1024) expect(sum(input.reads)).toBeLessThan(input.length / 8);
    });
  }

  it("the byte budget bounds what is read, not the file's size: a 6 MB JPEG within 1 MiB; its bytes are refused", async () => {
    const input = ranged(bigJpeg);
    const r = await exiftool().read({ input, filename: "big.jpg", budget: { maxBytes: 1024 * 1024 } });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.metadata.Artist).toBe("Ranged");
    const bytes = await exiftool().read({
      input: new Uint8Array(readFileSync(bigJpeg)),
      filename: "big.jpg",
      budget: { maxBytes: 1024 * 1024 },
    });
    expect(bytes.ok).toBe(false);
    if (!bytes.ok) expect(bytes.error.code).toBe("OVER_BUDGET");
  });

  it("a file ExifTool reads through (text) past the budget: OVER_BUDGET, reads stopped at it", async () => {
    const data = new TextEncoder().encode("a line of words to count\n".repeat(120_000)); // 3 MB
    const reads: [number, number][] = [];
    const input: RangedBytes = {
      length: data.byteLength,
      read: async (o, l) => (reads.push([o, l]), data.slice(o, o + l)),
    };
    const r = await exiftool().read({ input, filename: "long.txt", budget: { maxBytes: 1024 * 1024 } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe("OVER_BUDGET");
    expect(sum(reads)).toBeLessThanOrEqual(1024 * 1024);
  });

  it("a ranged read answering short ends the call as an error, not a hang or a wrong answer", async () => {
    const data = new Uint8Array(readFileSync(bigJpeg));
    const input: RangedBytes = { length: data.byteLength, read: async (o, l) => data.slice(o, o + l - 1) };
    const r = await exiftool().read({ input, filename: "big.jpg" });
    expect(r.ok && r.metadata.Artist === "Ranged").toBe(false);
  });
});
