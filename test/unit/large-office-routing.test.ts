/**
 * Large office documents and the engine budgets (issue 49): a document over the in-Worker office engines' budgets
 * (SheetJS 16 MiB, pandoc in WebAssembly 8 MiB) is routed past them to the native LibreOffice, and over the stream
 * threshold (NATIVE_MAX_BYTES, 64 MiB) handed to it as a stream of its size; over the office row's limit
 * (OFFICE_MAX_BYTES, 1 GiB: the most a zipped document may expand to, container/engines/libreoffice.ts) it is a coded
 * OVER_BUDGET naming the limit, no engine asked. Stand-ins record which engine routing asked and what it was given;
 * the sizes are declared, as R2 reports them.
 */
import { describe, expect, it } from "vitest";
import { MAX_EXPANDED_BYTES } from "../../container/engines/libreoffice";
import { isStreamed } from "../../native-protocol/frame";
import { OFFICE_MAX_BYTES, type OfficeRequest } from "../../native-protocol/office";
import { NATIVE_MAX_BYTES, NATIVE_PANDOC_MAX_BYTES } from "../../src/engines/native/rows";
import { engineRow } from "../../src/engines/registry";
import type { InputFile } from "../../src/operations/types";
import { execute } from "../../src/runner/execute";
import { testContext } from "../support/context";

const file = (filename: string, size: number): InputFile => ({
  filename,
  size,
  fromTask: "in",
  key: `k/${filename}`,
  bytes: async () => new Uint8Array(size),
  // never read here: the stand-ins only record what they were given
  stream: async () => new ReadableStream<Uint8Array>(),
});

type Call = { name: string; input: unknown };

/**
 * An office engine stand-in that records its calls (engine name and the input it got) and answers `code` (a hand-off
 * code: routing tries the next engine).
 */
const standIn = (calls: Call[], name: string, code: string) => ({
  convert: async (req: OfficeRequest) => {
    calls.push({ name, input: req.input.data });
    return {
      ok: false as const,
      error: { code, message: `${name} stand-in`, retryable: false },
      engineVersion: "0",
    };
  },
});
/** Every office row as a stand-in answering UNSUPPORTED, but those `codes` names. */
const office = (calls: Call[], codes: Record<string, string> = {}) =>
  testContext({
    engines: Object.fromEntries(
      ["sheetjs", "libreoffice", "pandoc-wasm", "pandoc"].map((n) => [n, standIn(calls, n, codes[n] ?? "UNSUPPORTED")]),
    ) as never,
  });

describe("large office documents go to the native LibreOffice as streams", () => {
  it("the office row's budget: 1 GiB (the zip-bomb guard's limit) as streams over 64 MiB", () => {
    expect(OFFICE_MAX_BYTES).toBe(1024 ** 3);
    expect(MAX_EXPANDED_BYTES).toBe(OFFICE_MAX_BYTES);
    expect(engineRow("libreoffice")!.budget).toEqual({ maxBytes: OFFICE_MAX_BYTES, streamOver: NATIVE_MAX_BYTES });
  });

  it("a 200 MB docx → pdf reaches LibreOffice as a stream of its size", async () => {
    const calls: Call[] = [];
    await expect(
      execute("convert", { output_format: "pdf" }, [file("pictures.docx", 200e6)], office(calls)),
    ).rejects.toMatchObject({ code: "UNSUPPORTED" });
    expect(calls.map((c) => c.name)).toEqual(["libreoffice"]);
    expect(isStreamed(calls[0]!.input)).toBe(true);
    expect((calls[0]!.input as { length: number }).length).toBe(200e6);
  });

  it("a 200 MB docx → odt skips pandoc in WebAssembly (8 MiB) for LibreOffice, as a stream", async () => {
    const calls: Call[] = [];
    await expect(
      execute("convert", { output_format: "odt" }, [file("pictures.docx", 200e6)], office(calls)),
    ).rejects.toMatchObject({ code: "UNSUPPORTED" });
    expect(calls.map((c) => c.name)).toEqual(["libreoffice"]);
    expect(isStreamed(calls[0]!.input)).toBe(true);
  });

  it("a 100 MB xlsx → csv skips SheetJS (16 MiB) for LibreOffice, as a stream", async () => {
    const calls: Call[] = [];
    await expect(
      execute("convert", { output_format: "csv" }, [file("big.xlsx", 100e6)], office(calls)),
    ).rejects.toMatchObject({ code: "UNSUPPORTED" });
    expect(calls.map((c) => c.name)).toEqual(["libreoffice"]);
    expect(isStreamed(calls[0]!.input)).toBe(true);
  });

  it("a 30 MB docx → odt: LibreOffice as bytes (under the threshold); pandoc in WebAssembly is not asked", async () => {
    const calls: Call[] = [];
    await expect(
      execute("convert", { output_format: "odt" }, [file("mid.docx", 30e6)], office(calls)),
    ).rejects.toMatchObject({ code: "UNSUPPORTED" });
    expect(calls.map((c) => c.name)).toEqual(["libreoffice"]);
    expect(calls[0]!.input).toBeInstanceOf(Uint8Array);
  });

  it("markdown → docx: pandoc in WebAssembly's OVER_BUDGET hands off to the native pandoc; over its 1 MiB it is not asked; over the native pandoc's 8 MiB none is", async () => {
    const calls: Call[] = [];
    await expect(
      execute(
        "convert",
        { output_format: "docx" },
        [file("notes.md", 1e6)],
        office(calls, { "pandoc-wasm": "OVER_BUDGET" }),
      ),
    ).rejects.toMatchObject({ code: "OVER_BUDGET" }); // the first refusal says more than the last stand-in's
    expect(calls.map((c) => c.name)).toEqual(["pandoc-wasm", "pandoc"]);
    for (const c of calls) expect(c.input).toBeInstanceOf(Uint8Array);
    const big: Call[] = [];
    await expect(
      execute("convert", { output_format: "docx" }, [file("notes.md", 6e6)], office(big)),
    ).rejects.toMatchObject({ code: "UNSUPPORTED" });
    expect(big.map((c) => c.name)).toEqual(["pandoc"]);
    expect(big[0]!.input).toBeInstanceOf(Uint8Array);
    // issue 49: pandoc holds the document's AST (~200× its size), so its row takes 8 MiB and a larger one is refused
    const huge: Call[] = [];
    await expect(
      execute("convert", { output_format: "docx" }, [file("notes.md", 20e6)], office(huge)),
    ).rejects.toMatchObject({
      code: "OVER_BUDGET",
      message: `An input of convert is 20000000 bytes; the engines here take files up to ${NATIVE_PANDOC_MAX_BYTES} bytes.`,
    });
    expect(huge).toEqual([]);
  });

  it("a docx over 1 GiB is OVER_BUDGET naming the limit, no engine asked", async () => {
    const calls: Call[] = [];
    const size = OFFICE_MAX_BYTES + 1;
    await expect(
      execute("convert", { output_format: "pdf" }, [file("huge.docx", size)], office(calls)),
    ).rejects.toMatchObject({
      code: "OVER_BUDGET",
      message: `An input of convert is ${size} bytes; the engines here take files up to ${OFFICE_MAX_BYTES} bytes.`,
    });
    expect(calls).toEqual([]);
  });
});
