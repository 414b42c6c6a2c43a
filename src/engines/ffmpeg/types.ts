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
 * The WebAssembly engine's budget (issue 13; measured in the closing note). One engine Worker
 * isolate has 128 MB for the ffmpeg core (32–58 MB of WebAssembly memory, measured) and the files,
 * which MEMFS keeps as JavaScript arrays beside the request and answer copies; the CPU limit of
 * the engine Worker (wasm/ffmpeg/wrangler.toml) bounds the work: x264 `veryfast` runs at about
 * 7 M pixel-frames per second of WebAssembly CPU on this machine, so 150 M is ~20 s.
 */
export const DEFAULT_MEDIA_BUDGET: MediaBudget = {
  maxBytes: 24 * 1024 * 1024,
  maxPixelFrames: 150_000_000,
  maxFramePixels: 1920 * 1088,
  maxSeconds: 30 * 60,
  maxOutputBytes: 48 * 1024 * 1024,
};

