// Issue 5 "done when": for every corpus file (except broken/) the engine's `metadata` agrees with
// Debian's `exiftool -json` on the spec's keys. Every disagreement is printed; the known ones are
// listed below with their reason, never hidden. One engine, files one after another (2 cores).
import { describe, expect, it } from "vitest";
import { SANDBOX_KEYS } from "../../src/engines/exiftool/json";
import { corpusPath } from "../support/corpus";
import { SPEC_KEYS, corpusBytes, corpusFiles, exiftool, nativeMetadata, scalar } from "../support/metadata-helpers";
import { scaled } from "../support/time-scale";

/**
 * Disagreements explained by the version gap (WASM: ExifTool 13.42; Debian bookworm: 12.57), as
 * "file key". Each was checked by hand; a new disagreement fails the test until it is understood.
 */
const SEVEN_ZIP = 'ExifTool 12.57 does not know 7z: it answers Error "Unknown file type"; 13.42 reads it';
const RAR5 = 'ExifTool 12.57 does not read RAR v5: it answers Error "File format error"; 13.42 reads it';
const FONT_MIME = "ExifTool 13 names font MIME types application/font-ttf|otf; 12.57 says application/x-font-ttf|otf";
const WPG =
  'ExifTool 13 reads WPG (WordPerfect Graphics), whose \\xffWPC magic every WordPerfect file shares, so a .wpd document is typed WPG; 12.57 answers Error "Unknown file type"';
const VSDX = "ExifTool 13 knows Visio's VSDX; 12.57 types any OOXML package it does not know as DOCX";
const TYPE = ["FileType", "FileTypeExtension", "MIMEType"];
/** (file, keys, reason) rows, expanded below into "file key" → reason. */
const KNOWN_ROWS: [file: string, keys: string[], reason: string][] = [
  ["archives/libarchive-test_read_format_7zip_lzma1.7z", [...TYPE, "ModifyDate"], SEVEN_ZIP],
  ["archives/libarchive-test_read_format_rar5_multiple_files.rar", TYPE, RAR5],
  ["fonts/cantarell-Cantarell-Regular.otf", ["MIMEType"], FONT_MIME],
  ["fonts/dejavu-DejaVuSansMono.ttf", ["MIMEType"], FONT_MIME],
  ["fonts/opensans-OpenSans-Regular.ttf", ["MIMEType"], FONT_MIME],
  ["office/tika-testWordPerfect.wpd", TYPE, WPG],
  ["vector/tika-testVISIO.vsdx", TYPE, VSDX],
];
const KNOWN: Record<string, string> = Object.fromEntries(
  KNOWN_ROWS.flatMap(([file, keys, why]) => keys.map((k) => [`${file} ${k}`, why])),
);

/** Agreement floor over (file, key) pairs present in either output. */
const FLOOR = 0.95;

describe("metadata agrees with Debian's exiftool -json over the corpus", () => {
  it("on the spec's keys, for every file", { timeout: scaled(480_000) }, async () => {
    let compared = 0,
      agreed = 0;
    const unexpected: string[] = [],
      disagreements: string[] = [];
    const files = corpusFiles();
    for (const rel of files) {
      const name = rel.split("/").pop()!;
      const r = await exiftool().read({ input: corpusBytes(rel), filename: name });
      if (!r.ok) {
        unexpected.push(`${rel}: ${r.error.code} ${r.error.message}`);
        continue;
      }
      const native = nativeMetadata(corpusPath(rel));
      expect(r.metadata.SourceFile, rel).toBe(name);
      for (const k of Object.keys(r.metadata)) expect(SANDBOX_KEYS.has(k), `${rel} ${k}`).toBe(false);
      for (const key of SPEC_KEYS) {
        if (!(key in native) && !(key in r.metadata)) continue;
        compared++;
        const ours = r.metadata[key],
          theirs = key in native ? scalar(native[key]) : undefined;
        if (ours === theirs) {
          agreed++;
          continue;
        }
        const line = `${rel} ${key}: wasm ${JSON.stringify(ours)} vs native ${JSON.stringify(theirs)}`;
        disagreements.push(line);
        if (!KNOWN[`${rel} ${key}`]) unexpected.push(line);
      }
    }
    const rate = agreed / compared;
    console.log(
      `metadata agreement: ${agreed}/${compared} = ${(100 * rate).toFixed(1)}% over ${files.length} files\n${disagreements.map((d) => `  ${d}${KNOWN[d.slice(0, d.indexOf(":"))] ? ` (known: ${KNOWN[d.slice(0, d.indexOf(":"))]})` : ""}`).join("\n")}`,
    );
    expect(unexpected).toEqual([]);
    // a known row no file shows any more (an engine upgrade closed it) is removed, not kept as cover
    const seen = new Set(disagreements.map((d) => d.slice(0, d.indexOf(":"))));
    expect(Object.keys(KNOWN).filter((k) => !seen.has(k))).toEqual([]);
    expect(rate).toBeGreaterThanOrEqual(FLOOR);
  });
});
