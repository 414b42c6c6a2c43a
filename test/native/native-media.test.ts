/**
 * Issue 13 on the native side: Debian's ffmpeg in the native engine (container/engines/ffmpeg.ts)
 * behind the real runner (`execute`) and the engine table's routing — the WebAssembly ffmpeg first,
 * OVER_BUDGET handing a 1080p clip to native ffmpeg, the same request building the same command in
 * both; the native `command` with /input and /output mapped and its refusals, also over 64 MiB (issue 49: a generated
 * 100 MB clip reaches the command's folder as a file, its 100 MB remux comes back from disk). Oracle: ffprobe, and
 * Debian's ffmpeg's md5 of the video packets.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineInstances } from "../../src/engines/registry";
import { execute } from "../../src/runner/execute";
import { nodeEngines } from "../../src/runtime/node/engines";
import { corpusPath } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { bytesInput, corpusInput, expectTaskError, testContext, tmpFile } from "../support/pdf-helpers";
import { scaled } from "../support/time-scale";
import { isStreamed } from "../../native-protocol/frame";
import { heldBytes } from "../../src/operations/kit";

let native: NativeServer;
let wasm: EngineInstances;
beforeAll(async () => {
  wasm = nodeEngines(["cloudflare", "ffmpeg"]);
  native = await startNativeEngine();
}, scaled(120_000));
afterAll(async () => native?.stop());

const full = () => testContext({ engines: { ...wasm, ...native.engines() } });

/** ffprobe's format and first streams. */
function probe(path: string): { duration: number; streams: Record<string, unknown>[] } {
  const j = JSON.parse(
    execFileSync("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path]).toString(),
  );
  return { duration: Number(j.format.duration), streams: j.streams };
}

/** Duration of the same conversion by Debian's ffmpeg run by hand (the oracle for frame-duplicating sources). */
function nativeDuration(src: string, args: string[], ext: string): number {
  const out = tmpFile(new Uint8Array(), ext);
  execFileSync("ffmpeg", ["-v", "error", "-y", "-i", src, ...args, out]);
  return probe(out).duration;
}

describe("native ffmpeg takes what the WebAssembly budget refuses", () => {
  it("a 1920×1080 VP8 clip (264 M pixel-frames) → mp4: ffmpeg (wasm) answers OVER_BUDGET, ffmpeg-native converts it", async () => {
    const rel = "video/filetype-fixture-null.webm";
    const r = await execute("convert", { output_format: "mp4" }, [corpusInput(rel)], full());
    expect(r.engine.name).toBe("ffmpeg-native");
    expect(r.engine.version).toMatch(/^5\.1\./);
    const out = probe(tmpFile(r.out.files[0]!, "mp4"));
    expect(out.streams[0]).toMatchObject({ codec_name: "h264", width: 1920, height: 1080, pix_fmt: "yuv420p" });
    // the source holds 36 frames with gaps over 4.24 s; mp4 output is constant-rate, as Debian's ffmpeg makes it
    expect(
      Math.abs(out.duration - nativeDuration(corpusPath(rel), ["-c:v", "libx264", "-preset", "veryfast"], "mp4")),
    ).toBeLessThan(0.1);
  });

  it("without the native engine the same task ends OVER_BUDGET naming the numbers", async () => {
    const err = await expectTaskError(
      () =>
        execute(
          "convert",
          { output_format: "mp4" },
          [corpusInput("video/filetype-fixture-null.webm")],
          testContext({ engines: wasm }),
        ),
      "OVER_BUDGET",
    );
    expect(err.message).toMatch(/1920×1080.*264 M pixel-frames/);
  });

  it("engine: ffmpeg-native runs a small convert natively too, with the same defaults (vp9 + opus in webm)", async () => {
    const r = await execute(
      "convert",
      { output_format: "webm", engine: "ffmpeg-native" },
      [corpusInput("video/tika-en-US_Hi.mp4")],
      full(),
    );
    expect(r.engine.name).toBe("ffmpeg-native");
    const out = probe(tmpFile(r.out.files[0]!, "webm"));
    expect(out.streams.map((s) => s.codec_name)).toEqual(["vp9", "opus"]);
    expect(Math.abs(out.duration - 1.069)).toBeLessThan(0.1);
  });

  it("a native GIF (two runs: palette, then frames) and a native thumbnail", async () => {
    const src = corpusInput("video/ffmpegwasm-Big_Buck_Bunny_180_10s.webm");
    const gif = await execute(
      "convert",
      { output_format: "gif", engine: "ffmpeg-native", trim_end: 2, width: 160 },
      [src],
      full(),
    );
    const g = probe(tmpFile(gif.out.files[0]!, "gif"));
    expect(g.streams[0]).toMatchObject({ codec_name: "gif", width: 160, height: 90 });
    const thumb = await execute(
      "thumbnail",
      { output_format: "jpg", engine: "ffmpeg-native", width: 80, height: 80, fit: "crop" },
      [src],
      full(),
    );
    expect(probe(tmpFile(thumb.out.files[0]!, "jpg")).streams[0]).toMatchObject({
      codec_name: "mjpeg",
      width: 80,
      height: 80,
    });
  });

  it("video_codec x265: the WebAssembly ffmpeg answers UNSUPPORTED (its x265 never returns), native ffmpeg encodes HEVC", async () => {
    const r = await execute(
      "convert",
      { output_format: "mkv", video_codec: "x265", trim_end: 1 },
      [corpusInput("video/ffmpegwasm-Big_Buck_Bunny_180_10s.webm")],
      full(),
    );
    expect(r.engine.name).toBe("ffmpeg-native");
    expect(probe(tmpFile(r.out.files[0]!, "mkv")).streams[0]).toMatchObject({
      codec_name: "hevc",
      width: 320,
      height: 180,
    });
  });

  it("a file that is not media is OPEN_FAILED natively as in WebAssembly", async () => {
    const input = () => bytesInput("fake.mp4", new TextEncoder().encode("not a video at all"));
    await expectTaskError(
      () => execute("convert", { output_format: "webm", engine: "ffmpeg-native" }, [input()], full()),
      "OPEN_FAILED",
    );
    await expectTaskError(() => execute("convert", { output_format: "webm" }, [input()], full()), "OPEN_FAILED");
  });
});

describe("issue 34: the new formats natively", () => {
  /** A file written by Debian's ffmpeg with `args` (lavfi sources), ending in `.ext`. */
  const made = (ext: string, args: string[]) => {
    const out = tmpFile(new Uint8Array(), ext);
    execFileSync("ffmpeg", ["-v", "error", "-y", ...args, "-t", "2", out]);
    return out;
  };
  const SRC = [
    "-f",
    "lavfi",
    "-i",
    "testsrc=size=720x576:rate=25:duration=2",
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=440:duration=2:sample_rate=48000",
  ];

  for (const [ext, args] of [
    ["dv", [...SRC, "-ac", "2", "-c:v", "dvvideo", "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le", "-f", "dv"]],
    ["mxf", [...SRC, "-c:v", "mpeg2video", "-c:a", "pcm_s16le", "-f", "mxf"]],
  ] as const) {
    it(`a 720×576 ${ext} → wmv: over the WebAssembly encoder's frame budget, ffmpeg-native writes wmv2 + wmav2`, async () => {
      const src = made(ext, [...args]);
      const input = { filename: `clip.${ext}`, data: new Uint8Array(readFileSync(src)) };
      const r = await execute("convert", { output_format: "wmv" }, [bytesInput(input.filename, input.data)], full());
      expect(r.engine.name).toBe("ffmpeg-native");
      const out = probe(tmpFile(r.out.files[0]!, "wmv"));
      expect(out.streams.map((s) => s.codec_name)).toEqual(["wmv2", "wmav2"]);
      expect(out.streams[0]).toMatchObject({ width: 720, height: 576 });
      expect(Math.abs(out.duration - probe(src).duration)).toBeLessThan(0.2);
    });
  }

  for (const [out, codec] of [
    ["aiff", "pcm_s16be"],
    ["wma", "wmav2"],
    ["flv", "h264"],
  ] as const) {
    it(`engine: ffmpeg-native writes ${out} (${codec}) from a corpus file`, async () => {
      const rel = out === "flv" ? "video/tika-en-US_Hi.mp4" : "audio/cpython-pluck-pcm24.aiff";
      const r = await execute("convert", { output_format: out, engine: "ffmpeg-native" }, [corpusInput(rel)], full());
      expect(r.engine.name).toBe("ffmpeg-native");
      const p = probe(tmpFile(r.out.files[0]!, out));
      expect(p.streams[0]!.codec_name).toBe(codec);
      expect(Math.abs(p.duration - probe(corpusPath(rel)).duration)).toBeLessThan(out === "wma" ? 0.3 : 0.1);
    });
  }
});

describe("native ffmpeg/ffprobe commands", () => {
  const clip = () => ({ ...corpusInput("video/tika-en-US_Hi.mp4", "hi.mp4"), fromTask: "up" });

  it("ffmpeg writes under /output, the console names /input paths, not the engine's folders", async () => {
    const r = await execute(
      "command",
      {
        engine: "ffmpeg-native",
        command: "ffmpeg",
        arguments: "-i /input/up/hi.mp4 -vn /output/hi.mp3",
        capture_output: true,
      },
      [clip()],
      full(),
    );
    expect(r.engine.name).toBe("ffmpeg-native");
    expect(r.out.files.map((f) => f.filename)).toEqual(["hi.mp3"]);
    expect(probe(tmpFile(r.out.files[0]!, "mp3")).streams[0]!.codec_name).toBe("mp3");
    const output = String(r.out.extra!.output);
    expect(output).toContain("from '/input/up/hi.mp4'");
    expect(output).not.toMatch(/native-engine-|call-/);
  });

  it("ffprobe with capture_output prints what Debian's ffprobe prints for the file", async () => {
    const r = await execute(
      "command",
      { engine: "ffmpeg-native", command: "ffprobe", arguments: "-hide_banner /input/up/hi.mp4", capture_output: true },
      [clip()],
      full(),
    );
    const ours = String(r.out.extra!.output).replaceAll("/input/up/hi.mp4", "F").trim();
    const ref = execFileSync("sh", ["-c", `ffprobe -hide_banner "${corpusPath("video/tika-en-US_Hi.mp4")}" 2>&1`])
      .toString()
      .replaceAll(corpusPath("video/tika-en-US_Hi.mp4"), "F")
      .trim();
    expect(ours).toBe(ref);
  });

  it("refuses paths outside /input and /output and network protocols before running anything", async () => {
    for (const args of [
      "-i /etc/passwd /output/x.mp4",
      "-i http://127.0.0.1:1/x.mp4 /output/x.mp4",
      "-i /input/up/hi.mp4 -vf movie=/etc/passwd /output/x.mp4",
    ]) {
      const err = await expectTaskError(
        () => execute("command", { engine: "ffmpeg-native", command: "ffmpeg", arguments: args }, [clip()], full()),
        "UNSUPPORTED",
      );
      expect(err.message).toMatch(/not allowed|only files under/);
    }
  });
});

describe("native ffmpeg command over 64 MiB (issue 49)", () => {
  let scratch: string;
  let big: string;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), "native-media-command-"));
    big = join(scratch, "noise.mp4");
    // 3 s of 1280 × 720 noise, lossless H.264: ~100 MB, over NATIVE_MAX_BYTES (64 MiB), written in a few seconds
    execFileSync("ffmpeg", [
      ...["-v", "error", "-y", "-f", "lavfi", "-i", "nullsrc=s=1280x720:r=25:d=3"],
      ...["-vf", "noise=alls=100:allf=t+u,format=yuv420p", "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", big],
    ]);
  }, scaled(120_000));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /** ffmpeg's md5 of a file's video packets (the stream as stored, whatever the container). */
  const packetsMd5 = (path: string) =>
    execFileSync("ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-c", "copy", "-f", "md5", "-"], {
      encoding: "utf8",
    }).trim();

  it(
    "ffmpeg -c copy of a 100 MB clip: the input went as a file, the 100 MB remux came back streamed, every packet kept",
    async () => {
      const input = { ...bytesInput("noise.mp4", new Uint8Array(readFileSync(big))), fromTask: "up" };
      expect(input.size).toBeGreaterThan(64 * 2 ** 20);
      const r = await execute(
        "command",
        { engine: "ffmpeg-native", command: "ffmpeg", arguments: "-i /input/up/noise.mp4 -c copy /output/noise.mkv" },
        [input],
        full(),
      );
      expect(r.engine.name).toBe("ffmpeg-native");
      expect(r.out.files.map((f) => f.filename)).toEqual(["noise.mkv"]);
      expect(isStreamed(r.out.files[0]!.data)).toBe(true);
      const out = join(scratch, "noise.mkv");
      writeFileSync(out, await heldBytes(r.out.files[0]!.data as never));
      const p = probe(out);
      expect(p.streams[0]).toMatchObject({ codec_name: "h264", width: 1280, height: 720 });
      expect(Math.abs(p.duration - 3)).toBeLessThan(0.1);
      expect(packetsMd5(out)).toBe(packetsMd5(big));
    },
    scaled(120_000),
  );
});
