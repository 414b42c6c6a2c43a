/**
 * `metadata` and `metadata/write` on Debian's exiftool in the native engine (issue 49, row exiftool-native): files
 * over the WebAssembly ExifTool's budget are handed to it, streamed to its folder above the stream threshold, and the
 * written file streamed back. Here with the thresholds lowered (NATIVE_STREAM_BYTES's setting, nativeRpc's
 * `streamOver`) so corpus files take the streamed path, and one generated file over the WebAssembly budget.
 *
 * Oracle: `exiftool -j` run directly on the same file (the keys and values the metadata result carries: every
 * property but the file system's own dates and permissions, SourceFile/FileName the uploaded name); for writes,
 * `exiftool -j` reading the written tags back, and the image data unchanged (ImageMagick's pixel signature).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isStreamed } from "../../native-protocol/frame";
import { DEFAULT_EXIFTOOL_BUDGET } from "../../src/engines/exiftool/budget";
import type { InputFile, OperationContext, OutputFile } from "../../src/operations/types";
import { nodeExifToolEngine } from "../../src/runtime/node/exiftool";
import { execute } from "../../src/runner/execute";
import { corpusPath } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { corpusInput, expectTaskError, testContext } from "../support/pdf-helpers";
import { scaled } from "../support/time-scale";

/** The lowered threshold: files over 64 KiB go streamed, and so do answers over it. */
const OVER = 64 * 1024;

let native: NativeServer;
let scratch: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "native-metadata-"));
  native = await startNativeEngine();
}, scaled(120_000));
afterAll(async () => {
  await native?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The native rows, streaming over `OVER`; with the WebAssembly ExifTool in front when `wasm`. */
const streaming = (wasm = false): OperationContext =>
  testContext({
    engines: { ...native.engines({ streamOver: OVER }), ...(wasm ? { exiftool: nodeExifToolEngine() } : {}) },
    settings: { nativeStreamBytes: OVER } as never,
  });

/** A file on disk as an operation input. */
const fileInput = (path: string): InputFile => ({
  filename: path.split("/").pop()!,
  size: statSync(path).size,
  fromTask: "import",
  key: path,
  bytes: async () => new Uint8Array(readFileSync(path)),
});

/** Properties describing the file on this disk, not its content: left out of the result (as the WebAssembly engine does). */
const FILE_SYSTEM = [
  "FileModifyDate",
  "FileAccessDate",
  "FileInodeChangeDate",
  "FileCreateDate",
  "FilePermissions",
  "FileAttributes",
];

/** `exiftool -j` of `path` as the metadata result reads: scalars (lists joined with ", "), the uploaded name. */
function oracle(path: string, filename: string): Record<string, unknown> {
  const [j] = JSON.parse(execFileSync("exiftool", ["-j", path], { encoding: "utf8", maxBuffer: 64 << 20 })) as Record<
    string,
    unknown
  >[];
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(j!)) {
    if (FILE_SYSTEM.includes(k)) continue;
    out[k] =
      k === "SourceFile" || k === "FileName"
        ? filename
        : k === "Directory"
          ? "."
          : Array.isArray(v)
            ? v.join(", ")
            : typeof v === "object" && v !== null
              ? JSON.stringify(v)
              : typeof v === "boolean"
                ? String(v)
                : v;
  }
  return out;
}

/** An output saved under the scratch folder (a streamed one read in full). */
async function saved(f: OutputFile, name: string): Promise<string> {
  const p = join(scratch, name);
  const data = f.data instanceof Uint8Array ? f.data : new Uint8Array(await new Response(f.data.stream).arrayBuffer());
  writeFileSync(p, data);
  return p;
}

describe("metadata on the native exiftool, the file streamed to it (issue 49)", () => {
  for (const rel of [
    "images/exif-orientation-Landscape_6.jpg",
    "video/tika-testVideoMp4.mp4",
    "pdf/pdfjs-tracemonkey.pdf",
    "audio/tika-testMP3_coverArt.mp3",
  ]) {
    it(`${rel}: every property exiftool -j prints, with its value`, async () => {
      const r = await execute("metadata", { engine: "exiftool-native" }, [corpusInput(rel)], streaming());
      expect(r.engine.name).toBe("exiftool-native");
      const name = rel.split("/").pop()!;
      const got = r.out.extra!.metadata as Record<string, unknown>;
      const want = oracle(corpusPath(rel), name);
      expect(Object.keys(want).length).toBeGreaterThan(10);
      expect(got).toEqual(want);
    });
  }

  // a stored file is read by ranges in the WebAssembly ExifTool first (test/engines/metadata-ranged.test.ts,
  // test/worker/metadata-ranged.test.ts); one from a store that reads no ranges (here: files on disk) is read whole
  it("a file over the WebAssembly ExifTool's budget, not read by ranges: its OVER_BUDGET hands the task to exiftool-native", async () => {
    // an uncompressed TIFF 1 MiB over the WebAssembly budget, generated and deleted after
    const side = Math.ceil(Math.sqrt((DEFAULT_EXIFTOOL_BUDGET.maxBytes + (1 << 20)) / 3));
    const big = join(scratch, "big.tif");
    execFileSync("convert", ["-size", `${side}x${side}`, "gradient:red-blue", "-compress", "none", big]);
    execFileSync("exiftool", ["-q", "-overwrite_original", "-Artist=Large Test", big]);
    expect(statSync(big).size).toBeGreaterThan(DEFAULT_EXIFTOOL_BUDGET.maxBytes);
    // the WebAssembly ExifTool alone refuses it
    await expectTaskError(
      () => execute("metadata", {}, [fileInput(big)], testContext({ engines: { exiftool: nodeExifToolEngine() } })),
      "OVER_BUDGET",
    );
    const r = await execute("metadata", {}, [fileInput(big)], streaming(true));
    expect(r.engine.name).toBe("exiftool-native");
    const got = r.out.extra!.metadata as Record<string, unknown>;
    expect(got).toEqual(oracle(big, "big.tif"));
    expect(got.Artist).toBe("Large Test");
    expect(got.ImageWidth).toBe(side);
    // and written: the new tag read back, the pixels unchanged
    const w = await execute(
      "metadata/write",
      { metadata: { Title: "Over budget", Keywords: ["big", "tiff"] } },
      [fileInput(big)],
      streaming(true),
    );
    expect(w.engine.name).toBe("exiftool-native");
    expect(isStreamed(w.out.files[0]!.data)).toBe(true);
    const out = await saved(w.out.files[0]!, "big-written.tif");
    const [back] = JSON.parse(
      execFileSync("exiftool", ["-j", "-Title", "-Keywords", "-Artist", out], { encoding: "utf8" }),
    );
    expect(back).toMatchObject({ Title: "Over budget", Keywords: ["big", "tiff"], Artist: "Large Test" });
    const sig = (p: string) => execFileSync("identify", ["-format", "%#", p], { encoding: "utf8" });
    expect(sig(out)).toBe(sig(big));
    rmSync(big);
    rmSync(out);
  });
});

describe("metadata/write on the native exiftool, streamed both ways (issue 49)", () => {
  for (const [rel, tags, expected] of [
    [
      "images/exif-orientation-Landscape_1.jpg",
      { Title: "A landscape", "XMP:Rating": 4, "IPTC:City": "Berlin" },
      { Title: "A landscape", Rating: 4, City: "Berlin" },
    ],
    ["pdf/cloudconvert-input.pdf", { Title: "Report", Author: "Ann" }, { Title: "Report", Author: "Ann" }],
    ["video/tika-testVideoMp4.mp4", { Title: "Clip" }, { Title: "Clip" }],
  ] as const) {
    it(`${rel}: the written properties read back by exiftool`, async () => {
      const name = rel.split("/").pop()!;
      const r = await execute(
        "metadata/write",
        { engine: "exiftool-native", metadata: tags },
        [corpusInput(rel)],
        streaming(),
      );
      expect(r.engine.name).toBe("exiftool-native");
      expect(r.out.files[0]!.filename).toBe(name);
      expect(isStreamed(r.out.files[0]!.data)).toBe(true);
      const out = await saved(r.out.files[0]!, `written-${name}`);
      const [back] = JSON.parse(execFileSync("exiftool", ["-j", out], { encoding: "utf8" }));
      expect(back).toMatchObject(expected);
      // the same file type as the input
      expect(back.FileType).toBe(oracle(corpusPath(rel), name).FileType);
    });
  }

  it("values are data, never options or files: a value reading like an argument is written as it is", async () => {
    const value = "-@ /etc/passwd\n-config /etc/passwd";
    const r = await execute(
      "metadata/write",
      { engine: "exiftool-native", metadata: { Title: value } },
      [corpusInput("images/cloudconvert-input.png")],
      streaming(),
    );
    const out = await saved(r.out.files[0]!, "value.png");
    const [back] = JSON.parse(execFileSync("exiftool", ["-j", "-Title", out], { encoding: "utf8" }));
    expect(back.Title).toBe(value);
  });

  it("names that are not properties are refused by the native engine itself: CONVERSION_FAILED, nothing run", async () => {
    const engine = native.engines()["exiftool-native"]!;
    const data = new Uint8Array(readFileSync(corpusPath("images/cloudconvert-input.png")));
    for (const name of ["Title<", "Title<=/etc/passwd", "FileName", "Directory", "File:Comment", "-config", "all"]) {
      const r = await engine.write({ input: data, filename: "a.png", tags: { [name]: "x" } });
      expect(r.ok, name).toBe(false);
      if (!r.ok) expect(r.error.code, name).toBe("CONVERSION_FAILED");
    }
    // a property ExifTool cannot write into the format names it
    const r = await engine.write({ input: data, filename: "a.png", tags: { "EXIF:NoSuchTag": "x" } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/NoSuchTag/);
  });
});
