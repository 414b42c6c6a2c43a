/**
 * Shared fixtures of the media-* unit tests: the in-process ffmpeg engine (WebAssembly), corpus
 * files, temporary files, and the oracles: Debian's native `ffprobe`/`ffmpeg` 5.1 and ImageMagick 6
 * (`identify`, `convert`), never the engine under test.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { EngineResult } from "../../src/engines/errors";
import type { MediaEngine, MediaProbe, MediaRequest } from "../../src/engines/kinds/media";
import { nodeFfmpegEngine } from "../../src/runtime/node/ffmpeg";
import { CORPUS, corpusPath } from "./corpus";

/** The WebAssembly engine's media kind: it takes and answers bytes, never StreamedBytes (the native engine's, issue 35). */
export type WasmMediaEngine = Omit<MediaEngine<Uint8Array>, "run"> & {
  run(
    req: MediaRequest,
  ): Promise<EngineResult<{ data: Uint8Array; probe: MediaProbe; wasmMemoryBytes?: number; ms?: number }>>;
};
/** A media input held in memory. */
export type BytesFile = { data: Uint8Array; filename: string };

let engine: WasmMediaEngine | undefined;
/** The in-process WebAssembly engine (the core is compiled on first use). */
export function ffmpegEngine(): WasmMediaEngine {
  engine ??= nodeFfmpegEngine() as WasmMediaEngine;
  return engine;
}

/** Corpus files of one folder ("audio", "video", "broken"), as paths relative to the corpus, sorted. */
export function corpusFiles(dir: string): string[] {
  return readdirSync(join(CORPUS, dir))
    .sort()
    .map((f) => `${dir}/${f}`);
}

/** Bytes of a corpus file. */
export function corpusBytes(rel: string): Uint8Array {
  return new Uint8Array(readFileSync(corpusPath(rel)));
}

/** A corpus file as the engine's input (its own file name). */
export function corpusInput(rel: string): BytesFile {
  return { data: corpusBytes(rel), filename: basename(rel) };
}

/** One temporary directory per test file; `cleanup()` in afterAll removes it. */
export function tempDir(prefix = "media-test-") {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let n = 0;
  return {
    dir,
    /** Writes `data` to a fresh file ending in `.ext`; its path. */
    file(data: Uint8Array | string, ext: string): string {
      const path = join(dir, `f${n++}.${ext}`);
      writeFileSync(path, data);
      return path;
    },
    /** A fresh path ending in `.ext` (nothing written). */
    path(ext: string): string {
      return join(dir, `f${n++}.${ext}`);
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** What native ffprobe says of one stream (the fields these tests read). */
export interface NativeStream {
  index: number;
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
  bit_rate?: string;
  duration?: string;
  nb_frames?: string;
  disposition?: Record<string, number>;
}

export interface NativeProbe {
  format: { format_name: string; duration?: string; bit_rate?: string };
  streams: NativeStream[];
}

/** Native ffprobe's JSON text of a file (-show_format -show_streams), as the engine's own probe asks. */
export function ffprobeJsonText(path: string): string {
  return execFileSync("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path], {
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
}

/** Native ffprobe of a file. */
export function ffprobe(path: string): NativeProbe {
  return JSON.parse(ffprobeJsonText(path));
}

/** Native ffprobe's count of decodable video frames of the first video stream (-count_frames). */
export function videoFrames(path: string): number {
  const out = execFileSync(
    "ffprobe",
    [
      "-v",
      "error",
      "-count_frames",
      "-select_streams",
      "v:0",
      "-show_entries",
      "stream=nb_read_frames",
      "-of",
      "csv=p=0",
      path,
    ],
    { encoding: "utf8" },
  );
  return Number(out.trim());
}

/** The container duration native ffprobe reports, seconds (NaN when it has none). */
export function durationOf(p: NativeProbe): number {
  return Number(p.format.duration ?? NaN);
}

/** The first video stream that is not an attached picture, per native ffprobe. */
export function videoStream(p: NativeProbe): NativeStream | undefined {
  return p.streams.find((s) => s.codec_type === "video" && s.disposition?.attached_pic !== 1);
}

/** The first audio stream, per native ffprobe. */
export function audioStream(p: NativeProbe): NativeStream | undefined {
  return p.streams.find((s) => s.codec_type === "audio");
}

/** One frame of a video at `t` seconds, decoded by native ffmpeg to a PNG file; its path. */
export function nativeFrame(video: string, t: number, out: string): string {
  execFileSync("ffmpeg", ["-v", "error", "-y", "-ss", String(t), "-i", video, "-frames:v", "1", "-update", "1", out]);
  return out;
}

/** ImageMagick's `identify -format` of a file (first frame). */
export function identify(path: string, format: string): string {
  return execFileSync("identify", ["-format", format, `${path}[0]`], { encoding: "utf8" }).trim();
}

/** Width × height of an image, per identify. */
export function imageSize(path: string): { format: string; width: number; height: number } {
  const [format, w, h] = identify(path, "%m %w %h").split(" ");
  return { format: format!, width: Number(w), height: Number(h) };
}

/**
 * Mean absolute difference (0–1, over every channel) of two same-sized images inside the
 * rectangle w×h+x+y, per ImageMagick's difference composite.
 */
export function regionDifference(a: string, b: string, w: number, h: number, x: number, y: number): number {
  const out = execFileSync(
    "convert",
    [
      a,
      b,
      "-compose",
      "difference",
      "-composite",
      "-crop",
      `${w}x${h}+${x}+${y}`,
      "+repage",
      "-format",
      "%[fx:mean]",
      "info:",
    ],
    { encoding: "utf8" },
  );
  return Number(out.trim());
}

/** Mean red, green and blue (0–1) of the rectangle w×h+x+y of an image. */
export function regionColour(
  path: string,
  w: number,
  h: number,
  x: number,
  y: number,
): { r: number; g: number; b: number } {
  const out = execFileSync(
    "convert",
    [path, "-crop", `${w}x${h}+${x}+${y}`, "+repage", "-format", "%[fx:mean.r] %[fx:mean.g] %[fx:mean.b]", "info:"],
    { encoding: "utf8" },
  );
  const [r, g, b] = out.trim().split(" ").map(Number);
  return { r: r!, g: g!, b: b! };
}
