/**
 * `archive` on the native 7-Zip (issue 49): files over the WebAssembly 7-Zip's budget are handed to the native archive
 * row (archive-native), each member streamed from the store into the native engine's folder one after another
 * (native-protocol/frame.ts DeferredBytes), the archive written there by Debian's 7-Zip and streamed back. Here with
 * the thresholds lowered (NATIVE_STREAM_BYTES's setting, nativeRpc's `streamOver`) so corpus files take that path.
 *
 * Oracles: 7-Zip's own listing (`7z l -slt`: paths, sizes, CRC-32) against Python's zlib.crc32 of the inputs,
 * libarchive's `bsdtar -tvf` and `-xOf`, Python's zipfile `testzip()`.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isStreamed } from "../../native-protocol/frame";
import { DEFAULT_ARCHIVE_BUDGET } from "../../src/engines/sevenzip/budget";
import type { InputFile, OperationContext, OutputFile } from "../../src/operations/types";
import { nodeSevenZipEngine } from "../../src/runtime/node/sevenzip";
import { execute } from "../../src/runner/execute";
import { corpusPath } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { corpusInput, expectTaskError, testContext } from "../support/pdf-helpers";
import { scaled } from "../support/time-scale";

/** The lowered threshold: files totalling more than 64 KiB go streamed, and so do answers over it. */
const OVER = 64 * 1024;

let native: NativeServer;
let scratch: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "native-archive-create-"));
  native = await startNativeEngine();
}, scaled(120_000));
afterAll(async () => {
  await native?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The native rows, streaming over `OVER`; with the WebAssembly 7-Zip in front when `wasm`. */
const streaming = (wasm = false): OperationContext =>
  testContext({
    engines: { ...native.engines({ streamOver: OVER }), ...(wasm ? { "7z": nodeSevenZipEngine() } : {}) },
    settings: { nativeStreamBytes: OVER } as never,
  });

/** The corpus files archived below (a JPEG, a PDF, an MP4, a PNG: 2.3 MB), and the same name twice. */
const FILES = [
  "images/exif-orientation-Landscape_1.jpg",
  "pdf/pdfjs-tracemonkey.pdf",
  "images/cloudconvert-input.png",
  "pdf/cloudconvert-input.pdf",
];

/** An InputFile counting how many of its stores were open at once (the deferred reads open one after another). */
let open = 0;
let mostOpen = 0;
function counted(rel: string): InputFile {
  const f = corpusInput(rel);
  return {
    ...f,
    async stream() {
      const data = readFileSync(corpusPath(rel));
      open++;
      mostOpen = Math.max(mostOpen, open);
      let at = 0;
      return new ReadableStream<Uint8Array>({
        pull(c) {
          if (at >= data.byteLength) {
            open--;
            return c.close();
          }
          c.enqueue(new Uint8Array(data.subarray(at, (at += 16_384))));
        },
      });
    },
  };
}

/** An output saved under the scratch folder (a streamed one read in full). */
async function saved(f: OutputFile, name: string): Promise<string> {
  const p = join(scratch, name);
  const data = f.data instanceof Uint8Array ? f.data : new Uint8Array(await new Response(f.data.stream).arrayBuffer());
  writeFileSync(p, data);
  return p;
}

/** CRC-32 (upper-case hex, as 7-Zip prints it) of a file, by Python's zlib. */
const crc = (path: string) =>
  execFileSync("python3", ["-c", "import sys,zlib;print('%08X'%zlib.crc32(open(sys.argv[1],'rb').read()))", path], {
    encoding: "utf8",
  }).trim();

/** 7-Zip's listing of `path` (after `-t` type): each file's path, size and CRC; the archive's type. */
function listing(path: string, password?: string): { type: string; files: Map<string, { size: number; crc: string }> } {
  const out = execFileSync("7z", ["l", "-slt", `-p${password ?? ""}`, path], { encoding: "utf8" });
  const [head, ...blocks] = out.split(/^----------$/m);
  const files = new Map<string, { size: number; crc: string }>();
  for (const b of blocks.join("\n").split(/\n\n/)) {
    const path = /^Path = (.*)$/m.exec(b)?.[1];
    if (!path || /^Folder = \+$/m.test(b)) continue;
    files.set(path, { size: Number(/^Size = (\d+)$/m.exec(b)![1]), crc: /^CRC = ([0-9A-F]*)$/m.exec(b)?.[1] ?? "" });
  }
  return { type: /^Type = (.*)$/m.exec(head!)?.[1] ?? "", files };
}

describe("archive on the native 7-Zip, members streamed in and the archive streamed back (issue 49)", () => {
  for (const format of ["zip", "7z", "tar.gz", "tar.bz2"] as const) {
    it(`${format}: every file's path, size and CRC-32 in 7-Zip's listing; read again by another tool`, async () => {
      open = mostOpen = 0;
      const inputs = [...FILES.map(counted), counted(FILES[0]!)];
      const r = await execute(
        "archive",
        { output_format: format, engine: "archive-native", filename: `out.${format}`, compression_level: 3 },
        inputs,
        streaming(),
      );
      expect(r.engine.name).toBe("archive-native");
      const out = r.out.files[0]!;
      expect(out.filename).toBe(`out.${format}`);
      // 2.3 MB of files, over the lowered threshold: the archive comes back streamed
      expect(isStreamed(out.data)).toBe(true);
      // the members were read one after another, never two stores open at once
      expect(mostOpen).toBe(1);
      const path = await saved(out, `out.${format}`);
      const names = ["exif-orientation-Landscape_1.jpg", "pdfjs-tracemonkey.pdf", "cloudconvert-input.png"];
      names.push("cloudconvert-input.pdf", "exif-orientation-Landscape_1-2.jpg");
      const sources = [...FILES, FILES[0]!].map(corpusPath);
      if (format.startsWith("tar")) {
        // libarchive's listing and extraction of the compressed tar
        const tv = execFileSync("bsdtar", ["-tvf", path], { encoding: "utf8" });
        for (const [i, n] of names.entries()) {
          const size = readFileSync(sources[i]!).byteLength;
          expect(tv).toMatch(new RegExp(`\\s${size}\\s.*\\s${n.replace(/[.]/g, "\\.")}$`, "m"));
          expect(execFileSync("bsdtar", ["-xOf", path, n]).equals(readFileSync(sources[i]!)), n).toBe(true);
        }
        expect(tv.trim().split("\n")).toHaveLength(names.length);
        // the outer layer 7-Zip names
        expect(listing(path).type).toBe(format === "tar.gz" ? "gzip" : "bzip2");
        return;
      }
      const l = listing(path);
      expect(l.type).toBe(format);
      expect([...l.files.keys()].sort()).toEqual([...names].sort());
      for (const [i, n] of names.entries())
        expect(l.files.get(n), n).toEqual({ size: readFileSync(sources[i]!).byteLength, crc: crc(sources[i]!) });
      if (format === "zip")
        expect(
          execFileSync("python3", ["-c", "import sys,zipfile;print(zipfile.ZipFile(sys.argv[1]).testzip())", path], {
            encoding: "utf8",
          }).trim(),
        ).toBe("None");
    });
  }

  it("7z with a password: names and data encrypted (AES-256), listed with it, refused without it", async () => {
    const r = await execute(
      "archive",
      { output_format: "7z", engine: "archive-native", password: "s3cret" },
      FILES.map((f) => corpusInput(f)),
      streaming(),
    );
    const path = await saved(r.out.files[0]!, "secret.7z");
    const l = listing(path, "s3cret");
    expect(l.files.size).toBe(FILES.length);
    expect(l.files.get("pdfjs-tracemonkey.pdf")!.crc).toBe(crc(corpusPath("pdf/pdfjs-tracemonkey.pdf")));
    const slt = execFileSync("7z", ["l", "-slt", "-ps3cret", path], { encoding: "utf8" });
    expect(slt).toMatch(/^Method = .*7zAES/m);
    // the header is encrypted too: without the password 7-Zip cannot even list it
    let failed = false;
    try {
      execFileSync("7z", ["l", "-pwrong", path], { stdio: "pipe" });
    } catch {
      failed = true;
    }
    expect(failed).toBe(true);
  });

  it("over the WebAssembly 7-Zip's budget: its OVER_BUDGET hands the task to archive-native, members streamed", async () => {
    // two generated files, together 1 MiB over the WebAssembly engine's budget (deleted after)
    const half = DEFAULT_ARCHIVE_BUDGET.maxBytes / 2 + 512 * 1024;
    const paths = ["big-a.bin", "big-b.txt"].map((n) => join(scratch, n));
    writeFileSync(
      paths[0]!,
      Uint8Array.from({ length: half }, (_, i) => (i * 2654435761) >>> 24),
    );
    writeFileSync(paths[1]!, "a line of text that compresses well\n".repeat(Math.ceil(half / 36)).slice(0, half));
    const inputs: InputFile[] = paths.map((p) => ({
      filename: p.split("/").pop()!,
      size: half,
      fromTask: "import",
      key: p,
      bytes: async () => new Uint8Array(readFileSync(p)),
    }));
    const ctx = streaming(true);
    // the WebAssembly 7-Zip alone refuses it
    await expectTaskError(
      () =>
        execute("archive", { output_format: "zip" }, inputs, testContext({ engines: { "7z": nodeSevenZipEngine() } })),
      "OVER_BUDGET",
    );
    const r = await execute("archive", { output_format: "zip" }, inputs, ctx);
    expect(r.engine.name).toBe("archive-native");
    const path = await saved(r.out.files[0]!, "big.zip");
    const l = listing(path);
    expect(l.files.get("big-a.bin")).toEqual({ size: half, crc: crc(paths[0]!) });
    expect(l.files.get("big-b.txt")).toEqual({ size: half, crc: crc(paths[1]!) });
    for (const p of paths) rmSync(p);
    rmSync(path);
  });

  it("a member name that climbs out is UNSAFE_ARCHIVE before anything is written; a tar with a password a 422", async () => {
    const engine = native.engines({ streamOver: OVER })["archive-native"]!;
    const data = readFileSync(corpusPath(FILES[2]!));
    for (const name of ["../evil.png", "/etc/evil.png", "a/../../evil.png", ".."]) {
      const r = await engine.create({
        files: [{ name, data: { length: data.byteLength, open: async () => new Blob([data]).stream() } }],
        format: "zip",
      });
      expect(r.ok, name).toBe(false);
      if (!r.ok) expect(r.error.code, name).toBe("UNSAFE_ARCHIVE");
    }
    await expect(
      execute("archive", { output_format: "tar.gz", password: "x" }, [corpusInput(FILES[2]!)], streaming()),
    ).rejects.toThrow(/password/);
  });
});
