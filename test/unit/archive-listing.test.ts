/**
 * The checks made on 7-Zip's listing before anything is inflated (src/engines/sevenzip/listing.ts):
 * zip-slip paths, entry types, dictionaries, budgets. The listings here are 7-Zip's own output
 * format; the engine test (archive-engine.test.ts) runs them on real archives.
 */
import { describe, expect, it } from "vitest";
import {
  checkListing,
  dictionaryBytes,
  parseListing,
  relativePath,
  unsafePath,
} from "../../src/engines/sevenzip/listing";
import { DEFAULT_ARCHIVE_BUDGET } from "../../src/engines/sevenzip/budget";

const LISTING = `
7-Zip 24.09 (x86) : Copyright (c) 1999-2024 Igor Pavlov : 2024-11-29

--
Path = /in/archive
Type = tar
Physical Size = 10240

----------
Path = ./docs
Folder = +
Size = 0
Mode = drwxr-xr-x

Path = ./docs/a.txt
Folder = -
Size = 12
Mode = -rw-r--r--
Symbolic Link = 
Hard Link = 

Path = docs/link
Folder = -
Size = 0
Mode = lrwxrwxrwx
Symbolic Link = a.txt

Path = docs/copy
Folder = -
Size = 0
Mode = -rw-r--r--
Hard Link = docs/a.txt

Path = dev/sda
Folder = -
Size = 0
Mode = brw-r--r--
Device Major = 8

Path = old/suntar
Folder = -
Size = 7
Mode = -rw-r--r--
Device Major = 3
`;

describe("the 7-Zip listing", () => {
  it("reads types, relative paths, sizes and links", () => {
    const l = parseListing(LISTING);
    expect(l.type).toBe("tar");
    expect(l.entries.map((e) => [e.path, e.type, e.size, e.link ?? null])).toEqual([
      ["docs", "dir", 0, null],
      ["docs/a.txt", "file", 12, null],
      ["docs/link", "symlink", 0, "a.txt"],
      ["docs/copy", "hardlink", 0, "docs/a.txt"],
      ["dev/sda", "device", 0, null],
      ["old/suntar", "file", 7, null], // a mode that says regular file wins over stray device numbers
    ]);
  });

  it("refuses absolute paths, drive letters and .. steps, and keeps ordinary names", () => {
    expect(unsafePath("/etc/passwd")).toMatch(/absolute/);
    expect(unsafePath("C:\\Windows\\x")).toMatch(/drive/);
    expect(unsafePath("a/../../x")).toMatch(/\.\./);
    expect(unsafePath("..\\x")).toMatch(/\.\./);
    expect(unsafePath("a/..b/c..d")).toBeNull();
    expect(relativePath("./a//b/./c")).toBe("a/b/c");
  });

  it("reads decoder dictionaries from method strings", () => {
    expect(dictionaryBytes("LZMA:16")).toBe(64 * 1024);
    expect(dictionaryBytes("LZMA2:26 BCJ")).toBe(64 * 1024 * 1024);
    expect(dictionaryBytes("LZMA2:24m")).toBe(24 * 1024 * 1024);
    expect(dictionaryBytes("v6:m5:128K")).toBe(128 * 1024);
    expect(dictionaryBytes("PPMD:o6:mem24")).toBe(16 * 1024 * 1024);
    expect(dictionaryBytes("AES-256 Deflate")).toBe(0);
  });

  it("budgets entries, the declared total, the ratio and dictionaries, with the numbers in the message", () => {
    // the numbers of the budget before issue 49 (64 MiB out), so the ratio is what refuses the bomb below
    const b = { ...DEFAULT_ARCHIVE_BUDGET, maxTotalBytes: 64 * 1048576 };
    const entry = (path: string, size: number, method = "Store") => ({
      raw: path,
      path,
      type: "file" as const,
      size,
      encrypted: false,
      method,
    });
    const big = { type: "zip", errors: [], entries: [entry("a", 40 * 1048576), entry("b", 40 * 1048576)] };
    expect(checkListing(big, 50 * 1048576, b, false)).toEqual({
      code: "OVER_BUDGET",
      message: expect.stringMatching(/80 MiB unpacked; at most 64 MiB/),
    });
    const bomb = { type: "zip", errors: [], entries: [entry("zeros", 60 * 1048576)] };
    expect(checkListing(bomb, 60 * 1024, b, false)).toEqual({
      code: "OVER_BUDGET",
      message: expect.stringMatching(/ratio of 1024:1; above 200:1/),
    });
    const many = { type: "zip", errors: [], entries: Array.from({ length: 10_001 }, (_, i) => entry(`f${i}`, 1)) };
    expect(checkListing(many, 1e6, b, false)?.message).toMatch(/10001 entries; at most 10000/);
    const dict = { type: "7z", errors: [], entries: [entry("x", 10, "LZMA2:27")] };
    expect(checkListing(dict, 1e6, b, false)?.message).toMatch(/128 MiB decoder dictionary/);
    const locked = { type: "zip", errors: [], entries: [{ ...entry("s", 10), encrypted: true }] };
    expect(checkListing(locked, 100, b, false)?.code).toBe("INVALID_PASSWORD");
    expect(checkListing(locked, 100, b, true)).toBeNull();
    const slip = { type: "zip", errors: [], entries: [entry("ok", 1), entry("../../etc/cron.d/x", 1)] };
    expect(checkListing(slip, 100, b, false)).toEqual({
      code: "UNSAFE_ARCHIVE",
      message: expect.stringContaining('"../../etc/cron.d/x"'),
    });
  });
});
