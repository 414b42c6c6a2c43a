/**
 * The WebAssembly ffmpeg engine's own budget defaults (read by the engine and by its row in
 * registry.ts); the budget's shape is the media kind's (kinds/media.ts `MediaBudget`).
 */
import type { MediaBudget } from "../kinds/media";

/**
 * The WebAssembly engine's budget (issue 13), measured on this machine (closing note; `npm run bench
 * -- media`). One engine Worker isolate has 128 MB for everything: the core's WebAssembly memory
 * and the files, which MEMFS keeps as JavaScript arrays beside the request's and answer's copies.
 * - Memory (WebAssembly memory at the end of a run): decoding, thumbnails and audio stay at
 *   33–40 MB up to 1920×1080; encoding grows with the output frame — x264 `veryfast` 48 MB at
 *   640×360, 70 MB at 854×480, 84 MB at 960×540, 121 MB at 1280×720, 230 MB at 1920×1080; VP9
 *   (realtime) 70 MB at 640×360, 100 MB at 854×480, 121 MB at 960×540, 177 MB at 1280×720; a GIF
 *   in two runs 40 MB at 320×180. So x264/MPEG-4/GIF encode up to 854×480 and VP8/VP9/x265 up to
 *   640×360 here, with 3 MiB of input (issue 49, the isolate's own figures in test/engines-heavy/isolate-memory.test.ts: a 1080p
 *   input re-encoded at those sizes peaked at 114–122 MB with 7.9 MB of input, 96–98 MB with 4.1 MB, 94–95 MB with
 *   3.4 MB; the decoder's frames and MEMFS's copies of the files); larger frames and files go to
 *   native ffmpeg (or ask for a smaller width/height, which is measured on the output).
 * - CPU: x264 `veryfast` runs at 5–7.5 M pixel-frames per second of WebAssembly and VP9 realtime at
 *   ~3.3 M, so 150 M pixel-frames is 20–45 s, inside the engine Worker's cpu_ms of 120 s.
 */
export const DEFAULT_MEDIA_BUDGET: MediaBudget = {
  maxBytes: 3 * 1024 * 1024,
  maxPixelFrames: 150_000_000,
  maxFramePixels: 1920 * 1088,
  maxEncodePixels: 854 * 480,
  maxEncodePixelsHeavy: 640 * 360,
  maxSeconds: 30 * 60,
  maxOutputBytes: 48 * 1024 * 1024,
};
