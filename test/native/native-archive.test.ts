/**
 * Issue 34: the archive formats 7-Zip in WebAssembly does not decode, through the real runner and the native
 * engine's archive row (container/engines/archive.ts): lz, tar.lz (lzip), lzo, tar.lzo, tzo (lzop), rz (rzip), arc
 * (nomarch) made here by the real tools, alz (unalz) from patool's test data (test/fixtures/archives/README.md:
 * no ALZ encoder exists in Debian), and the corpus's ISO repacked as tar.lzo. Oracles: the files the archive was
 * made of, and what the format's own tool (lzip -dc, lzop -dc, unalz, nomarch) or bsdtar/7z extract from the
 * input and from our output. Hostile: per format a file cut short (OPEN_FAILED) and a bomb (80 MiB of zeros,
 * OVER_BUDGET), a tar.lzo whose member climbs out (UNSAFE_ARCHIVE), links and FIFOs skipped.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execute } from "../../src/runner/execute";
import { nativeExtract, regularFiles } from "../support/archive-oracle";
import { corpusPath } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { bytesInput, dataOf, expectTaskError, testContext } from "../support/pdf-helpers";

const TMP = mkdtempSync(join(tmpdir(), "native-archive-"));
const FIXTURES = join(import.meta.dirname, "../fixtures/archives");
let native: NativeServer;
beforeAll(async () => {
  native = await startNativeEngine();
  makeArchives();
}, 120_000);
afterAll(async () => {
  await native?.stop();
  rmSync(TMP, { recursive: true, force: true });
});
const ctx = () => testContext({ engines: native.engines() });

/** Runs `cmd args` in `cwd`; answers stdout (bytes). */
const sh = (cmd: string, args: string[], cwd = TMP) => execFileSync(cmd, args, { cwd, maxBuffer: 256 << 20 });

/** The source files: a text, a binary, a text in a folder. */
const SRC = join(TMP, "src");
mkdirSync(join(SRC, "sub"), { recursive: true });
const random = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919 + (i >> 3)) & 0xff));
writeFileSync(join(SRC, "a.txt"), "hello from issue 34\n".repeat(50));
writeFileSync(join(SRC, "sub", "b.bin"), random);
writeFileSync(join(SRC, "sub", "c.txt"), "third member\n");

/** The archives made by the real tools from SRC, in TMP. */
function makeArchives(): void {
  writeFileSync(join(TMP, "a.txt.lz"), sh("lzip", ["-c", "a.txt"], SRC));
  writeFileSync(join(TMP, "a.txt.lzo"), sh("lzop", ["-c", "a.txt"], SRC));
  sh("rzip", ["-k", "-o", join(TMP, "a.txt.rz"), "a.txt"], SRC);
  sh("bsdtar", ["-cf", join(TMP, "tree.tar"), "a.txt", "sub"], SRC);
  writeFileSync(join(TMP, "tree.tar.lzo"), sh("lzop", ["-c", "tree.tar"]));
  writeFileSync(join(TMP, "tree.tzo"), readFileSync(join(TMP, "tree.tar.lzo")));
  writeFileSync(join(TMP, "tree.tar.lz"), sh("lzip", ["-c", "tree.tar"]));
  sh("arc", ["a", join(TMP, "flat.arc"), "a.txt", join("sub", "b.bin"), join("sub", "c.txt")], SRC);
}

/** A map of the task's member files by their archive path. */
async function members(file: string, format: string): Promise<Map<string, Buffer>> {
  const r = await execute(
    "convert",
    { input_format: format, output_format: "files" },
    [bytesInput(file.split("/").pop()!, readFileSync(file))],
    ctx(),
  );
  expect(r.engine.name).toBe("archive-native");
  const listed = (r.out as { extra?: { members: { path: string; filename: string }[] } }).extra?.members ?? [];
  const byName = new Map(r.out.files.map((f) => [f.filename, Buffer.from(dataOf(f))]));
  return new Map(listed.map((m) => [m.path, byName.get(m.filename)!]));
}

/** The input repacked as `out`, then extracted by 7z (the oracle). */
async function repacked(file: string, format: string, out: string): Promise<Map<string, Buffer>> {
  const r = await execute(
    "convert",
    { input_format: format, output_format: out },
    [bytesInput(file.split("/").pop()!, readFileSync(file))],
    ctx(),
  );
  expect(r.out.files).toHaveLength(1);
  const path = join(TMP, `repacked-${Math.random().toString(36).slice(2)}.${out}`);
  writeFileSync(path, dataOf(r.out.files[0]!));
  if (out === "tar.lzo") {
    writeFileSync(`${path}.tar`, sh("lzop", ["-dc", path]));
    return nativeExtract(`${path}.tar`, "bsdtar");
  }
  return nativeExtract(path, out === "tar.gz" || out === "tar.bz2" ? "bsdtar" : "7z");
}

const asObject = (m: Map<string, Buffer>) =>
  Object.fromEntries([...m].map(([k, v]) => [k, `${v.length}:${v.toString("base64").slice(0, 64)}`]));

describe("archives made by the real tools: members and repacks equal the tool's own extraction", () => {
  const tree = () => regularFiles(SRC);

  for (const [file, format, tool] of [
    ["a.txt.lz", "lz", "lzip"],
    ["a.txt.lzo", "lzo", "lzop"],
  ] as const)
    it(`${format}: its one member, named without the extension, is what ${tool} -dc gives; repacked as zip`, async () => {
      const oracle = sh(tool, ["-dc", file]);
      expect(oracle.equals(readFileSync(join(SRC, "a.txt")))).toBe(true);
      expect(asObject(await members(join(TMP, file), format))).toEqual(asObject(new Map([["a.txt", oracle]])));
      expect(asObject(await repacked(join(TMP, file), format, "zip"))).toEqual(asObject(new Map([["a.txt", oracle]])));
    });

  it("rz: its one member is what rzip -d gives; repacked as 7z", async () => {
    sh("rzip", ["-d", "-k", "-f", "-o", join(TMP, "rz-oracle"), "a.txt.rz"]);
    const oracle = readFileSync(join(TMP, "rz-oracle"));
    expect(asObject(await members(join(TMP, "a.txt.rz"), "rz"))).toEqual(asObject(new Map([["a.txt", oracle]])));
    expect(asObject(await repacked(join(TMP, "a.txt.rz"), "rz", "7z"))).toEqual(asObject(new Map([["a.txt", oracle]])));
  });

  for (const [file, format, out] of [
    ["tree.tar.lzo", "tar.lzo", "tar.gz"],
    ["tree.tzo", "tzo", "tar"],
    ["tree.tar.lz", "tar.lz", "tar.bz2"],
  ] as const)
    it(`${format}: the tar's files with their folders (bsdtar's extraction of the same file); repacked as ${out}`, async () => {
      const oracle = nativeExtract(join(TMP, file), "bsdtar");
      expect(asObject(oracle)).toEqual(asObject(tree()));
      expect(asObject(await members(join(TMP, file), format))).toEqual(asObject(oracle));
      expect(asObject(await repacked(join(TMP, file), format, out))).toEqual(asObject(oracle));
    });

  it("arc (written by arc 5.21): the files nomarch extracts, repacked as zip", async () => {
    const dir = join(TMP, "arc-oracle");
    mkdirSync(dir);
    sh("nomarch", [join(TMP, "flat.arc")], dir);
    const oracle = regularFiles(dir);
    expect([...oracle.keys()].sort()).toEqual(["a.txt", "b.bin", "c.txt"]);
    expect(oracle.get("b.bin")!.equals(random)).toBe(true);
    expect(asObject(await members(join(TMP, "flat.arc"), "arc"))).toEqual(asObject(oracle));
    expect(asObject(await repacked(join(TMP, "flat.arc"), "arc", "zip"))).toEqual(asObject(oracle));
  });

  it("alz (patool's t.alz, written by ALZip): the member unalz extracts, path kept; repacked as 7z", async () => {
    const dir = join(TMP, "alz-oracle");
    mkdirSync(dir);
    sh("unalz", ["-d", dir, join(FIXTURES, "patool-t.alz")]);
    const oracle = regularFiles(dir);
    expect([...oracle.keys()]).toEqual(["t/t.txt"]);
    expect(asObject(await members(join(FIXTURES, "patool-t.alz"), "alz"))).toEqual(asObject(oracle));
    expect(asObject(await repacked(join(FIXTURES, "patool-t.alz"), "alz", "7z"))).toEqual(asObject(oracle));
  });

  it("iso → tar.lzo (the catalogue's disk-image pair): lzop's tar holds the files 7z extracts from the ISO", async () => {
    const iso = corpusPath("archives/libarchive-test_read_format_iso_joliet_rockridge.iso");
    const oracle = nativeExtract(iso, "7z");
    expect(oracle.size).toBeGreaterThan(0);
    expect(asObject(await repacked(iso, "iso", "tar.lzo"))).toEqual(asObject(oracle));
  });
});

describe("hostile and broken archives in the native formats", () => {
  const dir = join(TMP, "hostile");
  beforeAll(() => {
    mkdirSync(dir);
    writeFileSync(join(dir, "zeros.bin"), new Uint8Array(80 * 1024 * 1024));
    writeFileSync(join(dir, "zeros.bin.lz"), sh("lzip", ["-c", "zeros.bin"], dir));
    writeFileSync(join(dir, "zeros.bin.lzo"), sh("lzop", ["-c", "zeros.bin"], dir));
    sh("rzip", ["-k", "-o", "zeros.bin.rz", "zeros.bin"], dir);
    sh("bsdtar", ["-cf", "zeros.tar", "zeros.bin"], dir);
    writeFileSync(join(dir, "zeros.tar.lzo"), sh("lzop", ["-c", "zeros.tar"], dir));
    writeFileSync(join(dir, "zeros.tar.lz"), sh("lzip", ["-c", "zeros.tar"], dir));
    sh("arc", ["a", "zeros.arc", "zeros.bin"], dir);
    writeFileSync(join(dir, "evil.txt"), "x\n");
    sh("bsdtar", ["-s", ",^,../,", "-cf", "climb.tar", "evil.txt"], dir);
    writeFileSync(join(dir, "climb.tar.lzo"), sh("lzop", ["-c", "climb.tar"], dir));
    mkdirSync(join(dir, "links"));
    writeFileSync(join(dir, "links", "real.txt"), "real\n");
    sh("ln", ["-s", "/etc/passwd", "links/passwd"], dir);
    sh("mkfifo", ["links/fifo"], dir);
    sh("bsdtar", ["-cf", "links.tar", "-C", "links", "."], dir);
    writeFileSync(join(dir, "links.tar.lzo"), sh("lzop", ["-c", "links.tar"], dir));
    rmSync(join(dir, "zeros.bin"));
    rmSync(join(dir, "zeros.tar"));
  }, 120_000);

  const BOMBS: [string, string][] = [
    ["zeros.bin.lz", "lz"],
    ["zeros.bin.lzo", "lzo"],
    ["zeros.bin.rz", "rz"],
    ["zeros.tar.lzo", "tar.lzo"],
    ["zeros.tar.lz", "tar.lz"],
    ["zeros.arc", "arc"],
  ];
  for (const [file, format] of BOMBS)
    it(`${format}: 80 MiB of zeros in ${file} → OVER_BUDGET`, async () => {
      const data = readFileSync(join(dir, file));
      expect(data.length).toBeLessThan(16 * 1024 * 1024);
      const err = await expectTaskError(
        () => execute("convert", { input_format: format, output_format: "files" }, [bytesInput(file, data)], ctx()),
        "OVER_BUDGET",
      );
      expect(err.message).toMatch(/MiB/);
    });

  for (const [file, format] of [
    ["a.txt.lz", "lz"],
    ["a.txt.lzo", "lzo"],
    ["a.txt.rz", "rz"],
    ["tree.tar.lzo", "tar.lzo"],
    ["tree.tar.lz", "tar.lz"],
    ["flat.arc", "arc"],
    ["patool-t.alz", "alz"],
  ] as const)
    it(`${format}: ${file} cut in half → OPEN_FAILED`, async () => {
      const whole = readFileSync(format === "alz" ? join(FIXTURES, file) : join(TMP, file));
      const half = whole.subarray(0, Math.floor(whole.length / 2));
      await expectTaskError(
        () =>
          execute(
            "convert",
            { input_format: format, output_format: "files" },
            [bytesInput(`cut.${format}`, half)],
            ctx(),
          ),
        "OPEN_FAILED",
      );
    });

  it("tar.lzo with a member named ../evil.txt → UNSAFE_ARCHIVE", async () => {
    const data = readFileSync(join(dir, "climb.tar.lzo"));
    const err = await expectTaskError(
      () =>
        execute("convert", { input_format: "tar.lzo", output_format: "files" }, [bytesInput("c.tar.lzo", data)], ctx()),
      "UNSAFE_ARCHIVE",
    );
    expect(err.message).toMatch(/\.\.\/evil\.txt/);
  });

  it("tar.lzo with a symbolic link and a FIFO: the regular file comes out, the others are skipped and reported", async () => {
    const data = readFileSync(join(dir, "links.tar.lzo"));
    const r = await execute(
      "convert",
      { input_format: "tar.lzo", output_format: "files" },
      [bytesInput("l.tar.lzo", data)],
      ctx(),
    );
    expect(r.out.files.map((f) => f.filename)).toEqual(["real.txt"]);
    const skipped = (r.out as { extra?: { skipped: { path: string; reason: string }[] } }).extra!.skipped;
    expect(Object.fromEntries(skipped.map((s) => [s.path, s.reason]))).toEqual({
      fifo: expect.stringMatching(/FIFO/),
      passwd: expect.stringMatching(/symbolic link/),
    });
  });
});
