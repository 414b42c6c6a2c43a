/**
 * The media kind (engines/kinds.ts): audio and video through ffmpeg, in WebAssembly (engine
 * Worker wasm/ffmpeg) or natively (the native engine's row "ffmpeg-native"). Requests, probes and
 * budgets are the shared shapes of container/media/plan.ts, so both hosts read the same request
 * and build the same ffmpeg command.
 */
import type { MediaBudget, MediaProbe, MediaRequest } from "../../../container/media/plan";
import type { EngineResult } from "../kinds";

export type { MediaBudget, MediaOptions, MediaProbe, MediaRequest, ThumbnailOptions, WatermarkOptions } from "../../../container/media/plan";

/** A `command` task with engine ffmpeg (contract §6): `ffmpeg` or `ffprobe` and its argument line. */
export interface MediaCommandRequest {
  command: "ffmpeg" | "ffprobe";
  arguments: string;
  /** Files laid out at /input/<task>/<filename>. */
  inputs: { task: string; filename: string; data: Uint8Array }[];
  capture_output?: boolean;
}

/** What a media call answers beside its payload: the WebAssembly memory it reached, bytes (0 natively). */
interface Measured {
  wasmMemoryBytes?: number;
  /** Milliseconds the engine spent. */
  ms?: number;
}

/** The media engine. Failures are data (EngineResult): OPEN_FAILED, CONVERSION_FAILED, OVER_BUDGET, TIMEOUT, UNSUPPORTED. */
export interface MediaEngine {
  /** One input → one output file (convert, thumbnail, watermark); `probe` is what the input was found to be. */
  run(req: MediaRequest): Promise<EngineResult<{ data: Uint8Array; probe: MediaProbe } & Measured>>;
  /** A command line without a shell: files written under /output/ in name order; `command` the line as run. */
  command(req: MediaCommandRequest): Promise<EngineResult<{ files: { filename: string; data: Uint8Array }[]; command: string; output?: string } & Measured>>;
  /** Version and current WebAssembly memory, bytes. */
  info(): Promise<{ engineVersion: string; wasmMemoryBytes: number }>;
}

/**
 * The WebAssembly engine's budget (issue 13), measured on this machine (closing note; `npm run bench
 * -- media`). One engine Worker isolate has 128 MB for everything: the core's WebAssembly memory
 * and the files, which MEMFS keeps as JavaScript arrays beside the request's and answer's copies.
 * - Memory (WebAssembly memory at the end of a run): decoding, thumbnails and audio stay at
 *   33–40 MB up to 1920×1080; encoding grows with the output frame — x264 `veryfast` 48 MB at
 *   640×360, 70 MB at 854×480, 84 MB at 960×540, 121 MB at 1280×720, 230 MB at 1920×1080; VP9
 *   (realtime) 70 MB at 640×360, 100 MB at 854×480, 121 MB at 960×540, 177 MB at 1280×720; a GIF
 *   in two runs 40 MB at 320×180. So x264/MPEG-4/GIF encode up to 854×480 and VP8/VP9/x265 up to
 *   640×360 here, with 16 MiB of input; larger frames go to native ffmpeg (or ask for a smaller
 *   width/height, which is measured on the output).
 * - CPU: x264 `veryfast` runs at 5–7.5 M pixel-frames per second of WebAssembly and VP9 realtime at
 *   ~3.3 M, so 150 M pixel-frames is 20–45 s, inside the engine Worker's cpu_ms of 120 s.
 */
export const DEFAULT_MEDIA_BUDGET: MediaBudget = {
  maxBytes: 16 * 1024 * 1024,
  maxPixelFrames: 150_000_000,
  maxFramePixels: 1920 * 1088,
  maxEncodePixels: 854 * 480,
  maxEncodePixelsHeavy: 640 * 360,
  maxSeconds: 30 * 60,
  maxOutputBytes: 48 * 1024 * 1024,
};
