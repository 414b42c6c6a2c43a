/**
 * Big media and the engine budgets (issue 35): a video over the WebAssembly ffmpeg's budget (16 MiB)
 * is handed to the native ffmpeg without the WASM engine being asked, and a video over the native
 * engine's budget (NATIVE_MAX_BYTES, 64 MiB: the native wire still carries files in memory) is a
 * coded OVER_BUDGET naming the limit — imported, stored and exported at any size, but not converted.
 * Stand-ins record which engine routing asked; the sizes are declared, as R2 reports them.
 */
import { describe, expect, it } from "vitest";
import { NATIVE_MAX_BYTES } from "../../src/engines/native/rows";
import { execute } from "../../src/runner/execute";
import type { InputFile } from "../../src/operations/types";
import { testContext } from "../support/context";

const video = (size: number): InputFile => ({
  filename: "camera.mp4",
  size,
  fromTask: "in",
  key: "k/camera.mp4",
  bytes: async () => new Uint8Array(0),
});

/** A media engine stand-in that records its calls and answers UNSUPPORTED. */
function standIn(calls: string[], name: string) {
  const refuse = async () => {
    calls.push(name);
    return {
      ok: false as const,
      error: { code: "UNSUPPORTED", message: `${name} stand-in`, retryable: false },
      engineVersion: "0",
    };
  };
  return { run: refuse, command: refuse, info: async () => ({ engineVersion: "0", wasmMemoryBytes: 0 }) };
}

describe("big media goes to the native engine", () => {
  it("a 60 MB video skips the WebAssembly ffmpeg (16 MiB budget) for the native ffmpeg", async () => {
    const calls: string[] = [];
    const ctx = testContext({
      engines: { ffmpeg: standIn(calls, "ffmpeg"), "ffmpeg-native": standIn(calls, "ffmpeg-native") } as never,
    });
    const tried: { engine?: { name: string } } = {};
    await expect(execute("convert", { output_format: "webm" }, [video(60e6)], ctx, tried)).rejects.toMatchObject({
      code: "UNSUPPORTED",
    });
    expect(calls).toEqual(["ffmpeg-native"]);
    expect(tried.engine?.name).toBe("ffmpeg-native");
  });

  it("a 1 GB video is over every engine's budget here: OVER_BUDGET naming the native limit, no engine asked", async () => {
    const calls: string[] = [];
    const ctx = testContext({
      engines: { ffmpeg: standIn(calls, "ffmpeg"), "ffmpeg-native": standIn(calls, "ffmpeg-native") } as never,
    });
    await expect(execute("convert", { output_format: "webm" }, [video(1e9)], ctx)).rejects.toMatchObject({
      code: "OVER_BUDGET",
      message: `An input of convert is 1000000000 bytes; the engines here take files up to ${NATIVE_MAX_BYTES} bytes.`,
    });
    expect(NATIVE_MAX_BYTES).toBe(64 * 1024 * 1024);
    expect(calls).toEqual([]);
  });
});
