/**
 * The media kind (kinds/index.ts): audio and video through ffmpeg, in WebAssembly (engine
 * Worker wasm/ffmpeg) or natively (the native engine's row "ffmpeg-native"). Requests, probes and
 * budgets are the shared shapes of native-protocol/media/ (formats.ts, probe.ts, budget.ts), so
 * both hosts read the same request and build the same ffmpeg command (plan.ts).
 */
import type { MediaCommandRequest } from "../../../native-protocol/command";
import type { StreamedBytes } from "../../../native-protocol/frame";
import type { MediaBudget } from "../../../native-protocol/media/budget";
import type { MediaRequest } from "../../../native-protocol/media/formats";
import type { MediaProbe } from "../../../native-protocol/media/probe";
import type { EngineResult } from "../errors";

export type { MediaBudget, MediaCommandRequest, MediaProbe, MediaRequest };
export type { MediaOptions, ThumbnailOptions, WatermarkOptions } from "../../../native-protocol/media/formats";

/** What a media call answers beside its payload: the WebAssembly memory it reached, bytes (0 natively). */
interface Measured {
  wasmMemoryBytes?: number;
  /** Milliseconds the engine spent. */
  ms?: number;
}

/**
 * The media engine. Failures are data (EngineResult): OPEN_FAILED, CONVERSION_FAILED, OVER_BUDGET, TIMEOUT, UNSUPPORTED.
 * `C` is the data type of its command's files: bytes or streams (the kind's), bytes only for the WebAssembly engine
 * (its factory says so: `MediaEngine<Uint8Array>`).
 */
export interface MediaEngine<C extends Uint8Array | StreamedBytes = Uint8Array | StreamedBytes> {
  /**
   * One input → one output file (convert, thumbnail, watermark); `probe` is what the input was found to be. The
   * native engine takes a StreamedBytes input and may answer `data` as one (issue 35: larger than the Worker
   * holds; read it once, in order); the WebAssembly engine takes and answers bytes.
   */
  run(req: MediaRequest): Promise<EngineResult<{ data: Uint8Array | StreamedBytes; probe: MediaProbe } & Measured>>;
  /**
   * A command line without a shell: files written under /output/ in name order; `command` the line as run. The native
   * engine takes inputs as streams (issue 49: over its row's `streamOver`) and then answers its files as streams when
   * large; the WebAssembly engine takes and answers bytes (a stream is UNSUPPORTED there).
   */
  command(
    req: MediaCommandRequest,
  ): Promise<EngineResult<{ files: { filename: string; data: C }[]; command: string; output?: string } & Measured>>;
  /** Version and current WebAssembly memory, bytes. */
  info(): Promise<{ engineVersion: string; wasmMemoryBytes: number }>;
}
