// Broken files (../shared/corpus/broken): never a crash. Each gives what ExifTool gives — the same
// Error/Warning property as Debian's exiftool when it has one — or a task error with a code, and
// the engine still answers the next call.
import { describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { brokenFiles, corpusBytes, exiftool, nativeMetadata } from "../support/metadata-helpers";
import { scaled } from "../support/time-scale";

/** Where 13.42 and 12.57 read a broken file differently, as "file key" → reason (none today). */
const KNOWN: Record<string, string> = {};

describe("metadata of broken files", () => {
  it("answers every broken file and keeps working", { timeout: scaled(120_000) }, async () => {
    const rows: string[] = [];
    const mismatches: string[] = [];
    for (const rel of brokenFiles()) {
      const name = rel.split("/").pop()!;
      const r = await exiftool().read({ input: corpusBytes(rel), filename: name });
      const native = nativeMetadata(corpusPath(rel));
      if (r.ok) {
        rows.push(
          `${name}: ${r.metadata.FileType ?? "-"} Error=${r.metadata.Error ?? "-"} Warning=${r.metadata.Warning ?? "-"} | native Error=${native.Error ?? "-"} Warning=${native.Warning ?? "-"}`,
        );
        for (const key of ["Error", "Warning"] as const) {
          if (native[key] !== undefined && r.metadata[key] !== native[key] && !KNOWN[`${name} ${key}`])
            mismatches.push(`${name} ${key}: ${r.metadata[key]} vs ${native[key]}`);
        }
      } else {
        rows.push(`${name}: task error ${r.error.code} ${r.error.message}`);
        expect(r.error.code).toMatch(/^[A-Z_]+$/);
      }
      const next = await exiftool().read({ input: corpusBytes("images/cloudconvert-input.png"), filename: "next.png" });
      expect(next.ok && next.metadata.ImageWidth, `after ${name}`).toBe(1015);
    }
    console.log(`broken files (engine | native):\n  ${rows.join("\n  ")}`);
    expect(mismatches).toEqual([]);
  });
});
