/**
 * Big media and the engine budgets (issue 35): a video over the WebAssembly ffmpeg's budget (8 MiB)
 * is handed to the native ffmpeg without the WASM engine being asked; a 1 GB video is routed to the
 * native ffmpeg too and handed to it as a stream (the native media row streams inputs over
 * NATIVE_MAX_BYTES, up to NATIVE_STREAM_MAX_BYTES: native-protocol/frame.ts); over that, and a
 * document over a native row's own limit (the native pandoc's 8 MiB), is a coded OVER_BUDGET naming the limit
 * (large office documents: large-office-routing.test.ts).
 * Stand-ins record which engine routing asked and what it was given; the sizes are declared, as R2
 * reports them.
 */
import { describe, expect, it } from "vitest";
import { isStreamed } from "../../native-protocol/frame";
import type { MediaRequest } from "../../native-protocol/media/formats";
import { NATIVE_MAX_BYTES, NATIVE_PANDOC_MAX_BYTES, NATIVE_STREAM_MAX_BYTES } from "../../src/engines/native/rows";
import { engineRow } from "../../src/engines/registry";
import { readInput, readInputOrStream } from "../../src/operations/kit";
import type { InputFile } from "../../src/operations/types";
import { execute } from "../../src/runner/execute";
import { DEFAULT_MAX_IMPORT_BYTES } from "../../src/settings";
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
const video = (size: number) => file("camera.mp4", size);

/** A media engine stand-in that records its calls (engine name and the input it got) and answers UNSUPPORTED. */
function standIn(calls: { name: string; input: unknown }[], name: string) {
  const refuse = async (req: MediaRequest) => {
    calls.push({ name, input: req.input.data });
    return {
      ok: false as const,
      error: { code: "UNSUPPORTED", message: `${name} stand-in`, retryable: false },
      engineVersion: "0",
    };
  };
  return { run: refuse, command: refuse, info: async () => ({ engineVersion: "0", wasmMemoryBytes: 0 }) };
}
const media = (calls: { name: string; input: unknown }[]) =>
  testContext({
    engines: { ffmpeg: standIn(calls, "ffmpeg"), "ffmpeg-native": standIn(calls, "ffmpeg-native") } as never,
  });

describe("big media goes to the native engine", () => {
  it("a 60 MB video skips the WebAssembly ffmpeg (8 MiB budget) for the native ffmpeg, as bytes", async () => {
    const calls: { name: string; input: unknown }[] = [];
    const tried: { engine?: { name: string; version: string } } = {};
    await expect(
      execute("convert", { output_format: "webm" }, [video(60e6)], media(calls), tried),
    ).rejects.toMatchObject({ code: "UNSUPPORTED" });
    expect(calls.map((c) => c.name)).toEqual(["ffmpeg-native"]);
    expect(calls[0]!.input).toBeInstanceOf(Uint8Array);
    expect(tried.engine?.name).toBe("ffmpeg-native");
  });

  it("a 1 GB video is routed to the native ffmpeg alone, and handed to it as a stream of its size", async () => {
    const calls: { name: string; input: unknown }[] = [];
    await expect(execute("convert", { output_format: "mkv" }, [video(1e9)], media(calls))).rejects.toMatchObject({
      code: "UNSUPPORTED",
    });
    expect(calls.map((c) => c.name)).toEqual(["ffmpeg-native"]);
    expect(isStreamed(calls[0]!.input)).toBe(true);
    expect((calls[0]!.input as { length: number }).length).toBe(1e9);
  });

  it("a video over the streamed budget (5 GiB) is OVER_BUDGET naming it, no engine asked", async () => {
    const calls: { name: string; input: unknown }[] = [];
    const size = NATIVE_STREAM_MAX_BYTES + 1;
    await expect(execute("convert", { output_format: "webm" }, [video(size)], media(calls))).rejects.toMatchObject({
      code: "OVER_BUDGET",
      message: `An input of convert is ${size} bytes; the engines here take files up to ${NATIVE_STREAM_MAX_BYTES} bytes.`,
    });
    expect(calls).toEqual([]);
  });

  it("the streamed budget is MAX_IMPORT_BYTES's default: what an import stores, the native ffmpeg converts", () => {
    expect(NATIVE_STREAM_MAX_BYTES).toBe(DEFAULT_MAX_IMPORT_BYTES);
    expect(NATIVE_MAX_BYTES).toBe(64 * 1024 * 1024);
    expect(engineRow("ffmpeg-native")!.budget).toEqual({
      maxBytes: NATIVE_STREAM_MAX_BYTES,
      streamOver: NATIVE_MAX_BYTES,
    });
  });

  it("a document over the native pandoc's 8 MiB (it holds the whole AST: issue 49) is OVER_BUDGET naming it", async () => {
    await expect(
      execute(
        "convert",
        { output_format: "docx" },
        [file("big.md", 100e6)],
        testContext({ engines: { pandoc: {} } as never }),
      ),
    ).rejects.toMatchObject({
      code: "OVER_BUDGET",
      message: `An input of convert is 100000000 bytes; the engines here take files up to ${NATIVE_PANDOC_MAX_BYTES} bytes.`,
    });
  });
});

describe("operations/kit.ts: bytes or a stream, by the row's threshold", () => {
  const row = engineRow("ffmpeg-native")!;
  const ctx = (nativeStreamBytes?: number) => ({
    signal: new AbortController().signal,
    settings: { nativeStreamBytes },
  });

  it("exactly at the threshold: bytes; one byte over: a stream of the file's size", async () => {
    expect(await readInputOrStream(video(NATIVE_MAX_BYTES), ctx(), row)).toBeInstanceOf(Uint8Array);
    const over = await readInputOrStream(video(NATIVE_MAX_BYTES + 1), ctx(), row);
    expect(isStreamed(over)).toBe(true);
    expect((over as { length: number }).length).toBe(NATIVE_MAX_BYTES + 1);
  });

  it("NATIVE_STREAM_BYTES lowers the threshold, never raises it", async () => {
    expect(isStreamed(await readInputOrStream(video(1001), ctx(1000), row))).toBe(true);
    expect(await readInputOrStream(video(1000), ctx(1000), row)).toBeInstanceOf(Uint8Array);
    expect(isStreamed(await readInputOrStream(video(NATIVE_MAX_BYTES + 1), ctx(NATIVE_MAX_BYTES * 2), row))).toBe(true);
  });

  it("an operation reading bytes (command) is refused over the in-memory budget, naming both limits", async () => {
    await expect(readInput(video(NATIVE_MAX_BYTES + 1), ctx(), row)).rejects.toMatchObject({
      code: "OVER_BUDGET",
      message:
        "The input camera.mp4 is 64 MiB; the ffmpeg-native engine takes files up to 64 MiB here (up to 5120 MiB where an operation streams them).",
    });
  });

  it("a row that does not stream reads bytes up to its budget", async () => {
    const fonts = engineRow("fonttools")!;
    expect(fonts.budget.streamOver).toBeUndefined();
    expect(await readInputOrStream(file("a.ttf", 1000), ctx(10), fonts)).toBeInstanceOf(Uint8Array);
  });
});
