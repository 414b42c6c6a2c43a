/**
 * The archive engine (7-Zip 24.09 in WebAssembly, the code the wasm/7z engine Worker runs) against
 * native oracles (issue 15): every archive of the corpus extracts to the regular files bsdtar / GNU
 * tar / 7z extract, byte for byte; every archive the engine writes lists and extracts natively to
 * exactly the input names and bytes; hostile archives end in a coded error; budgets hold against a
 * lying header.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync, zipSync } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { SEVENZIP_ENGINE } from "../../src/engines/sevenzip/version";
import { nodeSevenZipEngine } from "../../src/runtime/node/sevenzip";
import { execute } from "../../src/runner/execute";
import { extensionOf } from "../../src/operations/io/filenames";
import { nativeExtract, regularFiles, sevenZipList } from "../support/archive-oracle";
import { byClaim } from "../support/claims";
import { corpusPath } from "../support/corpus";
import { testContext } from "../support/context";
import { corpusInput, expectTaskError } from "../support/pdf-helpers";

const engine = nodeSevenZipEngine();
const TMP = mkdtempSync(join(tmpdir(), "archive-engine-"));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const formatOf = (f: string) => extensionOf(f) as never;
const PASSWORDS: Record<string, string> = {
  "libarchive-test_read_format_zip_traditional_encryption_data.zip": "12345678",
  "libarchive-test_read_format_zip_winzip_aes256.zip": "password",
};
/**
 * Known differences from the native extraction, each a 7-Zip 24.09 limitation: RAR 4 and ISO Rock
 * Ridge symbolic links are not reported as links, so they come out as small files holding the link
 * target (never followed); GNU/PAX sparse formats 0.0, 0.1 and 1.0 are not expanded (7-Zip answers
 * the stored data); names that are not UTF-8 are spelled with replacement characters.
 */
const LINKS_AS_FILES: Record<string, string[]> = {
  "libarchive-test_read_format_rar.rar": ["testlink"],
  "libarchive-test_read_format_iso_joliet_rockridge.iso": ["symlink"],
};
const SPARSE_PAX = /^gnu\/(sparse-0\.0|sparse-0\.1|sparse-1\.0|GNUSparseFile\.\d+\/sparse-\d\.\d)$/;
const notUtf8 = (s: string) => s.includes("\uFFFD");

/**
 * The corpus's archives split by what the engine table claims for convert → files (extraction):
 * the claimed ones against native extraction, the others (formats a coming issue adds) refused by
 * routing with a coded error before any engine runs.
 */
const SWEEP = byClaim(readdirSync(corpusPath("archives")), "convert", "files");

describe("extraction of every archive in the corpus, against native extraction", () => {
  it("the sweep covers the formats issue 15 claims, and the rest of the corpus is listed as not claimed yet", () => {
    const exts = new Set(SWEEP.claimed.map(extensionOf));
    for (const e of ["zip", "7z", "rar", "tar", "tgz", "iso"]) expect(exts.has(e), e).toBe(true);
    expect(SWEEP.claimed.length + SWEEP.unclaimed.length).toBe(readdirSync(corpusPath("archives")).length);
  });

  for (const name of SWEEP.unclaimed) {
    it(`${name}: a format not claimed yet → INVALID_CONVERSION_TYPE, naming it`, async () => {
      const err = await expectTaskError(
        () =>
          execute(
            "convert",
            { output_format: "zip" },
            [corpusInput(`archives/${name}`)],
            testContext({ engines: { "7z": engine } }),
          ),
        "INVALID_CONVERSION_TYPE",
      );
      expect(err.message).toContain(`from ${extensionOf(name)} to zip`);
    });
  }

  for (const name of SWEEP.claimed) {
    it(name, async () => {
      const file = corpusPath(`archives/${name}`);
      const password = PASSWORDS[name];
      const r = await engine.extract({
        input: { data: readFileSync(file), filename: name },
        format: formatOf(name),
        password,
      });
      expect(r.ok, JSON.stringify(r.ok ? "" : r.error)).toBe(true);
      if (!r.ok) return;
      // bsdtar reads all but the non-UTF-8 tar names (GNU tar is its oracle) and the encrypted zips (7z)
      const native = nativeExtract(file, name.startsWith("cpython") ? "tar" : password ? "7z" : "bsdtar", password);
      const ours = new Map(r.members.map((m) => [m.path, Buffer.from(m.data)]));
      const extra = LINKS_AS_FILES[name] ?? [];
      for (const p of extra) ours.delete(p);
      const plain = (m: Map<string, Buffer>) => [...m.keys()].filter((p) => !SPARSE_PAX.test(p) && !notUtf8(p)).sort();
      expect(plain(ours)).toEqual(plain(native));
      for (const p of plain(native)) expect(ours.get(p)!.equals(native.get(p)!), p).toBe(true);
      // the names 7-Zip spells differently still carry the same bytes as the native files
      const odd = [...ours.keys()]
        .filter(notUtf8)
        .map((p) => ours.get(p)!.length)
        .sort();
      const nativeOdd = [...native.keys()]
        .filter((p) => notUtf8(p))
        .map((p) => native.get(p)!.length)
        .sort();
      expect(odd).toEqual(nativeOdd);
    });
  }

  it("reports links and devices as skipped, and answers a hard link as a copy of its target", async () => {
    const r = await engine.extract({
      input: { data: readFileSync(corpusPath("archives/cpython-testtar.tar")), filename: "testtar.tar" },
      format: "tar",
    });
    if (!r.ok) throw new Error(r.error.message);
    const skipped = Object.fromEntries(r.skipped.map((s) => [s.path, s.reason]));
    expect(skipped["ustar/symtype"]).toMatch(/symbolic link \(to regtype\)/);
    expect(skipped["ustar/blktype"]).toMatch(/device/);
    expect(skipped["ustar/fifotype"]).toMatch(/FIFO/);
    const lnk = r.members.find((m) => m.path === "ustar/lnktype")!;
    const reg = r.members.find((m) => m.path === "ustar/regtype")!;
    expect(Buffer.from(lnk.data).equals(Buffer.from(reg.data))).toBe(true);
  });

  it("names the engine version 7-Zip prints", async () => {
    const r = await engine.create({ files: [{ name: "a.txt", data: new TextEncoder().encode("a") }], format: "zip" });
    expect(r.ok && r.engineVersion).toBe(SEVENZIP_ENGINE.version);
    const banner = execFileSync(
      process.execPath,
      [
        "-e",
        `import("7z-wasm").then(async (m) => { let out = ""; const z = await m.default({ print: (s) => (out += s + "\\n") }); z.callMain(["i"]); console.log(out.split("\\n").find((l) => l.startsWith("7-Zip"))); })`,
      ],
      { encoding: "utf8" },
    );
    expect(banner).toMatch(new RegExp(`^7-Zip .*\\b${SEVENZIP_ENGINE.version.replace(".", "\\.")}\\b`));
  });
});

describe("passwords", () => {
  const zip = "archives/libarchive-test_read_format_zip_traditional_encryption_data.zip";
  const aes = "archives/libarchive-test_read_format_zip_winzip_aes256.zip";
  for (const [label, file, password] of [
    ["a ZipCrypto zip", zip, "wrong"],
    ["a WinZip AES-256 zip", aes, "wrong"],
    ["a ZipCrypto zip without a password", zip, undefined],
    ["an AES zip without a password", aes, undefined],
  ] as const) {
    it(`${label} ends in INVALID_PASSWORD`, async () => {
      const r = await engine.extract({
        input: { data: readFileSync(corpusPath(file)), filename: "x.zip" },
        format: "zip",
        password,
      });
      expect(r.ok ? "ok" : r.error.code).toBe("INVALID_PASSWORD");
    });
  }

  for (const format of ["zip", "7z"] as const) {
    it(`a ${format} written with a password opens natively only with it (7z t), and the engine reads it back`, async () => {
      const files = [{ name: "secret.txt", data: new TextEncoder().encode("attack at dawn\n") }];
      const r = await engine.create({ files, format, password: "s3cret pass" });
      if (!r.ok) throw new Error(r.error.message);
      const path = join(TMP, `locked.${format}`);
      writeFileSync(path, r.data);
      expect(() => execFileSync("7z", ["t", "-ps3cret pass", path], { stdio: "pipe" })).not.toThrow();
      expect(() => execFileSync("7z", ["t", "-pnope", path], { stdio: "pipe" })).toThrow();
      const back = await engine.extract({
        input: { data: r.data, filename: `locked.${format}` },
        format,
        password: "s3cret pass",
      });
      expect(back.ok && new TextDecoder().decode(back.members[0]!.data)).toBe("attack at dawn\n");
      const wrong = await engine.extract({
        input: { data: r.data, filename: `locked.${format}` },
        format,
        password: "nope",
      });
      expect(wrong.ok ? "ok" : wrong.error.code).toBe("INVALID_PASSWORD");
    });
  }
});

describe("hostile and broken archives", () => {
  const CASES: [string, string, string][] = [
    ["broken/yauzl-relative-path-traversal.zip", "zip", "UNSAFE_ARCHIVE"],
    ["broken/yauzl-absolute-path.zip", "zip", "UNSAFE_ARCHIVE"],
    ["broken/libarchive-test_read_format_zip-bad-crc.zip", "zip", "OPEN_FAILED"],
    ["broken/yauzl-unexpected-EOF.zip", "zip", "OPEN_FAILED"],
    ["broken/cpython-recursion.tar", "tar", "OPEN_FAILED"],
    ["broken/tika-testWORD_truncated.docx", "zip", "OPEN_FAILED"],
    ["pdf/pdfjs-tracemonkey.pdf", "zip", "OPEN_FAILED"],
  ];
  for (const [file, format, code] of CASES) {
    it(`${file} → ${code}`, async () => {
      const data = readFileSync(corpusPath(file));
      const r = await engine.extract({ input: { data, filename: file }, format: format as never });
      expect(r.ok ? "ok" : r.error.code, r.ok ? "" : r.error.message).toBe(code);
    });
  }

  it("a bomb is refused on its listing, before inflation, with the numbers", async () => {
    const bomb = zipSync({ "zeros.bin": new Uint8Array(80 * 1024 * 1024) }, { level: 9 });
    const r = await engine.extract({ input: { data: bomb, filename: "bomb.zip" }, format: "zip" });
    expect(r.ok ? "ok" : r.error.code).toBe("OVER_BUDGET");
    expect(r.ok ? "" : r.error.message).toMatch(/80 MiB unpacked; at most 64 MiB/);
  });

  it("a tar.gz whose gzip trailer lies about its size stops at the write cap", async () => {
    const small = nodeSevenZipEngine({ budget: { maxTotalBytes: 1024 * 1024 } });
    const tar = await engine.create({
      files: [{ name: "zeros.bin", data: new Uint8Array(3 * 1024 * 1024) }],
      format: "tar",
    });
    if (!tar.ok) throw new Error(tar.error.message);
    const gz = gzipSync(tar.data);
    new DataView(gz.buffer, gz.byteOffset + gz.length - 4, 4).setUint32(0, 1000, true); // ISIZE claims 1000 bytes
    const r = await small.extract({ input: { data: gz, filename: "liar.tar.gz" }, format: "tar.gz" });
    expect(r.ok ? "ok" : r.error.code).toBe("OVER_BUDGET");
    expect(r.ok ? "" : r.error.message).toMatch(/more than 1 MiB/);
  });

  it("nested archives are not opened: the inner zip comes out as a file", async () => {
    const r = await engine.extract({
      input: {
        data: readFileSync(corpusPath("archives/libarchive-test_read_format_zip_nested.zip")),
        filename: "n.zip",
      },
      format: "zip",
    });
    expect(r.ok && r.members.map((m) => m.path).sort()).toEqual(["file.txt", "small.zip"]);
  });
});

describe("archives written by the engine, read by native tools", () => {
  const inputs = [
    { name: "tracemonkey.pdf", data: new Uint8Array(readFileSync(corpusPath("pdf/pdfjs-tracemonkey.pdf"))) },
    { name: "notes.txt", data: new TextEncoder().encode("line\n".repeat(5000)) },
    { name: "日本語 名前.txt", data: new TextEncoder().encode("こんにちは\n") },
    { name: "empty.bin", data: new Uint8Array(0) },
  ];
  const LIST: Record<string, (p: string) => string> = {
    zip: (p) => execFileSync("unzip", ["-Z1", p], { encoding: "utf8" }),
    "7z": (p) => [...sevenZipList(p).keys()].join("\n"),
    tar: (p) => execFileSync("tar", ["-tf", p], { encoding: "utf8" }),
    "tar.gz": (p) => execFileSync("tar", ["-tzf", p], { encoding: "utf8" }),
    "tar.bz2": (p) => execFileSync("tar", ["-tjf", p], { encoding: "utf8" }),
  };
  for (const format of ["zip", "7z", "tar", "tar.gz", "tar.bz2"] as const) {
    it(`${format}: the native listing names exactly the inputs, and native extraction gives their bytes`, async () => {
      const r = await engine.create({ files: inputs, format });
      if (!r.ok) throw new Error(r.error.message);
      const path = join(TMP, `out.${format}`);
      writeFileSync(path, r.data);
      const listed = LIST[format]!(path).split("\n").filter(Boolean).sort();
      expect(listed).toEqual(inputs.map((f) => f.name).sort());
      const sizes = sevenZipList(format.startsWith("tar.") ? path : path);
      if (!format.startsWith("tar.")) for (const f of inputs) expect(sizes.get(f.name)).toBe(f.data.length);
      const back = nativeExtract(path, format === "7z" ? "7z" : format === "zip" ? "bsdtar" : "tar");
      expect([...back.keys()].sort()).toEqual(inputs.map((f) => f.name).sort());
      for (const f of inputs) expect(back.get(f.name)!.equals(Buffer.from(f.data)), f.name).toBe(true);
    });
  }

  it("repacks a RAR 5 archive as zip with its paths, and a UTF-8 zip as 7z", async () => {
    const rar = await engine.extract({
      input: {
        data: readFileSync(corpusPath("archives/libarchive-test_read_format_rar5_multiple_files.rar")),
        filename: "r.rar",
      },
      format: "rar",
      repack: "zip",
    });
    if (!rar.ok) throw new Error(rar.error.message);
    const zpath = join(TMP, "from-rar.zip");
    writeFileSync(zpath, rar.archive!);
    const fromRar = nativeExtract(zpath, "bsdtar");
    const rarNative = nativeExtract(
      corpusPath("archives/libarchive-test_read_format_rar5_multiple_files.rar"),
      "bsdtar",
    );
    expect([...fromRar.keys()].sort()).toEqual([...rarNative.keys()].sort());
    for (const [k, v] of rarNative) expect(fromRar.get(k)!.equals(v)).toBe(true);
    const jp = await engine.extract({
      input: {
        data: readFileSync(corpusPath("archives/libarchive-test_read_format_zip_filename_utf8_jp.zip")),
        filename: "jp.zip",
      },
      format: "zip",
      repack: "7z",
    });
    if (!jp.ok) throw new Error(jp.error.message);
    const spath = join(TMP, "jp.7z");
    writeFileSync(spath, jp.archive!);
    expect([...sevenZipList(spath).keys()].sort()).toEqual(["表だよ/一覧表.txt", "表だよ/漢字.txt"]);
  });
});

describe("regularFiles oracle helper", () => {
  it("sees files only", () => {
    const dir = mkdtempSync(join(TMP, "rf-"));
    writeFileSync(join(dir, "a"), "x");
    expect([...regularFiles(dir).keys()]).toEqual(["a"]);
  });
});

describe("answers", () => {
  it("are Uint8Arrays (MEMFS may hold files as Int8Array slices of the heap; storage requires Uint8Array)", async () => {
    const r = await engine.create({ files: [{ name: "a.txt", data: new TextEncoder().encode("a") }], format: "zip" });
    expect(r.ok && r.data).toBeInstanceOf(Uint8Array);
    const x = await engine.extract({
      input: { data: r.ok ? r.data : new Uint8Array(0), filename: "a.zip" },
      format: "zip",
    });
    expect(x.ok && x.members[0]!.data).toBeInstanceOf(Uint8Array);
  });
});
