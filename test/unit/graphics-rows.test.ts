/**
 * Issue 49's graphics rows (Inkscape's three, LibRaw, GIMP, the command rows, fontTools) against the rules of the
 * streamed wire: a row that takes streams (`budget.streamOver`) is served by a native engine that takes files (its
 * container module's `files: true`, else the server would hold a framed call's parts in memory), each row's limit is
 * its family's constant (src/engines/native/rows.ts), and operations/kit.ts hands such a row an input over 64 MiB as
 * a stream, over its limit OVER_BUDGET naming it.
 */
import { describe, expect, it } from "vitest";
import { NATIVE_ENGINES } from "../../native-protocol/engines";
import { isStreamed } from "../../native-protocol/frame";
import { ENGINES, engineRow } from "../../src/engines/registry";
import {
  NATIVE_CAD_MAX_BYTES,
  NATIVE_COMMAND_MAX_BYTES,
  NATIVE_FONT_MAX_BYTES,
  NATIVE_MAX_BYTES,
  NATIVE_RAW_MAX_BYTES,
  NATIVE_STREAM_MAX_BYTES,
  NATIVE_VECTOR_MAX_BYTES,
  NATIVE_XCF_MAX_BYTES,
} from "../../src/engines/native/rows";
import { readInputOrStream } from "../../src/operations/kit";
import type { InputFile } from "../../src/operations/types";

/** A stored input of `size` bytes whose reads are counted (nothing is read for a refusal). */
function stored(name: string, size: number, reads: string[] = []): InputFile {
  return {
    filename: name,
    size,
    fromTask: "up",
    bytes: async () => (reads.push("bytes"), new Uint8Array(size)),
    stream: async () => (reads.push("stream"), new Blob([new Uint8Array(8)]).stream()),
  } as unknown as InputFile;
}

const ctx = () => ({ signal: new AbortController().signal, settings: {} });

describe("the graphics rows' budgets (rows.ts)", () => {
  it.each([
    ["inkscape", NATIVE_VECTOR_MAX_BYTES, 128],
    ["inkscape-pdf", NATIVE_VECTOR_MAX_BYTES, 128],
    ["inkscape-cad", NATIVE_CAD_MAX_BYTES, 64],
    ["libraw", NATIVE_RAW_MAX_BYTES, 256],
    ["gimp", NATIVE_XCF_MAX_BYTES, 1024],
    ["native-command", NATIVE_COMMAND_MAX_BYTES, 1024],
    ["ffmpeg-native", NATIVE_STREAM_MAX_BYTES, 5120],
  ] as const)("%s streams over 64 MiB, up to its family's limit", (name, limit, mib) => {
    expect(limit).toBe(mib * 2 ** 20);
    expect(engineRow(name)!.budget).toEqual({ maxBytes: limit, streamOver: NATIVE_MAX_BYTES });
  });

  it("fonttools keeps bytes, up to 32 MiB (no font is over 64 MiB)", () => {
    expect(NATIVE_FONT_MAX_BYTES).toBe(32 * 2 ** 20);
    expect(engineRow("fonttools")!.budget).toEqual({ maxBytes: NATIVE_FONT_MAX_BYTES });
  });

  it("every native row that takes streams is served by an engine that takes files", async () => {
    const streaming = ENGINES.filter((r) => r.placement === "native" && "streamOver" in r.budget);
    expect(streaming.map((r) => r.name)).toEqual(
      expect.arrayContaining(["inkscape", "inkscape-pdf", "inkscape-cad", "libraw", "gimp", "native-command"]),
    );
    for (const row of streaming) {
      const spec = NATIVE_ENGINES.find((e) => e.name === row.name)!;
      const file = "file" in spec && spec.file ? spec.file : spec.name;
      const def = ((await import(`../../container/engines/${file}.ts`)) as { default: { files?: boolean } }).default;
      expect(def.files, `${row.name} (container/engines/${file}.ts)`).toBe(true);
    }
  });
});

describe("operations/kit.ts on a graphics row: bytes, a stream, or OVER_BUDGET before any read", () => {
  const row = engineRow("inkscape")!;

  it("a drawing at 64 MiB is bytes, one byte over a stream of its length", async () => {
    expect(await readInputOrStream(stored("a.ai", NATIVE_MAX_BYTES), ctx(), row)).toBeInstanceOf(Uint8Array);
    const over = await readInputOrStream(stored("a.ai", NATIVE_MAX_BYTES + 1), ctx(), row);
    expect(isStreamed(over)).toBe(true);
    expect((over as { length: number }).length).toBe(NATIVE_MAX_BYTES + 1);
  });

  it("a drawing over 128 MiB is OVER_BUDGET naming the limit, unread", async () => {
    const reads: string[] = [];
    await expect(
      readInputOrStream(stored("a.ai", NATIVE_VECTOR_MAX_BYTES + 1, reads), ctx(), row),
    ).rejects.toMatchObject({ code: "OVER_BUDGET", message: expect.stringContaining("up to 128 MiB") });
    expect(reads).toEqual([]);
  });
});
